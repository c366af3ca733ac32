import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { isScalar, parseDocument, Parser, visit } from 'yaml';
import type { Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSkill } from './frontmatter-parser';
import { simpleYamlTokens } from './simple-yaml-tokens';

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
    const entry = fc.oneof(
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
