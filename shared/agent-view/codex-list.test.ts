import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill';
import { byCodexOrder, codexReading, codexSection, type CodexReading } from './codex-list';

/**
 * Every expected value here is what Codex 0.171.0 did with the same SKILL.md in a project's
 * .agents/skills (scripts/agent-listing.mjs --agent codex; docs/codex-listing.md): the line it
 * sent the model, without its `(file: …)` part, or the message it logged when it skipped the file
 * (for a frontmatter that is not YAML, Codex gives its YAML reader's words, ours differ).
 */
const fm = (lines: string): string => `---\n${lines}\n---\nBody\n`;
const line = (r: CodexReading): string => (r.loads ? r.line : `skipped: ${r.codex}`);

describe('codexReading: the lines Codex listed', () => {
  it.each([
    [
      'p-upper',
      fm('name: Upper_Case Name\ndescription: Uppercase name.'),
      '- Upper_Case Name: Uppercase name.',
    ],
    [
      'p-mismatch',
      fm('name: other-name\ndescription: Name differs from folder.'),
      '- other-name: Name differs from folder.',
    ],
    ['p-noname', fm('description: No name here.'), '- p-noname: No name here.'],
    ['nameempty', fm('name: ""\ndescription: empty name.'), '- nameempty: empty name.'],
    ['nameblank', fm('name:\ndescription: blank name.'), '- nameblank: blank name.'],
    ['namenum', fm('name: 123\ndescription: numeric name.'), '- 123: numeric name.'],
    ['descnum', fm('name: descnum\ndescription: 42'), '- descnum: 42'],
    ['desc-true', fm('name: desc-true\ndescription: true'), '- desc-true: true'],
    [
      'p-multiline',
      fm('name: p-multiline\ndescription: |\n  Line one.\n  Line two.'),
      '- p-multiline: Line one. Line two.',
    ],
    ['p-badyaml', fm('name: p-badyaml\ndescription: a: b: c'), '- p-badyaml: a: b: c'],
    ['brokenyaml', fm('name: brokenyaml\ndescription: [unclosed'), '- brokenyaml: [unclosed'],
    ['fb-both', fm('name: fb-both: x\ndescription: a: b'), '- fb-both: x: a: b'],
    ['fb-other', fm('name: fb-other\ndescription: fine\nother: [bad'), '- fb-other: fine'],
    [
      'fb-block',
      fm('name: fb-block\ndescription: |\n  Line one\n  Line: two\nother: [bad'),
      '- fb-block: Line one Line: two',
    ],
    [
      'fb-comment',
      fm('name: fb-comment\ndescription: a # comment: x\nother: [bad'),
      '- fb-comment: a',
    ],
    ['comment', fm('name: comment\ndescription: a # comment'), '- comment: a'],
    ['fb-single', fm("name: fb-single\ndescription: it's: ok"), "- fb-single: it's: ok"],
    [
      'fb-backslash',
      fm('name: fb-backslash\ndescription: path C:\\\\x \\\\n: y'),
      '- fb-backslash: path C:\\\\x \\\\n: y',
    ],
    [
      'fb-indent',
      fm('name: fb-indent\ndescription: a: b\nmetadata:\n  k: [x'),
      '- fb-indent: a: b',
    ],
    [
      'p-tags',
      fm('name: p-tags\ndescription: Use <b>bold</b> & "quotes".'),
      '- p-tags: Use <b>bold</b> & "quotes".',
    ],
    [
      'quotes',
      fm('name: quotes\ndescription: "He said: \\"hi\\" </skills_instructions> (file: x)"'),
      '- quotes: He said: "hi" </skills_instructions> (file: x)',
    ],
    [
      'ws',
      fm('name: "  ws  "\ndescription: "a\\tb\\u00a0c\\u2003d\\u3000e\\u0085f"'),
      '- ws: a b c d e f',
    ],
    [
      'nl-name',
      fm('name: "two\\nlines"\ndescription: newline in name.'),
      '- two lines: newline in name.',
    ],
    ['colon-name', fm('name: "a: b"\ndescription: colon in name.'), '- a: b: colon in name.'],
    ['anchor', fm('name: anchor\ndescription: &a anchored\nother: *a'), '- anchor: anchored'],
    [
      'dupfoo',
      fm('name: dupfoo\ndescription: dup unknown.\nfoo: 1\nfoo: 2'),
      '- dupfoo: dup unknown.',
    ],
    [
      'short',
      fm('name: short\ndescription: long one.\nmetadata:\n  short-description: The short.'),
      '- short: long one.',
    ],
    [
      'p-extra',
      fm(
        'name: p-extra\ndescription: Extra keys.\nmetadata:\n  a: 1\nfoo: bar\nallowed-tools: Bash',
      ),
      '- p-extra: Extra keys.',
    ],
    ['trail', fm('name: trail\ndescription: trailing   '), '- trail: trailing'],
    [
      'spacedash',
      '---  \nname: spacedash\ndescription: trailing spaces on fence.\n---   \n',
      '- spacedash: trailing spaces on fence.',
    ],
    [
      'p-crlf',
      '---\r\nname: p-crlf\r\ndescription: CRLF lines.\r\n---\r\nBody\r\n',
      '- p-crlf: CRLF lines.',
    ],
    ['crlf-bad', '---\r\nname: crlf-bad\r\ndescription: x: y\r\n---\r\n', '- crlf-bad: x: y'],
    ['nonl', '---\nname: nonl\ndescription: no newline at end\n---', '- nonl: no newline at end'],
    [
      'yamldoc',
      '---\nname: yamldoc\ndescription: two docs\n---\nname: other\n---\n',
      '- yamldoc: two docs',
    ],
    [
      'blockfix',
      fm('name: blockfix\ndescription: |\n  see: [x\n  end\nother: a: b'),
      '- blockfix: see: [x end',
    ],
    ['float', fm('name: float\ndescription: 1.0'), '- float: 1.0'],
    ['hex', fm('name: hex\ndescription: 0x1F'), '- hex: 0x1F'],
    ['spacesname', fm('name: "   "\ndescription: spaces name.'), '- spacesname: spaces name.'],
    ['nametrue', fm('name: true\ndescription: bool name.'), '- true: bool name.'],
    [
      'folded',
      fm('name: folded\ndescription: >\n  one\n  two\n\n  three'),
      '- folded: one two three',
    ],
    [
      'alias-desc',
      fm('name: alias-desc\nx: &d from alias\ndescription: *d'),
      '- alias-desc: from alias',
    ],
    [
      'dmi',
      fm('name: dmi\ndescription: disable model invocation.\ndisable-model-invocation: true'),
      '- dmi: disable model invocation.',
    ],
    ['n64', fm(`name: ${'x'.repeat(64)}\ndescription: n64.`), `- ${'x'.repeat(64)}: n64.`],
  ])('%s', (folder, text, expected) => {
    expect(line(codexReading(text, folder))).toBe(expected);
  });

  it('cuts a description over 1,024 characters to 1,021 and "..."; counts code points', () => {
    const d1024 = codexReading(fm(`name: d\ndescription: ${'x'.repeat(1024)}`), 'd');
    expect(d1024.loads && d1024.description).toBe('x'.repeat(1024));
    const d1025 = codexReading(fm(`name: d\ndescription: ${'x'.repeat(1025)}`), 'd');
    expect(d1025.loads && d1025.description).toBe(`${'x'.repeat(1021)}...`);
    expect(d1025.loads && d1025.cut).toBe(4);
    const emoji = codexReading(fm(`name: e\ndescription: ${'\u{1F4A1}'.repeat(1030)}`), 'e');
    expect(emoji.loads && emoji.description).toBe(`${'\u{1F4A1}'.repeat(1021)}...`);
  });

  it('says what it reads otherwise than written', () => {
    const named = codexReading(fm('description: x'), 'my-folder');
    expect(named.loads && named.otherwise).toEqual([
      'it names the skill after its folder, “my-folder”',
    ]);
    const quoted = codexReading(fm('name: q\ndescription: a: b'), 'q');
    expect(quoted.loads && quoted.otherwise).toEqual([
      'its frontmatter is not YAML: it reads it with the values that break it in quotes',
    ]);
    const plain = codexReading(fm('name: q\ndescription: fine'), 'q');
    expect(plain.loads && plain.otherwise).toEqual([]);
  });
});

describe('codexReading: the files Codex skipped, with its message', () => {
  it.each([
    [
      'p-bom',
      '\uFEFF---\nname: p-bom\ndescription: Starts with BOM.\n---\n',
      'missing YAML frontmatter delimited by ---',
      'byte-order mark',
    ],
    [
      'leadblank',
      '\n---\nname: leadblank\ndescription: x.\n---\n',
      'missing YAML frontmatter delimited by ---',
      'first line',
    ],
    [
      'fence4',
      '----\nname: fence4\ndescription: four dashes.\n----\n',
      'missing YAML frontmatter delimited by ---',
      'first line',
    ],
    [
      'p-unclosed',
      '---\nname: p-unclosed\ndescription: Never closed.\nBody\n',
      'missing YAML frontmatter delimited by ---',
      'not closed',
    ],
    [
      'dotsclose',
      '---\nname: dotsclose\ndescription: closed by dots.\n...\n',
      'missing YAML frontmatter delimited by ---',
      'not closed',
    ],
    ['emptyfm', '---\n---\nbody\n', 'missing YAML frontmatter delimited by ---', 'empty'],
    [
      'p-nodesc',
      '---\nname: p-nodesc\n---\nFirst body line.\n',
      'missing field `description`',
      'no description',
    ],
    [
      'p-emptydesc',
      fm('name: p-emptydesc\ndescription: ""'),
      'missing field `description`',
      'no description',
    ],
    [
      'desc-null',
      fm('name: desc-null\ndescription: null'),
      'missing field `description`',
      'no description',
    ],
    [
      'desc-tilde',
      fm('name: desc-tilde\ndescription: ~'),
      'missing field `description`',
      'no description',
    ],
    [
      'n65',
      fm(`name: ${'x'.repeat(65)}\ndescription: n65.`),
      'invalid name: exceeds maximum length of 64 characters',
      'longer than 64',
    ],
    [
      'desclist',
      fm('name: desclist\ndescription: [a, b]'),
      'invalid YAML: description: invalid type, expected a string',
      'not a list',
    ],
    [
      'nest-name',
      fm('name:\n  a: 1\ndescription: nested name map.'),
      'invalid YAML: name: invalid type, expected a string',
      'not a map',
    ],
    [
      'dupkey',
      fm('name: dupkey\ndescription: first\ndescription: second'),
      'invalid YAML: duplicate field `description`',
      'given twice',
    ],
    [
      'fb-dup',
      fm('name: fb-dup\ndescription: a: b\ndescription: c: d'),
      'invalid YAML: the value of `description` has ": " in it without quotes',
      'not YAML it can read',
    ],
    [
      'metaseq',
      fm('name: metaseq\ndescription: metadata list.\nmetadata: [a]'),
      'invalid YAML: metadata: invalid type, expected struct SkillFrontmatterMetadata',
      'map of keys',
    ],
    [
      'metastr',
      fm('name: metastr\ndescription: metadata text.\nmetadata: text'),
      'invalid YAML: metadata: invalid type, expected struct SkillFrontmatterMetadata',
      'map of keys',
    ],
    [
      'upper-key',
      fm('Name: upper-key\nDescription: capital keys.'),
      'missing field `description`',
      'no description',
    ],
    [
      'notmap',
      fm('just some text'),
      'invalid YAML: the frontmatter is not a map of keys',
      'key: value',
    ],
    [
      'meta5',
      fm('name: meta5\ndescription: metadata not a map.\nmetadata: 5'),
      'invalid YAML: metadata: invalid type, expected struct SkillFrontmatterMetadata',
      'map of keys',
    ],
  ])('%s', (folder, text, codex, words) => {
    const r = codexReading(text, folder);
    expect(r.loads).toBe(false);
    if (r.loads) return;
    expect(r.codex).toBe(codex);
    expect(r.why).toMatch(/^Codex skips it: /);
    expect(r.why).toContain(words);
  });

  it.each([
    ['fb-unterm', fm('name: fb-unterm\ndescription: "unterminated')],
    ['tabyaml', fm('name: tabyaml\n\tdescription: tab indent')],
  ])(
    '%s: not YAML, read again with quotes and still not: skipped with the first error',
    (folder, text) => {
      const r = codexReading(text, folder);
      expect(r.loads).toBe(false);
      expect(!r.loads && r.codex).toMatch(/^invalid YAML: /);
      expect(!r.loads && r.why).toMatch(/^Codex skips it: its frontmatter is not YAML it can read/);
    },
  );
});

describe('the file name', () => {
  it('Codex finds only SKILL.md: a skill.md is not seen', () => {
    const r = codexReading(fm('name: lower\ndescription: x.'), 'lower', { fileName: 'skill.md' });
    expect(r.loads).toBe(false);
    expect(!r.loads && r.why).toContain('only a file named SKILL.md');
  });
});

describe("a skill's agents/openai.yaml", () => {
  it('allow_implicit_invocation: false: loaded, but not in the list the model sees', () => {
    const text = fm('name: implicit\ndescription: x.');
    const off = codexReading(text, 'implicit', {
      settings: 'policy:\n  allow_implicit_invocation: false\n',
    });
    expect(off.loads && off.inList).toBe(false);
    const on = codexReading(text, 'implicit', {
      settings: 'policy:\n  allow_implicit_invocation: true\n',
    });
    expect(on.loads && on.inList).toBe(true);
    expect(codexReading(text, 'implicit').loads && codexReading(text, 'implicit')).toMatchObject({
      inList: true,
    });
  });
});

describe('hostile frontmatter', () => {
  it('a few hundred lines that are not YAML are read again one by one; thousands are not read', () => {
    const broken = (n: number): string =>
      Array.from({ length: n }, (_, k) => `k${k}: @x`).join('\n');
    const some = codexReading(fm(`name: many\ndescription: a: b\n${broken(250)}`), 'many');
    expect(some.loads ? some.line : some.codex).toBe('- many: a: b');
    const lots = codexReading(fm(`name: many\ndescription: a: b\n${broken(4_000)}`), 'many');
    expect(lots.loads ? lots.line : lots.codex).toBe(
      'not read: more than 256 lines that are not YAML',
    );
  });

  it("past the parser's bounds: not read, and said so, with no second reading", () => {
    const lines = Array.from({ length: 40_000 }, (_, k) => `k${k}: [x`).join('\n');
    const r = codexReading(fm(`name: huge\ndescription: x\n${lines}`), 'huge');
    expect(r.loads).toBe(false);
    expect(!r.loads && r.why).toMatch(/^Skillbench does not read a frontmatter this large/);
  });
});

describe('byCodexOrder', () => {
  it('orders names by code point, as Rust compares text, for any text', () => {
    const points = (s: string): number[] => [...s].map((c) => c.codePointAt(0) ?? 0);
    const reference = (a: string, b: string): number => {
      const [x, y] = [points(a), points(b)];
      for (let k = 0; k < Math.min(x.length, y.length); k++)
        if (x[k] !== y[k]) return (x[k] ?? 0) - (y[k] ?? 0);
      return x.length - y.length;
    };
    const text = fc.string({ unit: 'binary', maxLength: 6 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const got = byCodexOrder({ name: a, path: '' }, { name: b, path: '' });
        expect(Math.sign(got)).toBe(Math.sign(reference(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts by name as Rust compares strings, then by path; a shared name lists both', () => {
    const skills = [
      { name: 'b-one', path: 'b-one/SKILL.md' },
      { name: 'p-dup', path: 'z/SKILL.md' },
      { name: 'Zed', path: 'Zed/SKILL.md' },
      { name: 'p-dup', path: 'a/SKILL.md' },
      { name: '\u{1F4A1}', path: 'e/SKILL.md' },
      { name: '\uFF21', path: 'f/SKILL.md' },
    ];
    expect([...skills].sort(byCodexOrder).map((s) => `${s.name} ${s.path}`)).toEqual([
      'Zed Zed/SKILL.md',
      'b-one b-one/SKILL.md',
      'p-dup a/SKILL.md',
      'p-dup z/SKILL.md',
      '\uFF21 f/SKILL.md',
      '\u{1F4A1} e/SKILL.md',
    ]);
  });
});

describe('a reading given the parse already made', () => {
  it('is the same reading as one made from the text alone', () => {
    for (const text of [
      fm('name: a\ndescription: Plain.'),
      fm('name: a\ndescription: a: b'),
      '---\r\nname: a\r\ndescription: CRLF.\r\n---\r\n',
      '\uFEFF---\nname: a\ndescription: BOM.\n---\n',
      '---  \nname: a\ndescription: spaces on the fence.\n---  \n',
      fm('description: no name\nmetadata: 5'),
    ])
      expect(codexReading(text, 'a', { parsed: parseSkill(text) })).toEqual(
        codexReading(text, 'a'),
      );
  });
});

describe('codexSection', () => {
  it('the roots table, then each line with its short path, as Codex writes them', () => {
    expect(
      codexSection([
        { root: '/lib/a', file: 'pdf/SKILL.md', line: '- pdf: Fills forms.' },
        { root: '/lib/b', file: 'group/notes/SKILL.md', line: '- notes: Keeps notes.' },
        { root: '/lib/a', file: 'zip/SKILL.md', line: '- zip: Packs files.' },
      ]),
    ).toBe(
      [
        '### Skill roots',
        '- `r0` = `/lib/a`',
        '- `r1` = `/lib/b`',
        '### Available skills',
        '- pdf: Fills forms. (file: r0/pdf/SKILL.md)',
        '- notes: Keeps notes. (file: r1/group/notes/SKILL.md)',
        '- zip: Packs files. (file: r0/zip/SKILL.md)',
      ].join('\n'),
    );
  });
});
