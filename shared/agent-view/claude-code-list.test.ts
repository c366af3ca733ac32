/**
 * Claude Code's skill list as Skillbench builds it, against the lines Claude Code 2.1.332 itself
 * sent the model for the same SKILL.md files (scripts/agent-listing.mjs, 2026-11-29;
 * docs/claude-code-listing.md). Each expected line below is the one Claude Code listed.
 */
import { describe, expect, it } from 'vitest';
import { byClaudeCodeOrder, claudeCodeList, claudeCodeReading } from './claude-code-list';

/** The lines of one skills folder: folder name → SKILL.md text. */
function lines(folders: Record<string, string>): string[] {
  return claudeCodeList(
    Object.entries(folders).map(([folder, text]) => ({
      folder,
      reading: claudeCodeReading(text),
    })),
  ).map((e) => e.line);
}

const one = (folder: string, text: string): string => lines({ [folder]: text })[0] ?? '';

describe("Claude Code's skill list: the text", () => {
  it('is the description, with when_to_use after " - "', () => {
    expect(
      one('e', '---\nname: e\ndescription: Does e.\nwhen_to_use: When e is asked.\n---\n# e\n'),
    ).toBe('- e: Does e. - When e is asked.');
  });

  it('with no description, empty or null: the body’s first line, a heading without its marks; "Skill" for no body', () => {
    expect(one('b2', '---\nname: b2\n---\n# Heading here\n\nFirst paragraph of the body.\n')).toBe(
      '- b2: Heading here',
    );
    expect(one('nb1', '---\nname: nb1\n---\n\n\n## Second-level heading\n\nPara.\n')).toBe(
      '- nb1: Second-level heading',
    );
    expect(one('nb2', '---\nname: nb2\n---\nFirst paragraph line one\nline two of it.\n')).toBe(
      '- nb2: First paragraph line one',
    );
    expect(one('d', '---\nname: d\ndescription: ""\n---\n# D head\n\nBody d.\n')).toBe(
      '- d: D head',
    );
    expect(one('nb6', '---\nname: nb6\ndescription:\n---\n# Empty key\n')).toBe('- nb6: Empty key');
    expect(one('nb3', '---\nname: nb3\n---\n')).toBe('- nb3: Skill');
    expect(one('nb4', '---\nname: nb4\n---\n```\ncode first\n```\n')).toBe('- nb4: ```');
    expect(one('nb5', '---\nname: nb5\n---\n- a list item first\n')).toBe(
      '- nb5: - a list item first',
    );
  });

  it('a number is listed as text', () => {
    expect(one('nb7', '---\nname: nb7\ndescription: 42\n---\n# Number desc\n')).toBe('- nb7: 42');
  });

  it('no frontmatter, or one not closed by a --- line: the whole file is body', () => {
    expect(one('nf1', '# Title only\n\nBody.\n')).toBe('- nf1: Title only');
    expect(one('nf2', '\n\nPlain text first.\n')).toBe('- nf2: Plain text first.');
    expect(one('a', 'no frontmatter\n')).toBe('- a: no frontmatter');
    expect(
      one('dots', '---\nname: dots\ndescription: Ends with dots.\n...\n# Body after dots\n'),
    ).toBe('- dots: ---');
    expect(one('open', '---\nname: my-skill\ndescription: A test skill\n')).toBe('- open: ---');
  });

  it('frontmatter that is not YAML: read again with its values quoted, else no field at all', () => {
    expect(one('c', '---\nname: c\ndescription: [unclosed\nfoo: : bar\n---\n# c\n')).toBe(
      '- c: [unclosed',
    );
    expect(
      one(
        'c2',
        '---\nname: c2\ndescription: Broken: yes: really\nallowed-tools: [Read\n---\n# c2\n',
      ),
    ).toBe('- c2: Broken: yes: really');
    expect(
      one('c3', '---\nname: c3\ndescription: "quoted but\n  continues"\nbad: [\n---\n# c3\n'),
    ).toBe('- c3: quoted but continues');
    expect(one('yb1', '---\nname: yb1\ndescription: "unterminated\n---\n# Y1 head\n')).toBe(
      '- yb1: Y1 head',
    );
    expect(one('yb2', '---\nname: yb2\n  description: indented wrong\n---\n# Y2 head\n')).toBe(
      '- yb2: Y2 head',
    );
    expect(
      one('yb3', '---\nname: yb3\ndescription: >\n  folded\n  text\nbad: [\n---\n# Y3\n'),
    ).toBe('- yb3: Y3');
  });

  it('a key given twice takes its last value', () => {
    expect(one('yb4', '---\nname: yb4\ndescription: first\ndescription: second\n---\n# Y4\n')).toBe(
      '- yb4: second',
    );
  });

  it('writes < and > as &lt; and &gt;, and keeps & and quotes', () => {
    expect(
      one('amp', `---\nname: amp\ndescription: "Tom & Jerry <b> \\"quoted\\" it's"\n---\n`),
    ).toBe(`- amp: Tom & Jerry &lt;b&gt; "quoted" it's`);
    expect(one('wtu', '---\nname: wtu\ndescription: A & B\nwhen_to_use: x < y\n---\n')).toBe(
      '- wtu: A & B - x &lt; y',
    );
  });
});

describe("Claude Code's skill list: the label", () => {
  it('the folder, then the name when it is another name with no whitespace', () => {
    const d = (name: string) => `---\nname: ${name}\ndescription: d.\n---\n`;
    expect(
      lines({
        f1: d('Upper'),
        f2: d('my_name'),
        f3: d('has.dot'),
        f4: d('x y'),
        f6: d('"f6 "'),
        f7: d('123'),
        f8: d('""'),
        'g-folder': d('g-name'),
        LAB3: d('lab3'),
        lab2: d('lab2'),
      }),
    ).toEqual([
      '- f1 (Upper): d.',
      '- f2 (my_name): d.',
      '- f3 (has.dot): d.',
      '- f4: d.',
      '- f6: d.',
      '- f7 (123): d.',
      '- f8: d.',
      '- g-folder (g-name): d.',
      '- LAB3 (lab3): d.',
      '- lab2: d.',
    ]);
  });

  it('a name is shown once: not when it is another skill’s folder, and for one of the skills sharing it', () => {
    const d = (name: string) => `---\nname: ${name}\ndescription: d.\n---\n`;
    expect(lines({ 'b-one': d('q'), 'a-two': d('q'), q: d('s') })).toEqual([
      '- b-one: d.',
      '- a-two: d.',
      '- q (s): d.',
    ]);
    expect(lines({ 'abc-x': d('abc'), 'abc-y': d('abc') })).toEqual([
      '- abc-x (abc): d.',
      '- abc-y: d.',
    ]);
    // Taken by the first folder in name order, any case: y-low before Z-up.
    expect(lines({ 'Z-up': d('r'), 'y-low': d('r') })).toEqual(['- Z-up: d.', '- y-low (r): d.']);
  });
});

describe("Claude Code's skill list: the order", () => {
  it('sorts folders as Claude Code listed them', () => {
    // Each list below is the order Claude Code 2.1.332 gave these folders' lines.
    const seen = [
      ['a', 'b', 'c', 'pdf-tools', 'Slide-Maker'],
      ['lab1', 'lab2', 'LAB3', 'nb1', 'nb2'],
      ['a-two', 'b-one', 'q', 'y-low', 'Z-up'],
      [
        '-my-skill',
        'claude-helper',
        'my_skill',
        'my--skill',
        'my-skill',
        'my-skill-bom',
        'MySkill',
        'wrong-name',
      ],
    ];
    for (const order of seen) expect([...order].reverse().sort(byClaudeCodeOrder)).toEqual(order);
  });
});

describe("Claude Code's skill list, on hostile SKILL.md files", () => {
  it('reads each in one pass, within the parser’s bounds', () => {
    const hostile = [
      `---\nname: x\ndescription: a ${' '.repeat(300_000)}z\n---\n`,
      `---\n${'k'.repeat(300_000)}\n---\n`,
      `---\nname: x\ndescription: [${'['.repeat(50_000)}\n---\n`,
      `---\n${Array.from({ length: 100_000 }, (_, i) => `k${i}: v`).join('\n')}\n---\n`,
      `---\nname: x\n---\n${'#'.repeat(300_000)}\n`,
    ];
    for (const text of hostile) {
      const [entry] = claudeCodeList([{ folder: 'x', reading: claudeCodeReading(text) }]);
      expect(entry?.line.startsWith('- x')).toBe(true);
      expect(entry?.listing.shown.length).toBeLessThanOrEqual(1536);
    }
  });
});
