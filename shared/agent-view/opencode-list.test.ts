/**
 * OpenCode's reading of a SKILL.md against what OpenCode 1.18.33 itself loaded of every probe
 * (scripts/probes/opencode.observed.json, recorded by scripts/agent-listing.mjs from a real run of
 * `opencode debug skill`), and the plain-language reasons for what it skips or reads otherwise.
 */
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill/frontmatter-parser';
import { agentObserved, agentProbes } from '../testing/agent-probes';
import { openCodeReading, type OpenCodeReading } from './opencode-list';

const observed = agentObserved('opencode');

const loadedAs = (r: OpenCodeReading): { name: string; description?: string } | null =>
  r.loads
    ? { name: r.name, ...(r.description !== undefined ? { description: r.description } : {}) }
    : null;

describe('OpenCode reading, against what OpenCode 1.18.33 loaded', () => {
  const all = agentProbes('opencode');
  it('has a probe for every observation, and observations of every kind', () => {
    expect(observed.length).toBeGreaterThan(100);
    for (const o of observed) expect(all.has(o.folder), o.folder).toBe(true);
    expect(observed.filter((o) => o.listed === null).length).toBeGreaterThan(20);
    expect(
      observed.filter((o) => o.listed !== null && o.listed.description === undefined).length,
    ).toBeGreaterThan(1);
  });

  for (const o of observed)
    it(`${o.folder}: ${o.listed === null ? 'not loaded' : 'loaded'}`, () => {
      const probe = all.get(o.folder);
      if (!probe) throw new Error(`no probe ${o.folder}`);
      const reading = openCodeReading(probe.text);
      if (o.listed !== null || !reading.loads) {
        expect(loadedAs(reading)).toEqual(o.listed);
        return;
      }
      // Loaded here but not there: only when another probe has the name (OpenCode keeps one
      // skill per name), and that one was loaded.
      const name = reading.name;
      expect(observed.some((other) => other.listed?.name === name)).toBe(true);
    });

  it('reads the same with the parse the catalog already made', () => {
    for (const probe of all.values())
      expect(openCodeReading(probe.text, { parsed: parseSkill(probe.text) })).toEqual(
        openCodeReading(probe.text),
      );
  });
});

describe('OpenCode reading: the reasons, in plain words', () => {
  const md = (fm: string): string => `---\n${fm}\n---\nBody\n`;

  it('says why it skips a file', () => {
    const cases: [string, string][] = [
      [
        '\n---\nname: a\ndescription: b\n---\n',
        'it has no frontmatter (its first line is not `---`)',
      ],
      ['----\nname: a\ndescription: b\n---\n', 'it starts with `----`'],
      ['---toml\nname: a\ndescription: b\n---\n', 'names a format it cannot read'],
      [md('description: b'), 'it has no `name`'],
      [md('name: 1\ndescription: b'), 'its `name` is not text'],
      [md('name: a\ndescription:'), 'its `description` is not text'],
      [md('name: a\ndescription: [x'), 'its frontmatter is not YAML it can read'],
    ];
    for (const [text, why] of cases) {
      const r = openCodeReading(text);
      expect(r.loads, text).toBe(false);
      if (!r.loads) {
        expect(r.why).toMatch(/^OpenCode skips it: /);
        expect(r.why).toContain(why);
      }
    }
  });

  it('says what it reads otherwise than written, and loads a skill without a description', () => {
    const colon = openCodeReading(md('name: a\ndescription: Use when: asked'));
    expect(colon).toMatchObject({ loads: true, name: 'a', description: 'Use when: asked' });
    if (colon.loads)
      expect(colon.otherwise[0]).toContain('each value with a colon in it as a block of text');
    expect(openCodeReading(md('name: a'))).toEqual({ loads: true, name: 'a', otherwise: [] });
  });

  it('reads a hostile frontmatter in one pass, and refuses to guess past the reader bounds', () => {
    const spaces = ' '.repeat(200_000);
    const long = openCodeReading(`---\nname: a\ndescription: x${spaces}\u2028: y\nbad: [\n---\n`);
    expect(long.loads).toBe(false);
    const keys = Array.from({ length: 100_000 }, (_, k) => `k${k}: v`).join('\n');
    const over = openCodeReading(md(`name: a\ndescription: b\n${keys}`));
    expect(over.loads).toBe(false);
    if (!over.loads)
      expect(over.why).toContain('Skillbench does not read a frontmatter this large');
  });
});
