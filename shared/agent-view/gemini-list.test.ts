/**
 * Gemini CLI's reading of a SKILL.md against what Gemini CLI 0.61.0 itself listed of every probe
 * (scripts/probes/gemini-cli.observed.json, recorded by scripts/agent-listing.mjs from a real run),
 * and the plain-language reasons for what it skips or reads otherwise.
 */
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill/frontmatter-parser';
import { agentObserved, agentProbes } from '../testing/agent-probes';
import { geminiEntry, geminiReading, geminiSection, type GeminiReading } from './gemini-list';

const observed = agentObserved('gemini-cli');

const listedAs = (r: GeminiReading): { name: string; description: string } | null =>
  r.loads ? { name: r.name, description: r.description } : null;

describe('Gemini CLI reading, against what Gemini CLI 0.61.0 listed', () => {
  const all = agentProbes('gemini-cli');
  it('has a probe for every observation, and observations of every kind', () => {
    expect(observed.length).toBeGreaterThan(90);
    for (const o of observed) expect(all.has(o.folder), o.folder).toBe(true);
    expect(observed.filter((o) => o.listed === null).length).toBeGreaterThan(20);
  });

  for (const o of observed)
    it(`${o.folder}: ${o.listed === null ? 'not listed' : 'listed'}`, () => {
      const probe = all.get(o.folder);
      if (!probe) throw new Error(`no probe ${o.folder}`);
      const reading = geminiReading(probe.text, probe.folder);
      if (o.listed !== null || !reading.loads) {
        expect(listedAs(reading)).toEqual(o.listed);
        return;
      }
      // Loaded here but not listed there: only when another probe has the name (Gemini CLI lists
      // one skill per name), and that one was listed.
      const name = reading.name;
      expect(observed.some((other) => other.listed?.name === name)).toBe(true);
    });

  it('reads the same with the parse the catalog already made (no second YAML reading needed)', () => {
    for (const probe of all.values()) {
      const parsed = parseSkill(probe.text);
      expect(geminiReading(probe.text, probe.folder, { parsed })).toEqual(
        geminiReading(probe.text, probe.folder),
      );
    }
  });
});

describe('Gemini CLI reading: the reasons, in plain words', () => {
  const md = (fm: string): string => `---\n${fm}\n---\nBody\n`;

  it('says why it skips a file', () => {
    const cases: [string, string][] = [
      ['\uFEFF---\nname: a\ndescription: b\n---\n', 'invisible byte-order mark'],
      ['--- \nname: a\ndescription: b\n---\n', 'its first line is not exactly `---`'],
      ['---\nname: a\ndescription: b\n', 'not closed by a line that starts with `---`'],
      [md('name: a'), 'finds no `name:` and `description:` lines'],
      [md('description: [x'), 'its frontmatter is not YAML, and it finds no'],
    ];
    for (const [text, why] of cases) {
      const r = geminiReading(text, 'a');
      expect(r.loads).toBe(false);
      if (!r.loads) {
        expect(r.why).toMatch(/^Gemini CLI skips it: /);
        expect(r.why).toContain(why);
      }
    }
  });

  it('does not see a skill in a dot folder, node_modules, two folders down, or a skill.md', () => {
    const text = md('name: a\ndescription: b');
    const why = (r: GeminiReading): string => (r.loads ? '' : r.why);
    expect(why(geminiReading(text, '.hidden'))).toContain('starts with a dot');
    expect(why(geminiReading(text, 'node_modules'))).toContain('node_modules');
    expect(why(geminiReading(text, 'pdf', { depth: 2 }))).toContain('2 folders down');
    expect(why(geminiReading(text, 'a', { fileName: 'skill.md' }))).toContain('named skill.md');
    // A SKILL.md in the skills folder itself is read, whatever that folder is called.
    expect(geminiReading(text, '.agents', { depth: 0 }).loads).toBe(true);
  });

  it('says what it reads otherwise than written', () => {
    // The quotes stay when the frontmatter is read line by line, and become `-` in the name.
    const r = geminiReading(md('name: "a:b"\ndescription: Use when: asked'), 'a');
    expect(r).toMatchObject({ loads: true, name: '-a-b-', description: 'Use when: asked' });
    if (r.loads) {
      expect(r.otherwise[0]).toContain('its frontmatter is not YAML');
      expect(r.otherwise[0]).toContain('quotes and comments kept');
      expect(r.otherwise[1]).toContain('“-a-b-”');
    }
    const typed = geminiReading(md('name: 123\ndescription: "quoted"'), 'a');
    expect(typed).toMatchObject({ loads: true, name: '123', description: '"quoted"' });
    if (typed.loads) expect(typed.otherwise[0]).toContain('`name` is not text in its YAML');
    const plain = geminiReading(md('name: a\ndescription: b'), 'a');
    expect(plain).toEqual({ loads: true, name: 'a', description: 'b', otherwise: [] });
  });

  it('reads a hostile frontmatter line by line in one pass', () => {
    // A pattern like Gemini CLI's own backtracks for seconds on these; the reading does not.
    const spaces = ' '.repeat(200_000);
    for (const key of ['name', 'description']) {
      const text = `---\n${key}: ${spaces}x\u2028y\n${key === 'name' ? 'description' : 'name'}: b\nbad: [\n---\n`;
      expect(geminiReading(text, 'a').loads).toBe(false);
    }
    const long = geminiReading(`---\nname: a\ndescription: a${spaces}z\nbad: [\n---\n`, 'a');
    expect(long).toMatchObject({ loads: true, description: `a${spaces}z` });
  });

  it('refuses to guess past the reader bounds: 100,000 keys', () => {
    const keys = Array.from({ length: 100_000 }, (_, k) => `k${k}: v`).join('\n');
    const r = geminiReading(md(`name: a\ndescription: b\n${keys}`), 'a');
    expect(r.loads).toBe(false);
    if (!r.loads) expect(r.why).toContain('Skillbench does not read a frontmatter this large');
  });

  it('writes the list as Gemini CLI does, unescaped', () => {
    const skill = {
      name: 'a&b',
      description: 'Tags <b>',
      location: '/p/.agents/skills/a/SKILL.md',
    };
    expect(geminiEntry(skill)).toBe(
      '  <skill>\n    <name>a&b</name>\n    <description>Tags <b></description>\n    <location>/p/.agents/skills/a/SKILL.md</location>\n  </skill>',
    );
    expect(geminiSection([skill])).toBe(
      `<available_skills>\n${geminiEntry(skill)}\n</available_skills>`,
    );
  });
});
