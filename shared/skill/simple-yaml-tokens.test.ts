import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Composer, isScalar, parseDocument, Parser, visit } from 'yaml';
import type { Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSkill, YAML_OPTIONS } from './frontmatter-parser';
import { simpleYamlData, simpleYamlDocument, simpleYamlTokens } from './simple-yaml-tokens';

const corpus = JSON.parse(
  readFileSync(new URL('../validation/fixtures/frontmatter-cases.json', import.meta.url), 'utf8'),
) as { cases: { content: string }[] };

/** yaml's own CST for the text, as plain data. */
const parserTokens = (src: string): unknown =>
  JSON.parse(JSON.stringify([...new Parser().parse(src)]));

/** Fast tokens, when the text is in the subset, are exactly yaml's; returns whether it was. */
function agrees(src: string): boolean {
  const fast = simpleYamlTokens(src);
  if (fast === null) return false;
  expect(JSON.parse(JSON.stringify(fast))).toEqual(parserTokens(src));
  return true;
}

/** Every node of a document with its class, range and scalar details, in document order. */
function nodesOf(doc: Document.Parsed | null): unknown[] {
  const out: unknown[] = [];
  if (!doc) return out;
  visit(doc, (_key, node) => {
    const n = node as {
      constructor: { name: string };
      range?: unknown;
      flow?: unknown;
      spaceBefore?: unknown;
      comment?: unknown;
      commentBefore?: unknown;
    };
    out.push([
      n.constructor.name,
      n.range,
      n.flow,
      n.spaceBefore,
      n.comment,
      n.commentBefore,
      isScalar(node) ? [node.value, node.type, node.source] : null,
    ]);
  });
  return out;
}

const frontmatterOf = (text: string): string => parseSkill(text).frontmatter?.raw ?? '';

/** One entry of a generated block mapping: `key: value`, or `key:` over one level of such lines. */
function mappingEntry(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(key, value).map(([k, v]) => `${k}: ${v}\n`),
    fc
      .tuple(
        key,
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 3 }),
      )
      .map(
        ([k, indent, kids]) =>
          `${k}:\n${kids.map(([kk, v]) => `${' '.repeat(indent)}${kk}: ${v}\n`).join('')}`,
      ),
  );
}

describe('simpleYamlTokens', () => {
  it('emits yaml Parser tokens for ordinary frontmatter, nested metadata and quoted values included', () => {
    expect(
      agrees(
        'name: my-skill\ndescription: Turns notes into items. Use when, say, C# or http://x is pasted.\n',
      ),
    ).toBe(true);
    expect(
      agrees(
        'name: a\nmetadata:\n  author: bench\n  version: "1.0.0"\n  note: \'single\'\nlicense: MIT\n',
      ),
    ).toBe(true);
    expect(agrees('metadata:\n    deep: yes\nname: 12\nnull: true\n')).toBe(true);
    expect(agrees('name: é-ü ñ\n')).toBe(true);
    // Surrogate pairs (emoji) are left to the full parser.
    expect(simpleYamlTokens('name: 😀\n')).toBeNull();
  });

  it('leaves everything outside the subset to the full parser', () => {
    for (const src of [
      '',
      'name: a',
      'name: a\r\n',
      'name: a # comment\n',
      '# comment\nname: a\n',
      'name: a\n\nlicense: MIT\n',
      'description: Use when: asked\n',
      'name:  two-spaces\n',
      'name: trailing \n',
      'name: "esc\\"aped"\n',
      'tags: [a, b]\n',
      'list:\n  - a\n',
      'name: a\n  continued\n',
      'meta:\n  a: 1\n   b: 2\n',
      'meta:\n  a:\n    b: 1\n',
      'empty:\nname: a\n',
      'name: &x a\n',
      'name: -a\n',
      'na me: a\n',
      '"name": a\n',
      'name:\ta\n',
      'name: a\u2028b\n',
      'name: |\n  a\n',
    ]) {
      expect(simpleYamlTokens(src), JSON.stringify(src)).toBeNull();
    }
  });

  it('agrees with yaml on every corpus case and on mutations of them', () => {
    const raws = corpus.cases.map((c) => frontmatterOf(c.content));
    let fast = 0;
    for (const raw of raws) if (agrees(raw)) fast++;
    expect(fast).toBeGreaterThan(5);
    const mutation = fc.tuple(
      fc.nat(),
      fc.nat(),
      fc.constantFrom(
        ': ',
        ' ',
        '  ',
        '\n',
        '#',
        ' #',
        '"',
        "'",
        '\\',
        ':',
        '-',
        '\t',
        '\r',
        'a',
        '  b: c\n',
        'k:\n',
        '\n  x: y',
      ),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (edits) => {
        let raw = raws[edits[0][0] % raws.length] ?? '';
        for (const [, at, insert] of edits) {
          const i = at % (raw.length + 1);
          raw = raw.slice(0, i) + insert + raw.slice(i);
        }
        agrees(raw);
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('agrees with yaml on generated block mappings', () => {
    const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/);
    const value = fc.oneof(
      fc.stringMatching(/^[^\n\r]{1,12}$/),
      fc.stringMatching(/^"[^"\\\n]{0,6}"$/),
      fc.stringMatching(/^'[^'\n]{0,6}'$/),
    );
    const entry = mappingEntry(key, value);
    let fast = 0;
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), (entries) => {
        if (agrees(entries.join(''))) fast++;
      }),
      { seed: 5, numRuns: 3000 },
    );
    expect(fast).toBeGreaterThan(300);
  });

  it('gives parseSkill the same Document as parseDocument: values, ranges, errors and printed text', () => {
    const texts = [
      ...corpus.cases.map((c) => c.content),
      '---\nname: a\nmetadata:\n  author: x\n  version: "1.0"\nlicense: MIT\n---\nbody\n',
      '---\nname: a\nname: b\n---\n',
      "---\nnull: true\nn: 12\nq: 'x'\n---\n",
    ];
    let fast = 0;
    for (const text of texts) {
      const parsed = parseSkill(text);
      const raw = parsed.frontmatter?.raw;
      if (raw === undefined || parsed.repairs.length > 0) continue;
      if (simpleYamlTokens(raw) !== null) fast++;
      const reference = parseDocument(raw, {
        prettyErrors: false,
        uniqueKeys: true,
        version: '1.2',
        keepSourceTokens: false,
        logLevel: 'error',
      });
      const doc = parsed.document;
      expect(doc?.toJS()).toEqual(reference.toJS());
      expect(nodesOf(doc)).toEqual(nodesOf(reference));
      expect(doc?.range).toEqual(reference.range);
      expect(doc?.errors.map((e) => [e.code, e.pos])).toEqual(
        reference.errors.map((e) => [e.code, e.pos]),
      );
      if (reference.errors.length === 0) expect(String(doc)).toEqual(String(reference));
    }
    expect(fast).toBeGreaterThan(5);
  });
});

/**
 * For text in the token subset: the builder's Document is the Composer's, object for object
 * (classes, ranges, values, options, schema) and printed alike; 'composer' when the builder
 * leaves it to the Composer, 'outside' when the text is not in the subset at all.
 */
function sameDocument(src: string): 'built' | 'composer' | 'outside' {
  const tokens = simpleYamlTokens(src);
  if (tokens === null) return 'outside';
  const built = simpleYamlDocument(tokens, YAML_OPTIONS);
  if (built === null) return 'composer';
  const [composed] = [...new Composer(YAML_OPTIONS).compose(tokens, true, src.length)];
  expect(built).toStrictEqual(composed);
  expect(String(built)).toBe(String(composed));
  // Its data is yaml's toJS of the Composer's Document, own properties and their order included.
  const data = simpleYamlData(built);
  const reference = composed?.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  expect(data).toStrictEqual(reference);
  expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  expect(JSON.stringify(data)).toBe(JSON.stringify(reference));
  return 'built';
}

describe('simpleYamlDocument', () => {
  it("builds the Composer's Document for string values, and leaves other values and long keys to it", () => {
    expect(sameDocument('name: my-skill\ndescription: Turns notes into items.\n')).toBe('built');
    expect(
      sameDocument('name: a\nmetadata:\n  author: bench\n  version: "1.0.0"\n  note: \'x\'\n'),
    ).toBe('built');
    expect(sameDocument('version: 1.0.0\nempty: ""\n')).toBe('built');
    // Keys the object already has (its prototype's, a repeated one) are own properties, in first place.
    const src = '__proto__: x\ntoString: y\nname: a\nmeta:\n  constructor: c\nname: b\n';
    expect(sameDocument(src)).toBe('built');
    const data = simpleYamlData(simpleYamlDocument(simpleYamlTokens(src) ?? [], YAML_OPTIONS)!);
    expect(Object.keys(data ?? {})).toEqual(['__proto__', 'toString', 'name', 'meta']);
    expect(data?.name).toBe('b');
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    const meta = data?.meta as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(meta, 'constructor')?.value).toBe('c');
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    // A Document the builder did not make has no plain data here.
    const [other] = [...new Composer(YAML_OPTIONS).compose(simpleYamlTokens(src) ?? [], true)];
    expect(simpleYamlData(other)).toBeUndefined();
    // A number, a boolean or null, as a value or as a key, is the Composer's to resolve.
    for (const src of ['n: 12\n', 'ok: true\n', 'x: null\n', 'null: x\n', 'meta:\n  f: 0x1f\n'])
      expect(sameDocument(src), src).toBe('composer');
    expect(sameDocument(`${'k'.repeat(1500)}: v\n`)).toBe('composer');
    expect(sameDocument('name: a # c\n')).toBe('outside');
  });

  it('agrees with the Composer on every corpus case, mutations of them and generated mappings', () => {
    const raws = corpus.cases.map((c) => frontmatterOf(c.content));
    const seen = { built: 0, composer: 0, outside: 0 };
    for (const raw of raws) seen[sameDocument(raw)]++;
    expect(seen.built).toBeGreaterThan(5);
    const key = fc.oneof(
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/),
      fc.constantFrom('null', 'true', 'False', 'NULL', 'y', 'on'),
    );
    const value = fc.oneof(
      fc.stringMatching(/^[^\n\r]{1,12}$/),
      fc.stringMatching(/^"[^"\\\n]{0,6}"$/),
      fc.stringMatching(/^'[^'\n]{0,6}'$/),
      fc.constantFrom(
        '12',
        '-3',
        '1.5',
        '1e3',
        '.inf',
        '0o17',
        '0x1F',
        'true',
        '~',
        'Null',
        '1.0.0',
      ),
    );
    const entry = mappingEntry(key, value);
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), (entries) => {
        seen[sameDocument(entries.join(''))]++;
      }),
      { seed: 7, numRuns: 3000 },
    );
    expect(seen.built).toBeGreaterThan(150);
    expect(seen.composer).toBeGreaterThan(150);
  });
});
