import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill';
import {
  canEditFrontmatter,
  readFrontmatterFields,
  setFrontmatterField,
  setMetadataEntry,
} from './frontmatter-edit';

/** The YAML text between the delimiters. */
function yamlOf(text: string): string {
  const fm = parseSkill(text).frontmatter;
  if (!fm) throw new Error('no frontmatter');
  return fm.raw;
}

/** The body exactly as it sits in the file. */
function bodyOf(text: string): string {
  return parseSkill(text).body;
}

const COMMENTED = [
  '---',
  '# Keep this short: it is the folder name.',
  'name: pdf-tools',
  '# Written for the model: what + when.',
  'description: Fills PDF forms. Use when the user mentions a PDF form.   # reviewed',
  '',
  "license: 'MIT'",
  'metadata:',
  '    author: "Ana"',
  '    team: docs',
  'allowed-tools: [Read, Grep]',
  'notes: >',
  '  folded text that',
  '  spans lines',
  '---',
  '# PDF tools',
  '',
  'Body with  two spaces, a trailing space ',
  '---',
  'and a rule.',
  '',
].join('\n');

describe('setFrontmatterField: what survives', () => {
  it('keeps the comment written above description and the rest of the file byte for byte', () => {
    const out = setFrontmatterField(COMMENTED, 'description', 'Fills and checks PDF forms.');
    expect(out).toBe(
      COMMENTED.replace(
        'Fills PDF forms. Use when the user mentions a PDF form.',
        'Fills and checks PDF forms.',
      ),
    );
    expect(out).toContain(
      '# Written for the model: what + when.\ndescription: Fills and checks PDF forms.   # reviewed\n',
    );
  });

  it('keeps key order, blank lines, indentation, quoting and flow style of untouched fields', () => {
    const out = setFrontmatterField(COMMENTED, 'name', 'pdf-forms');
    expect(out).toBe(COMMENTED.replace('name: pdf-tools', 'name: pdf-forms'));
  });

  it('leaves the body untouched, even when it contains --- lines', () => {
    const out = setFrontmatterField(COMMENTED, 'license', 'Apache-2.0');
    expect(bodyOf(out)).toBe(bodyOf(COMMENTED));
    expect(out.endsWith('Body with  two spaces, a trailing space \n---\nand a rule.\n')).toBe(true);
  });

  it('keeps CRLF line endings, also on added lines', () => {
    const crlf = COMMENTED.replace(/\n/g, '\r\n');
    const out = setFrontmatterField(
      setFrontmatterField(crlf, 'compatibility', 'Needs network access'),
      'tags',
      ['a', 'b'],
    );
    expect(out.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(readFrontmatterFields(out)).toMatchObject({
      compatibility: 'Needs network access',
      tags: ['a', 'b'],
    });
    expect(bodyOf(out)).toBe(bodyOf(crlf));
  });

  it('keeps a byte order mark', () => {
    const bom = '\ufeff---\nname: a\ndescription: b\n---\nBody\n';
    const out = setFrontmatterField(bom, 'description', 'c');
    expect(out).toBe('\ufeff---\nname: a\ndescription: c\n---\nBody\n');
  });

  it('returns the same text when the value is already set', () => {
    expect(setFrontmatterField(COMMENTED, 'name', 'pdf-tools')).toBe(COMMENTED);
    expect(setFrontmatterField(COMMENTED, 'allowed-tools', ['Read', 'Grep'])).toBe(COMMENTED);
    expect(setFrontmatterField(COMMENTED, 'metadata', { author: 'Ana', team: 'docs' })).toBe(
      COMMENTED,
    );
  });
});

describe('setFrontmatterField: quoting', () => {
  const base = '---\nname: a\ndescription: plain words\n---\n';

  it('quotes a value with ": " so it is not read as a new field', () => {
    const out = setFrontmatterField(base, 'description', 'Use when: the user asks');
    expect(yamlOf(out)).toBe('name: a\ndescription: "Use when: the user asks"\n');
    expect(canEditFrontmatter(out)).toEqual({ ok: true });
  });

  it('quotes a value with " #" so the rest is not read as a comment', () => {
    const out = setFrontmatterField(base, 'description', 'Handles C# and issue #12');
    expect(yamlOf(out)).toBe('name: a\ndescription: "Handles C# and issue #12"\n');
    expect(readFrontmatterFields(out).description).toBe('Handles C# and issue #12');
  });

  it('quotes text that YAML would read as a boolean, number or null', () => {
    for (const v of ['true', 'no', '1.0', '0x1F', 'null', '~', '']) {
      const out = setFrontmatterField(base, 'description', v);
      expect(readFrontmatterFields(out).description).toBe(v);
    }
    expect(yamlOf(setFrontmatterField(base, 'description', 'true'))).toBe(
      'name: a\ndescription: "true"\n',
    );
  });

  it('keeps single and double quotes when they still work', () => {
    const single = '---\nname: \'a\'\ndescription: "b"\n---\n';
    expect(yamlOf(setFrontmatterField(single, 'name', 'new-name'))).toBe(
      'name: \'new-name\'\ndescription: "b"\n',
    );
    expect(yamlOf(setFrontmatterField(single, 'description', 'it says "hi"'))).toBe(
      'name: \'a\'\ndescription: "it says \\"hi\\""\n',
    );
    expect(readFrontmatterFields(setFrontmatterField(single, 'name', "it's")).name).toBe("it's");
  });

  it('writes multi-line text as a block scalar and keeps a block style the user chose', () => {
    const out = setFrontmatterField(base, 'description', 'First line.\nSecond line.');
    expect(yamlOf(out)).toBe('name: a\ndescription: |-\n  First line.\n  Second line.\n');
    const literal = '---\ndescription: |\n    old\n    text\nname: a\n---\n';
    const out2 = setFrontmatterField(literal, 'description', 'new\ntext\n');
    expect(yamlOf(out2)).toBe('description: |\n    new\n    text\nname: a\n');
  });

  it('never folds long lines', () => {
    const long = 'word '.repeat(100).trim();
    const out = setFrontmatterField(base, 'description', long);
    expect(yamlOf(out)).toBe(`name: a\ndescription: ${long}\n`);
  });

  it('writes booleans and lists as YAML values', () => {
    let out = setFrontmatterField(base, 'disable-model-invocation', true);
    out = setFrontmatterField(out, 'paths', ['src/**/*.ts', 'docs/*.md']);
    expect(yamlOf(out)).toBe(
      'name: a\ndescription: plain words\ndisable-model-invocation: true\npaths:\n  - src/**/*.ts\n  - docs/*.md\n',
    );
  });

  it('keeps the list style of the file (dashes at the key column)', () => {
    const text = '---\nname: a\npaths:\n- one\n- two\n---\n';
    expect(yamlOf(setFrontmatterField(text, 'paths', ['three']))).toBe(
      'name: a\npaths:\n- three\n',
    );
  });
});

describe('setFrontmatterField: adding and removing', () => {
  it('appends a new key at the end of the mapping, before the closing line', () => {
    const text = '---\nname: a\ndescription: b\n---\nBody\n';
    expect(setFrontmatterField(text, 'license', 'MIT')).toBe(
      '---\nname: a\ndescription: b\nlicense: MIT\n---\nBody\n',
    );
  });

  it('removes a key with undefined, keeping the comment above the next key', () => {
    const out = setFrontmatterField(COMMENTED, 'name', undefined);
    expect(out).toBe(COMMENTED.replace('name: pdf-tools\n', ''));
  });

  it('removes a multi-line value completely', () => {
    const out = setFrontmatterField(COMMENTED, 'notes', undefined);
    expect(yamlOf(out).endsWith('allowed-tools: [Read, Grep]\n')).toBe(true);
    const out2 = setFrontmatterField(COMMENTED, 'metadata', undefined);
    expect(yamlOf(out2)).not.toContain('author');
    expect(readFrontmatterFields(out2)).not.toHaveProperty('metadata');
  });

  it('leaves the text alone when removing a key that is not there', () => {
    expect(setFrontmatterField(COMMENTED, 'model', undefined)).toBe(COMMENTED);
  });

  it('creates a frontmatter at the top when there is none', () => {
    expect(setFrontmatterField('# Just a heading\n', 'name', 'my-skill')).toBe(
      '---\nname: my-skill\n---\n# Just a heading\n',
    );
    expect(setFrontmatterField('', 'name', 'x')).toBe('---\nname: x\n---\n');
    expect(setFrontmatterField('\ufeffBody\r\nmore\r\n', 'name', 'x')).toBe(
      '\ufeff---\r\nname: x\r\n---\r\nBody\r\nmore\r\n',
    );
    expect(setFrontmatterField('# Heading\n', 'name', undefined)).toBe('# Heading\n');
  });

  it('fills an empty frontmatter and one holding only comments', () => {
    expect(setFrontmatterField('---\n---\nBody', 'name', 'x')).toBe('---\nname: x\n---\nBody');
    expect(setFrontmatterField('---\n# fields below\n---\nBody', 'name', 'x')).toBe(
      '---\n# fields below\nname: x\n---\nBody',
    );
  });

  it('sets a value on a key that had none', () => {
    expect(setFrontmatterField('---\nname: a\ndescription:\n---\n', 'description', 'b')).toBe(
      '---\nname: a\ndescription: b\n---\n',
    );
  });

  it('edits a flow-style frontmatter through the whole document', () => {
    const out = setFrontmatterField('---\n{name: a, description: b}\n---\nBody', 'name', 'x');
    expect(readFrontmatterFields(out)).toEqual({ name: 'x', description: 'b' });
    expect(bodyOf(out)).toBe('Body');
  });
});

describe('setMetadataEntry', () => {
  it('edits one entry and keeps the others and their indentation', () => {
    const out = setMetadataEntry(COMMENTED, 'team', 'forms');
    expect(out).toBe(COMMENTED.replace('    team: docs', '    team: forms'));
  });

  it('adds an entry at the end with the same indentation, quoted when needed', () => {
    const out = setMetadataEntry(COMMENTED, 'reviewed', 'yes: twice');
    expect(out).toBe(
      COMMENTED.replace('    team: docs\n', '    team: docs\n    reviewed: "yes: twice"\n'),
    );
  });

  it('removes an entry, and the whole mapping with its last entry', () => {
    const one = setMetadataEntry(COMMENTED, 'author', undefined);
    expect(one).toBe(COMMENTED.replace('    author: "Ana"\n', ''));
    const none = setMetadataEntry(one, 'team', undefined);
    expect(none).toBe(COMMENTED.replace('metadata:\n    author: "Ana"\n    team: docs\n', ''));
  });

  it('creates metadata when there is none, and replaces a value that is not a mapping', () => {
    const text = '---\nname: a\n---\n';
    expect(setMetadataEntry(text, 'author', 'Ana')).toBe(
      '---\nname: a\nmetadata:\n  author: Ana\n---\n',
    );
    expect(
      readFrontmatterFields(setMetadataEntry('---\nmetadata: oops\n---\n', 'k', 'v')).metadata,
    ).toEqual({ k: 'v' });
    expect(
      readFrontmatterFields(setMetadataEntry('---\nmetadata:\n---\n', 'k', 'v')).metadata,
    ).toEqual({ k: 'v' });
  });

  it('edits a flow-style metadata mapping', () => {
    const out = setMetadataEntry('---\nname: a\nmetadata: {author: Ana}\n---\n', 'team', 'docs');
    expect(yamlOf(out)).toBe('name: a\nmetadata: {author: Ana, team: docs}\n');
  });

  it('handles a key such as __proto__ as plain data', () => {
    const out = setMetadataEntry('---\nname: a\n---\n', '__proto__', 'x');
    expect(
      Object.getOwnPropertyDescriptor(readFrontmatterFields(out).metadata, '__proto__')?.value,
    ).toBe('x');
  });
});

describe('canEditFrontmatter and unreadable frontmatter', () => {
  const cases: [string, string, RegExp][] = [
    ['invalid YAML', '---\nname: [a\ndescription: b\n---\nBody\n', /not valid YAML \(line \d+/],
    [
      'unquoted colon',
      '---\nname: a\ndescription: Use when: x\n---\n',
      /colon followed by a space.*quotes/,
    ],
    ['unclosed', '---\nname: a\ndescription: b\n', /no closing --- line/],
    ['a list', '---\n- a\n- b\n---\n', /is a list/],
    ['duplicate key', '---\nname: a\nname: b\n---\n', /appears twice/],
    ['anchors', '---\nname: &n a\nlabel: *n\n---\n', /anchors/],
    [
      'too deep to read (VALIDATION_LIMITS.depth)',
      `---\nname: a\nk: ${'['.repeat(200)}\n---\n`,
      /too large or too deeply nested to be read/,
    ],
  ];
  for (const [what, text, reason] of cases) {
    it(`refuses ${what} with a plain reason and leaves the text unchanged`, () => {
      const check = canEditFrontmatter(text);
      expect(check.ok).toBe(false);
      if (!check.ok) {
        expect(check.reason).toMatch(reason);
        expect(check.reason).toMatch(/text view/);
      }
      expect(setFrontmatterField(text, 'description', 'new')).toBe(text);
      expect(setMetadataEntry(text, 'k', 'v')).toBe(text);
    });
  }

  it('accepts a file without frontmatter (the form creates one)', () => {
    expect(canEditFrontmatter('# Title\n')).toEqual({ ok: true });
  });
});

describe('readFrontmatterFields', () => {
  it('reads the fields as plain data', () => {
    expect(readFrontmatterFields(COMMENTED)).toEqual({
      name: 'pdf-tools',
      description: 'Fills PDF forms. Use when the user mentions a PDF form.',
      license: 'MIT',
      metadata: { author: 'Ana', team: 'docs' },
      'allowed-tools': ['Read', 'Grep'],
      notes: 'folded text that spans lines\n',
    });
  });

  it('gives an empty object without a frontmatter or when it is a list', () => {
    expect(readFrontmatterFields('# Title')).toEqual({});
    expect(readFrontmatterFields('---\n- a\n---\n')).toEqual({});
  });
});

interface CorpusCase {
  id: string;
  content: string;
}

const corpus = JSON.parse(
  readFileSync(new URL('../validation/fixtures/frontmatter-cases.json', import.meta.url), 'utf8'),
) as { cases: CorpusCase[] };

describe('corpus round trips (shared/validation/fixtures/frontmatter-cases.json)', () => {
  const editable = corpus.cases.filter((c) => canEditFrontmatter(c.content).ok);

  it('covers most of the corpus and refuses the broken cases', () => {
    expect(editable.length).toBeGreaterThanOrEqual(19);
    const refused = corpus.cases.filter((c) => !canEditFrontmatter(c.content).ok).map((c) => c.id);
    expect(refused).toEqual(expect.arrayContaining(['unquoted-colon', 'unclosed-frontmatter']));
  });

  for (const c of editable) {
    it(`${c.id}: setting every field to its own value changes nothing`, () => {
      let text = c.content;
      for (const [key, value] of Object.entries(readFrontmatterFields(text)))
        text = setFrontmatterField(text, key, value);
      expect(text).toBe(c.content);
    });

    it(`${c.id}: adding then removing a field gives the original text back`, () => {
      const added = setFrontmatterField(c.content, 'x-test-field', 'a value: with a colon');
      expect(readFrontmatterFields(added)['x-test-field']).toBe('a value: with a colon');
      const removed = setFrontmatterField(added, 'x-test-field', undefined);
      if (parseSkill(c.content).frontmatter) expect(removed).toBe(c.content);
      else expect(bodyOf(removed)).toBe(c.content);
    });

    it(`${c.id}: editing description changes only description`, () => {
      const before = readFrontmatterFields(c.content);
      const out = setFrontmatterField(
        c.content,
        'description',
        'New: text # here\nand a second line',
      );
      expect(readFrontmatterFields(out)).toEqual({
        ...before,
        description: 'New: text # here\nand a second line',
      });
      expect(bodyOf(out)).toBe(parseSkill(c.content).frontmatter ? bodyOf(c.content) : c.content);
      expect(parseDocument(yamlOf(out)).errors).toEqual([]);
    });
  }
});

describe('properties', () => {
  const bases = [
    COMMENTED,
    COMMENTED.replace(/\n/g, '\r\n'),
    '---\nname: a\n---\n',
    '# No frontmatter\n\nJust a body.\n',
    '\ufeff---\r\n# c\r\nmetadata:\r\n  k: v\r\n---\r\nBody',
    '---\n---\n',
  ];
  const key = fc.oneof(
    fc.constantFrom(
      'name',
      'description',
      'license',
      'metadata',
      'allowed-tools',
      'when_to_use',
      'notes',
      'x-personal-mcp',
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  const text = fc.string({ unit: 'grapheme', maxLength: 40 });
  const value = fc.oneof(
    text,
    fc.boolean(),
    fc.integer(),
    fc.array(text, { maxLength: 4 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), text, { maxKeys: 3 }),
  );

  it('setting a field then reading it gives the value back, with the body unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bases), key, value, (base, k, v) => {
        const out = setFrontmatterField(base, k, v);
        expect(readFrontmatterFields(out)[k]).toEqual(v);
        const hadFrontmatter = parseSkill(base).frontmatter !== null;
        expect(bodyOf(out)).toBe(hadFrontmatter ? bodyOf(base) : base);
        const others = { ...readFrontmatterFields(base) };
        delete others[k];
        const after = { ...readFrontmatterFields(out) };
        delete after[k];
        expect(after).toEqual(others);
      }),
      { numRuns: 400 },
    );
  });

  it('setting a metadata entry then reading it gives the value back, and removing it restores the other entries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.string({ minLength: 1, maxLength: 10 }),
        text,
        (base, k, v) => {
          const out = setMetadataEntry(base, k, v);
          const meta = readFrontmatterFields(out).metadata as Record<string, unknown>;
          expect(Object.getOwnPropertyDescriptor(meta, k)?.value).toBe(v);
          const removed = setMetadataEntry(out, k, undefined);
          const before = readFrontmatterFields(base).metadata as
            Record<string, unknown> | undefined;
          const rest =
            before && Object.prototype.hasOwnProperty.call(before, k)
              ? Object.fromEntries(Object.entries(before).filter(([x]) => x !== k))
              : before;
          expect(readFrontmatterFields(removed).metadata).toEqual(
            rest && Object.keys(rest).length > 0 ? rest : undefined,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
