import { measure as measureText } from '../agent-view/text';
import { validateSkill } from '../validation';
import { estimateTokens } from './limits';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isPair, isSeq, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { colonLine } from './frontmatter-parser';
import {
  applyEdits,
  parseSkill,
  prescanYaml,
  resolveLimits,
  utf8Length,
  utf8Prefix,
  VALIDATION_LIMITS,
} from './index';
import type { TextEdit } from '../validation/types';

/** Nesting depth (a scalar is one level) and node count of a composed document. */
function measure(doc: Document.Parsed): { depth: number; nodes: number } {
  let depth = 0;
  let nodes = 0;
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [n, d] = stack.pop() ?? [null, 0];
    if (n === null || n === undefined) continue;
    if (isPair(n)) {
      stack.push([n.key, d], [n.value, d]);
      continue;
    }
    nodes++;
    depth = Math.max(depth, d);
    if (isMap(n) || isSeq(n)) for (const item of n.items) stack.push([item, d + 1]);
  }
  return { depth, nodes };
}

type Tree =
  | { k: 's'; v: string }
  | { k: 'map'; items: [string, Tree][]; flow: boolean }
  | { k: 'seq'; items: Tree[]; flow: boolean };

const SCALARS = ['a', 'b c', '"q: [x]"', "'it''s [x'", 'yes', '1', 'x # [c'];

const tree = fc.letrec<{ node: Tree; map: Tree; seq: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 8 },
    fc.record({ k: fc.constant('s' as const), v: fc.constantFrom(...SCALARS) }),
    tie('map'),
    tie('seq'),
  ),
  map: fc.record({
    k: fc.constant('map' as const),
    items: fc.array(fc.tuple(fc.constantFrom('k', 'key two', 'z'), tie('node')), {
      minLength: 1,
      maxLength: 3,
    }),
    flow: fc.boolean(),
  }),
  seq: fc.record({
    k: fc.constant('seq' as const),
    items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
    flow: fc.boolean(),
  }),
})).node;

function flowText(t: Tree): string {
  if (t.k === 's') return t.v.replace(/ #.*$/, '');
  if (t.k === 'map') return `{${t.items.map(([k, v]) => `${k}: ${flowText(v)}`).join(', ')}}`;
  return `[${t.items.map(flowText).join(', ')}]`;
}

/** Block YAML for a tree: block collections unless marked flow; block scalars now and then. */
function blockLines(t: Tree, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const value = (head: string, v: Tree): string[] =>
    v.k === 's'
      ? v.v === 'yes'
        ? [`${head} |`, `${pad}  literal: [[[ {{{`, `${pad}    - more`]
        : [`${head} ${v.v}`]
      : v.flow
        ? [`${head} ${flowText(v)}`]
        : [head, ...blockLines(v, indent + 2)];
  if (t.k === 'map' && !t.flow) return t.items.flatMap(([k, v]) => value(`${pad}${k}:`, v));
  if (t.k === 'seq' && !t.flow) return t.items.flatMap((v) => value(`${pad}-`, v));
  return [`${pad}${t.k === 's' ? t.v : flowText(t)}`];
}

describe('VALIDATION_LIMITS', () => {
  it('are far above a real skill and overridable one by one', () => {
    expect(VALIDATION_LIMITS.frontmatterBytes).toBeGreaterThanOrEqual(10 * 20 * 1024);
    expect(VALIDATION_LIMITS.depth).toBeGreaterThanOrEqual(10 * 10);
    expect(VALIDATION_LIMITS.nodes).toBeGreaterThanOrEqual(10 * 1000);
    const l = resolveLimits({ depth: 5, nodes: -1 });
    expect(l.depth).toBe(5);
    expect(l.nodes).toBe(VALIDATION_LIMITS.nodes);
  });

  it('utf8Prefix counts UTF-8 bytes and stops at the bound', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.nat(400), (s, stop) => {
        const total = new TextEncoder().encode(s).length;
        expect(utf8Prefix(s, 0, s.length).bytes).toBe(total);
        expect(utf8Length(s)).toBe(total);
        expect(utf8Length(`ab${s}c`, 2, 2 + s.length)).toBe(total);
        const cut = utf8Prefix(s, 0, s.length, stop);
        expect(cut.bytes).toBeLessThanOrEqual(stop);
        expect(new TextEncoder().encode(s.slice(0, cut.end)).length).toBe(cut.bytes);
      }),
    );
  });
});

describe('prescanYaml: the estimate made before yaml reads anything', () => {
  it('never estimates valid YAML shallower than it is, and not much deeper', () => {
    fc.assert(
      fc.property(tree, (t) => {
        const src = `${blockLines(t.k === 's' ? { k: 'map', items: [['k', t]], flow: false } : { ...t, flow: false }, 0).join('\n')}\n`;
        const doc = parseDocument(src);
        fc.pre(doc.errors.length === 0);
        const real = measure(doc);
        const est = prescanYaml(src);
        expect(est.depth).toBeGreaterThanOrEqual(real.depth);
        expect(est.depth).toBeLessThanOrEqual(2 * real.depth + 1);
      }),
      { numRuns: 300 },
    );
  });

  it('sees deep indentation, deep brackets, many keys and many aliases', () => {
    const deepBlock = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(prescanYaml(deepBlock).depth).toBeGreaterThanOrEqual(300);
    expect(prescanYaml(`k: ${'['.repeat(500)}`).depth).toBeGreaterThanOrEqual(500);
    expect(prescanYaml('- '.repeat(400)).depth).toBeGreaterThanOrEqual(400);
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}: v`).join('\n');
    expect(prescanYaml(keys).nodes).toBeGreaterThanOrEqual(10_000);
    expect(prescanYaml(`a: &a x\nb: [${'*a, '.repeat(300)}]`).aliases).toBeGreaterThanOrEqual(300);
  });

  it('does not count brackets inside quoted or block scalars', () => {
    expect(prescanYaml(`d: "${'['.repeat(500)}"\ne: '${'{'.repeat(500)}'`).depth).toBeLessThan(5);
    expect(
      prescanYaml(`d: |\n  ${'['.repeat(500)}\n  ${'- '.repeat(500)}\ne: x\n`).depth,
    ).toBeLessThan(5);
    expect(prescanYaml(`d: it's [a] {b} - c\n`).depth).toBeLessThan(5);
  });

  it('never throws and is the same twice, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(prescanYaml(s)).toEqual(prescanYaml(s));
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseSkill within and past the bounds', () => {
  const at = (fm: string, body = 'Body\n') => `---\n${fm}---\n${body}`;

  it('reads a frontmatter at the depth bound and refuses one level more, before yaml reads it', () => {
    const nested = (n: number) =>
      `${Array.from({ length: n - 1 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')} v\n`;
    const ok = parseSkill(at(nested(VALIDATION_LIMITS.depth - 1)));
    expect(ok.overLimits).toEqual([]);
    expect(ok.document).not.toBeNull();
    const deep = parseSkill(at(nested(VALIDATION_LIMITS.depth + 1)));
    expect(deep.overLimits.map((o) => o.limit)).toEqual(['depth']);
    expect(deep.document).toBeNull();
    expect(deep.data).toBeUndefined();
    expect(deep.yamlErrors.map((e) => e.code)).toEqual(['LIMIT_EXCEEDED']);
  });

  it('enforces the bounds exactly while yaml reads, when the estimate is lower', () => {
    // Flow nesting inside a plain scalar's continuation escapes the estimate's quote rule; the
    // parser's own stack does not.
    const sneaky = `k: "x\n  ${'['.repeat(120)}"\n${'['.repeat(150)}\n`;
    const p = parseSkill(at(sneaky));
    expect(p.overLimits.map((o) => o.limit)).toEqual(['depth']);
    expect(p.document).toBeNull();
    const many = `k: [${Array.from({ length: 30_000 }, () => '""').join(' ')}]\n`;
    expect(parseSkill(at(many)).overLimits.map((o) => o.limit)).toEqual(['nodes']);
  });

  it('refuses a frontmatter over the size bound without reading it', () => {
    const big = `description: ${'word '.repeat(60_000)}\n`;
    const p = parseSkill(at(big));
    expect(p.overLimits).toEqual([
      expect.objectContaining({ limit: 'frontmatterBytes', found: big.length, exact: true }),
    ]);
    expect(parseSkill(at(big), { limits: { frontmatterBytes: 1e6 } }).overLimits).toEqual([]);
  });

  it('bounds the body the rules scan, and says where checking stopped', () => {
    const body = 'x'.repeat(VALIDATION_LIMITS.bodyBytes + 10);
    const t = at('name: a\n', body);
    const p = parseSkill(t);
    expect(p.overLimits).toEqual([
      expect.objectContaining({ limit: 'bodyBytes', found: body.length, exact: true }),
    ]);
    expect(p.checkedBodyEnd - p.bodyStart).toBe(VALIDATION_LIMITS.bodyBytes);
    expect(p.body.length).toBe(body.length);
    expect(p.data).toEqual({ name: 'a' });
  });

  it('reads a nested collection used as a key as its text, the same at any depth', () => {
    let key = 'a';
    for (let i = 0; i < 90; i++) key = `{${key}: ${i}}`;
    const p = parseSkill(at(`name: x\n? ${key}\n: v\n? [b, [c]]\n: w\n`));
    expect(p.overLimits).toEqual([]);
    const data = p.data as Record<string, unknown>;
    expect(data['[ b, [ c ] ]']).toBe('w');
    expect(Object.keys(data)[1]?.startsWith('{ { { ')).toBe(true);
    // The document itself keeps the collection keys.
    expect(isMap(p.document?.contents) && p.document.contents.items.length).toBe(3);
  });

  it('reports an unresolved alias inside a collection key, as yaml does', () => {
    const p = parseSkill(at('? [*nowhere]\n: v\n'));
    expect(p.yamlErrors.map((e) => e.code)).toEqual(['TO_JS']);
  });
});

describe('duplicate keys: yaml’s errors without its quadratic search', () => {
  const KEYS = ['a', 'b', '"a"', "'b'", '1', '"1"', 'true', 'null', '~', '&x c', '!!str d'];
  const mapping = fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.boolean()), {
    minLength: 1,
    maxLength: 8,
  });

  it('reports the same DUPLICATE_KEY errors as yaml’s uniqueKeys, in block and flow maps', () => {
    fc.assert(
      fc.property(mapping, mapping, (top, inner) => {
        const innerFlow = `{${inner.map(([k]) => `${k}: 1`).join(', ')}}`;
        const src = `${top.map(([k, nest]) => `${k}: ${nest ? innerFlow : 'v'}`).join('\n')}\n`;
        const yaml = parseDocument(src, { uniqueKeys: true, prettyErrors: false });
        const ours = parseSkill(at(src));
        const expected = yaml.errors.map((e) => `${e.code}@${e.pos[0] + 4}`);
        expect(ours.yamlErrors.map((e) => `${e.code}@${e.start}`)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
  const at = (fm: string) => `---\n${fm}---\n`;
});

describe('colonLine: the unquoted-colon repair’s line test, without backtracking', () => {
  // The regular expression it replaces, to check the same answers on short lines.
  const OLD =
    /^([ \t]*)([^\s#'"[\]{}&*!|>%@`,?:-][^:#]*?|-[^\s:][^:#]*?)[ \t]*:[ \t]+(\S.*?)[ \t]*$/;
  const line = fc
    .array(
      fc.constantFrom(
        'a',
        'b',
        ' ',
        '\t',
        ':',
        '#',
        '-',
        '"',
        '[',
        'é',
        '\u00a0',
        '\u2028',
        'x: y',
      ),
      {
        maxLength: 16,
      },
    )
    .map((parts) => parts.join(''));

  it('answers as the old expression', () => {
    fc.assert(
      fc.property(line, (t) => {
        const m = OLD.exec(t);
        const ours = colonLine(t);
        expect(ours && { key: ours.key, value: ours.value }).toEqual(
          m ? { key: m[2], value: m[3] } : null,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('takes one pass over a long run of spaces (the old expression backtracked quadratically)', () => {
    const t = `k: a: b${' '.repeat(250_000)}c`;
    expect(colonLine(t)?.value.length).toBe(t.length - 3);
    expect(colonLine(`k${' '.repeat(250_000)}x`)).toBeNull();
  });
});

describe('applyEdits in one pass', () => {
  /** The splice-per-edit version it replaces. */
  function spliceEach(text: string, edits: readonly TextEdit[]): string {
    const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
    let out = text;
    let limit = text.length;
    for (const e of sorted) {
      const start = Math.max(0, Math.min(e.start, text.length));
      const end = Math.max(start, Math.min(e.end, text.length));
      if (end > limit) throw new RangeError(`Overlapping text edits at offset ${start}`);
      out = out.slice(0, start) + e.newText + out.slice(end);
      limit = start;
    }
    return out;
  }

  it('gives the same text, or the same error, as splicing edit by edit', () => {
    const edit = fc.record({
      start: fc.integer({ min: -2, max: 14 }),
      end: fc.integer({ min: -2, max: 14 }),
      newText: fc.constantFrom('', 'X', 'YY'),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.array(edit, { maxLength: 5 }), (text, edits) => {
        let expected: string;
        try {
          expected = spliceEach(text, edits);
        } catch (e) {
          expect(() => applyEdits(text, edits)).toThrow((e as Error).message);
          return;
        }
        expect(applyEdits(text, edits)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('estimateTokens: the one token estimate', () => {
  it('counts characters, not UTF-16 units, and rounds up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    // Eight emoji are 16 UTF-16 units but 8 characters.
    expect(estimateTokens('😀'.repeat(8))).toBe(2);
  });

  it('gives the body rule, the catalog footprint and the long-body message the same number', () => {
    const body = `${'😀'.repeat(20_004)}\n`;
    const text = `---\nname: long\ndescription: A long skill.\n---\n${body}`;
    const finding = validateSkill(text).diagnostics.find((d) => d.ruleId === 'body/too-long');
    expect(finding?.message).toContain(
      `about ${estimateTokens(body).toLocaleString('en-US')} tokens`,
    );
    expect(measureText(body).tokens).toBe(estimateTokens(body));
  });
});
