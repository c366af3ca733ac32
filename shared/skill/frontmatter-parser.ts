import {
  Composer,
  CST,
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  Parser,
  Scalar,
  YAMLParseError,
} from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import type { Position, Range } from './text-types';
import { prescanYaml, resolveLimits, utf8Length, utf8Prefix } from './limits';
import type { LimitExceeded, ValidationLimits } from './limits';
import { LineIndex } from './line-index';
import { simpleYamlData, simpleYamlDocument, simpleYamlTokens } from './simple-yaml-tokens';
import { quoteYamlString, textOf } from './yaml-strings';

/** The line-ending style of a whole file. */
export type LineEnding = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

/** A problem with the frontmatter's boundaries, found before any YAML is read (docs/skill-format.md §1). */
export interface BoundaryIssue {
  kind: 'bom' | 'missing' | 'not-at-start' | 'unclosed' | 'dots-closer' | 'delimiter-whitespace';
  /** Offsets into the original text. */
  start: number;
  end: number;
}

/** Where the frontmatter sits in the original text. All offsets are into the original string. */
export interface FrontmatterBlock {
  /** The opening `---` line, without its line break. */
  openStart: number;
  openEnd: number;
  /** The YAML text [contentStart, contentEnd), everything between the delimiter lines. */
  contentStart: number;
  contentEnd: number;
  /** The closing line without its line break; both -1 when the frontmatter is not closed. */
  closeStart: number;
  closeEnd: number;
  /** What closed it: `---`, the YAML document end `...`, or nothing. */
  closer: '---' | '...' | null;
  /** The YAML text itself (original line endings kept). */
  raw: string;
}

/** A YAML parser error or warning, mapped to offsets in the original text. */
export interface YamlProblem {
  code: string;
  message: string;
  severity: 'error' | 'warning';
  start: number;
  end: number;
}

/**
 * A value the parser had to quote to read the frontmatter the way a tolerant reader (Claude
 * Code) does: an unquoted `: ` inside a plain value (docs/skill-format.md §1). Offsets are into the original text.
 */
export interface YamlRepair {
  kind: 'unquoted-colon';
  /** The key whose value was repaired. */
  key: string;
  start: number;
  end: number;
  /** The value as it appears in the file. */
  value: string;
  /** The quoted replacement. */
  replacement: string;
}

/** A SKILL.md split into frontmatter and body, with the YAML document and ranges into the original text. */
export interface ParsedSkill {
  text: string;
  hasBom: boolean;
  lineEnding: LineEnding;
  frontmatter: FrontmatterBlock | null;
  boundaryIssues: BoundaryIssue[];
  /** The YAML document (after repairs, see `repairs`); null without frontmatter. */
  document: Document.Parsed | null;
  /** The frontmatter as plain data (`undefined` without frontmatter or when it cannot be converted). */
  data: unknown;
  yamlErrors: YamlProblem[];
  yamlWarnings: YamlProblem[];
  repairs: YamlRepair[];
  body: string;
  bodyStart: number;
  /** The bounds this file was read with (shared/skill/limits.ts). */
  limits: ValidationLimits;
  /**
   * The bounds the file went past, found before the expensive work. A frontmatter bound means the
   * YAML was not read (`document` null, a `LIMIT_EXCEEDED` YAML error); the body bound means the
   * body rules scan only up to `checkedBodyEnd`.
   */
  overLimits: LimitExceeded[];
  /** Offset in `text` up to which the body rules scan (the text's end when within bounds). */
  checkedBodyEnd: number;
  /** 1-based line where the body starts. */
  readonly bodyStartLine: number;
  lines: LineIndex;
  /** Map an offset in the YAML document's source to an offset in the original text. */
  toTextOffset(yamlOffset: number): number;
  /** Original-text span of a YAML node's value (without trailing comment); null when it has no range. */
  nodeSpan(node: unknown): { start: number; end: number } | null;
  positionAt(offset: number): Position;
  rangeAt(start: number, end: number): Range;
}

const DELIM_DASH = /^---[ \t]*$/;
const DELIM_DOTS = /^\.\.\.[ \t]*$/;
const LEADING_JUNK = /^(?:[ \t]*|[ \t]*#.*|[ \t]*<!--.*)$/;
const YAMLISH = /^(?:$|[ \t]|#|- |-$|[^\s:#][^:]*:(?:[ \t]|$))/;
const SPECIAL_START = /^['"[{|>&*!#%@`]/;

interface Line {
  start: number;
  /** End of the line's content (before the line break). */
  end: number;
  /** Start of the next line. */
  next: number;
}

/** Iterate lines from `from`, one at a time, without splitting the whole text. */
function readLine(text: string, from: number): Line {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10) return { start: from, end: i, next: i + 1 };
    if (c === 13)
      return { start: from, end: i, next: text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1 };
    i++;
  }
  return { start: from, end: i, next: i };
}

/** The file's line-ending style. */
export function detectLineEnding(text: string): LineEnding {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) crlf++;
    else cr++;
  }
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf++;
  lf -= crlf;
  const kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0);
  if (kinds === 0) return 'none';
  if (kinds > 1) return 'mixed';
  return lf > 0 ? 'lf' : crlf > 0 ? 'crlf' : 'cr';
}

/** Where a SKILL.md's frontmatter sits, found without reading any YAML. */
export interface Boundaries {
  block: FrontmatterBlock | null;
  issues: BoundaryIssue[];
  /** Offset where the body starts (after the closing line and its line break). */
  bodyStart: number;
}

/**
 * Find the frontmatter delimiters exactly as docs/skill-format.md §1 describes, recording every deviation: the
 * one place that decides where a SKILL.md's frontmatter begins and ends. Everything else that
 * needs the boundaries (the parser, the export projection, the editor's YAML mirror, the
 * library's first glance) asks here. Cheap: line scans only, no YAML.
 */
export function locateFrontmatter(text: string): Boundaries {
  return findBoundaries(text, text.charCodeAt(0) === 0xfeff);
}

function findBoundaries(text: string, hasBom: boolean): Boundaries {
  const issues: BoundaryIssue[] = [];
  const begin = hasBom ? 1 : 0;
  if (hasBom) issues.push({ kind: 'bom', start: 0, end: 1 });
  let open = readLine(text, begin);
  let openText = text.slice(open.start, open.end);
  if (!DELIM_DASH.test(openText)) {
    // Spec §1: a blank line or comment before `---` is rejected everywhere; find the late
    // opener so the rest of the frontmatter can still be checked.
    let line = open;
    let found: Line | null = null;
    while (line.start < text.length) {
      const t = text.slice(line.start, line.end);
      if (DELIM_DASH.test(t)) {
        found = line;
        break;
      }
      if (!LEADING_JUNK.test(t) || line.next === line.start) break;
      line = readLine(text, line.next);
    }
    if (!found) {
      issues.push({ kind: 'missing', start: begin, end: begin });
      return { block: null, issues, bodyStart: begin };
    }
    issues.push({ kind: 'not-at-start', start: begin, end: found.start });
    open = found;
    openText = text.slice(open.start, open.end);
  }
  if (openText.length > 3)
    issues.push({ kind: 'delimiter-whitespace', start: open.start + 3, end: open.end });

  const contentStart = open.next;
  let line = readLine(text, contentStart);
  let close: Line | null = null;
  let closer: '---' | '...' | null = null;
  while (line.start < text.length) {
    const t = text.slice(line.start, line.end);
    if (DELIM_DASH.test(t)) {
      close = line;
      closer = '---';
      break;
    }
    if (DELIM_DOTS.test(t)) {
      close = line;
      closer = '...';
      break;
    }
    if (line.next === line.start) break;
    line = readLine(text, line.next);
  }
  if (close) {
    if (closer === '...') issues.push({ kind: 'dots-closer', start: close.start, end: close.end });
    else if (close.end - close.start > 3)
      issues.push({ kind: 'delimiter-whitespace', start: close.start + 3, end: close.end });
    return {
      block: {
        openStart: open.start,
        openEnd: open.end,
        contentStart,
        contentEnd: close.start,
        closeStart: close.start,
        closeEnd: close.end,
        closer,
        raw: text.slice(contentStart, close.start),
      },
      issues,
      bodyStart: close.next,
    };
  }
  // Unclosed: take the run of YAML-looking lines as the frontmatter so its fields can still
  // be checked; the rest is body. The issue's range marks where `---` should go.
  let lastContentEnd = contentStart;
  line = readLine(text, contentStart);
  while (line.start < text.length) {
    const t = text.slice(line.start, line.end);
    if (!YAMLISH.test(t)) break;
    // Trailing blank and comment lines (a Markdown `# Heading`) belong to the body.
    if (t.trim() !== '' && !t.startsWith('#')) lastContentEnd = line.next;
    if (line.next === line.start) break;
    line = readLine(text, line.next);
  }
  const end = lastContentEnd;
  issues.push({ kind: 'unclosed', start: end, end });
  return {
    block: {
      openStart: open.start,
      openEnd: open.end,
      contentStart,
      contentEnd: end,
      closeStart: -1,
      closeEnd: -1,
      closer: null,
      raw: text.slice(contentStart, end),
    },
    issues,
    bodyStart: end,
  };
}

interface RawRepair {
  rawStart: number;
  rawEnd: number;
  key: string;
  value: string;
  replacement: string;
}

/** Characters that may not start a key of a `key: value` line (YAML indicators, whitespace). */
const KEY_FIRST_EXCLUDED = new Set('#\'"[]{}&*!|>%@`,?:-'.split('').map((c) => c.charCodeAt(0)));
const WHITESPACE = /\s/;

function isBlankCode(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * A `key: value` line: indentation, a key that is not a YAML indicator (or `-x`), the first `:`
 * followed by blanks, and a value starting with a non-space, trailing blanks dropped; null for
 * any other line. Why by hand and not a regular expression: the expression this replaces, with a
 * lazy key and lazy value each followed by optional blanks, backtracked quadratically on a long
 * run of spaces (a 250 KB line took minutes). This is one linear pass with the same answers
 * (checked against the old expression in frontmatter-parser.test.ts).
 */
export function colonLine(t: string): { key: string; value: string; valueStart: number } | null {
  const n = t.length;
  let i = 0;
  while (i < n && isBlankCode(t.charCodeAt(i))) i++;
  if (i >= n) return null;
  const ks = i;
  const c0 = t.charCodeAt(ks);
  let scan: number;
  if (c0 === 45) {
    // `-x…`: a key may start with `-` when a character other than a space or `:` follows.
    const c1 = t[ks + 1];
    if (c1 === undefined || c1 === ':' || WHITESPACE.test(c1)) return null;
    scan = ks + 2;
  } else {
    if (KEY_FIRST_EXCLUDED.has(c0) || WHITESPACE.test(t[ks] ?? '')) return null;
    scan = ks + 1;
  }
  let colon = -1;
  for (let j = scan; j < n; j++) {
    const c = t.charCodeAt(j);
    if (c === 35) return null;
    if (c === 58) {
      colon = j;
      break;
    }
  }
  if (colon === -1) return null;
  let vs = colon + 1;
  if (vs >= n || !isBlankCode(t.charCodeAt(vs))) return null;
  while (vs < n && isBlankCode(t.charCodeAt(vs))) vs++;
  if (vs >= n || WHITESPACE.test(t[vs] ?? '')) return null;
  let ve = n;
  while (ve > vs && isBlankCode(t.charCodeAt(ve - 1))) ve--;
  for (let j = vs; j < ve; j++) {
    // `.` in the expression did not match the line separators U+2028 and U+2029.
    const c = t.charCodeAt(j);
    if (c === 0x2028 || c === 0x2029) return null;
  }
  let ke = colon;
  while (ke > ks && isBlankCode(t.charCodeAt(ke - 1))) ke--;
  return { key: t.slice(ks, ke), value: t.slice(vs, ve), valueStart: vs };
}

/** Offsets of the line starts of `text`, ascending (`\n`, `\r\n` and a lone `\r` end a line). */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The greatest element of ascending `xs` that is ≤ `at` (xs[0] must be ≤ at). */
function floorOf(xs: readonly number[], at: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((xs[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return xs[lo] ?? 0;
}

/**
 * Lines where a parse error comes from an unquoted `: ` inside a plain value (`description:
 * Use when: ...`). Found from the parser's own errors, then checked lexically on that line.
 */
function findColonRepairs(raw: string, errors: readonly { pos: [number, number] }[]): RawRepair[] {
  const seen = new Set<number>();
  const out: RawRepair[] = [];
  // Why a table of line starts: walking back from each error to its line start cost a line's
  // length per error, quadratic on one long line with many errors.
  const starts = lineStartsOf(raw);
  for (const err of errors) {
    const ls = floorOf(starts, Math.min(err.pos[0], raw.length));
    if (seen.has(ls)) continue;
    seen.add(ls);
    const line = readLine(raw, ls);
    const m = colonLine(raw.slice(line.start, line.end));
    if (!m) continue;
    const value = m.value;
    if (SPECIAL_START.test(value)) continue;
    if (!/:(?:[ \t]|$)/.test(value)) continue;
    const rawStart = line.start + m.valueStart;
    out.push({
      rawStart,
      rawEnd: rawStart + value.length,
      key: m.key.trim(),
      value,
      replacement: quoteYamlString(value),
    });
  }
  return out.sort((a, b) => a.rawStart - b.rawStart);
}

/** `raw` with every repair applied (repairs sorted and apart), built in one pass. */
function applyRepairs(raw: string, repairs: readonly RawRepair[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const r of repairs) {
    parts.push(raw.slice(at, r.rawStart), r.replacement);
    at = r.rawEnd;
  }
  parts.push(raw.slice(at));
  return parts.join('');
}

function toProblems(
  list: readonly { code: string; message: string; pos: [number, number] }[],
  severity: 'error' | 'warning',
  map: (n: number) => number,
): YamlProblem[] {
  return list.map((e) => {
    const start = map(e.pos[0]);
    const nl = e.message.indexOf('\n');
    return {
      code: e.code,
      message: nl === -1 ? e.message : e.message.slice(0, nl),
      severity,
      start,
      end: Math.max(start, map(e.pos[1])),
    };
  });
}

/**
 * Why `uniqueKeys: false`: yaml checks each key against every earlier key of its mapping, which
 * is quadratic (16,000 keys took seconds); {@link addDuplicateKeyErrors} reports the same
 * DUPLICATE_KEY errors with one hash set per mapping.
 */
/** How frontmatter YAML is read (yaml's options). */
export const YAML_OPTIONS = {
  prettyErrors: false,
  uniqueKeys: false,
  version: '1.2',
  keepSourceTokens: false,
  logLevel: 'error',
} as const;

/** The YAML document, or the bound the YAML went past while it was read. */
type YamlRead =
  { doc: Document.Parsed; over?: undefined } | { doc?: undefined; over: FrontmatterOver };

/** A frontmatter bound gone past: what was found, or (not `exact`) only that it is more than `max`. */
interface FrontmatterOver {
  limit: LimitExceeded['limit'];
  found: number;
  max: number;
  exact: boolean;
}

function over(
  limit: FrontmatterOver['limit'],
  found: number,
  max: number,
  exact = true,
): { over: FrontmatterOver } {
  return { over: { limit, found, max, exact } };
}

/**
 * Nodes and nesting of the plain `key: value` subset (./simple-yaml-tokens): two nodes per entry,
 * one per mapping; two levels, three with a nested mapping.
 */
function simpleSize(tokens: readonly CST.Token[]): { nodes: number; depth: number } {
  let nodes = 1;
  let depth = 2;
  for (const t of tokens) {
    if (t.type !== 'document' || t.value?.type !== 'block-map') continue;
    for (const item of t.value.items) {
      nodes += 2;
      if (item.value?.type === 'block-map') {
        depth = 3;
        nodes += 2 * item.value.items.length;
      }
    }
  }
  return { nodes, depth };
}

/** Compose CST tokens into the first document exactly as yaml's parseDocument does. */
function composeFirst(tokens: Iterable<CST.Token>, length: number): Document.Parsed {
  let doc: Document.Parsed | undefined;
  for (const d of new Composer(YAML_OPTIONS).compose(tokens, true, length)) {
    if (!doc) doc = d;
    else {
      doc.errors.push(
        new YAMLParseError(
          [d.range[0], d.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  // Composer.compose(…, forceDoc = true) always yields a document.
  return doc as Document.Parsed;
}

/**
 * Read YAML as yaml's parseDocument does, with the bounds enforced while it is read: yaml's lexer
 * and parser are iterative, and after each lexeme the parser's stack (the nesting the composer
 * will recurse on), the nodes and the anchors and aliases so far are compared with the bounds.
 * Past one, reading stops: the composer, toJS and the rules never see the document. Why here as
 * well as in the pre-scan: the pre-scan only estimates; this is exact, so whether a file is read
 * never depends on how much stack the thread has (a worker has four times the main thread's).
 * Plain `key: value` lines skip yaml's lexer and parser (./simple-yaml-tokens): their tokens are
 * built directly and are flat.
 */
function readYaml(raw: string, limits: ValidationLimits): YamlRead {
  const simple = simpleYamlTokens(raw);
  if (simple !== null) {
    // The subset is flat and its size is exact: no estimate needed.
    const size = simpleSize(simple);
    if (size.depth > limits.depth) return over('depth', size.depth, limits.depth);
    if (size.nodes > limits.nodes) return over('nodes', size.nodes, limits.nodes);
    return {
      doc: withDuplicateKeyErrors(
        simpleYamlDocument(simple, YAML_OPTIONS) ?? composeFirst(simple, raw.length),
      ),
    };
  }
  // The one-pass estimate first (./limits prescanYaml): most hostile texts stop here.
  const est = prescanYaml(raw);
  if (est.depth > limits.depth) return over('depth', est.depth, limits.depth);
  if (est.nodes > limits.nodes) return over('nodes', est.nodes, limits.nodes);
  if (est.aliases > limits.aliases) return over('aliases', est.aliases, limits.aliases);
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  let nodes = 0;
  let aliases = 0;
  let scalarNext = false;
  for (const lexeme of new Lexer().lex(raw, false)) {
    if (scalarNext) scalarNext = false;
    else if (lexeme === CST.SCALAR) {
      scalarNext = true;
      nodes++;
    } else {
      switch (CST.tokenType(lexeme)) {
        case 'alias':
          nodes++;
          aliases++;
          break;
        case 'anchor':
          aliases++;
          break;
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
        case 'flow-map-start':
        case 'flow-seq-start':
        case 'seq-item-ind':
        case 'explicit-key-ind':
          nodes++;
          break;
        default:
          break;
      }
    }
    for (const token of parser.next(lexeme)) tokens.push(token);
    // The stack holds the document too; what is left is the nesting of the nodes.
    if (parser.stack.length - 1 > limits.depth)
      return over('depth', limits.depth + 1, limits.depth, false);
    if (nodes > limits.nodes) return over('nodes', limits.nodes + 1, limits.nodes, false);
    if (aliases > limits.aliases) return over('aliases', limits.aliases + 1, limits.aliases, false);
  }
  for (const token of parser.end()) tokens.push(token);
  return { doc: withDuplicateKeyErrors(composeFirst(tokens, raw.length)) };
}

/**
 * Where yaml reports a duplicate key: where the key's token starts. For an empty key with a
 * comment (`? # note`) yaml places the node right after the indicator and reports past the
 * comment, where the node's range ends. (An empty key after a line break is reported at the
 * next token, one line lower than this; only its position in the error differs.)
 */
function keyStartOf(k: Scalar): number {
  const r = k.range;
  if (!r) return 0;
  return k.source === '' && k.value === null && k.comment ? r[2] : r[0];
}

/** Documents with a collection used as a key somewhere, noted by the walk for duplicate keys. */
const WITH_COLLECTION_KEYS = new WeakSet<object>();

/**
 * Add yaml's DUPLICATE_KEY errors (a scalar key equal to an earlier key of the same mapping, at
 * the key's start) with one hash set per mapping, in the order yaml would have reported them
 * (by position among the other errors). Iterative: the depth is bounded, but this needs no stack.
 */
function withDuplicateKeyErrors(doc: Document.Parsed): Document.Parsed {
  const found: YAMLParseError[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const k = pair.key;
        if (isCollection(k)) WITH_COLLECTION_KEYS.add(doc);
        if (isScalar(k) && !(typeof k.value === 'number' && Number.isNaN(k.value))) {
          if (seen.has(k.value)) {
            const at = keyStartOf(k);
            found.push(
              new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'),
            );
          } else seen.add(k.value);
        }
        stack.push(pair.value, pair.key);
      }
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    } else if (isPair(node)) {
      stack.push(node.value, node.key);
    }
  }
  if (found.length === 0) return doc;
  found.sort((a, b) => a.pos[0] - b.pos[0]);
  const merged: YAMLParseError[] = [];
  let i = 0;
  for (const dup of found) {
    while (i < doc.errors.length && (doc.errors[i]?.pos[0] ?? 0) <= dup.pos[0])
      merged.push(doc.errors[i++]);
    merged.push(dup);
  }
  while (i < doc.errors.length) merged.push(doc.errors[i++]);
  doc.errors = merged;
  return doc;
}

/**
 * A collection used as a key, written out in flow style the way yaml names such keys (`[ a, b ]`,
 * `{ a: b }`), in one pass with an explicit stack. An alias must name an anchor set before it:
 * `anchors` holds those of the document so far and gains the key's own.
 */
function keyText(node: unknown, anchors: Set<string>): string {
  const out: string[] = [];
  // Work items: a node to write, or literal text.
  const work: unknown[] = [node];
  while (work.length > 0) {
    const item = work.pop();
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (isNode(item) && item.anchor) anchors.add(item.anchor);
    if (isMap(item) || isSeq(item)) {
      const map = isMap(item);
      if (item.items.length === 0) {
        out.push(map ? '{}' : '[]');
        continue;
      }
      out.push(map ? '{ ' : '[ ');
      work.push(map ? ' }' : ' ]');
      for (let i = item.items.length - 1; i >= 0; i--) {
        work.push(item.items[i]);
        if (i > 0) work.push(', ');
      }
    } else if (isPair(item)) {
      const v = item.value;
      if (v !== null && v !== undefined && !(isScalar(v) && v.value === null)) work.push(v, ': ');
      work.push(item.key);
    } else if (isAlias(item)) {
      if (!anchors.has(item.source))
        throw new ReferenceError(
          `Unresolved alias (the anchor must be set before the alias): ${item.source}`,
        );
      out.push(`*${item.source}`);
    } else if (isScalar(item)) {
      out.push(item.value === null || item.value === undefined ? '' : textOf(item.value));
    }
  }
  return out.join('');
}

/**
 * The frontmatter as plain data (yaml's `toJS`), with each outermost key that is itself a
 * collection standing in as its text ({@link keyText}). Why: for such a key yaml converts the key
 * to data and also stringifies it, at every level of a nested one, which is cubic in its size (a
 * 5 KB key took seconds, minutes on a worker); such keys are reported as not JSON anyway
 * (`yaml/not-json`), and their text is all a reader can do with them. The document is left as
 * it was.
 */
function toData(doc: Document.Parsed): unknown {
  // The common case: no collection key, nothing to stand in (known from the duplicate-key walk).
  if (!WITH_COLLECTION_KEYS.has(doc))
    return simpleYamlData(doc) ?? doc.toJS({ maxAliasCount: 100 });
  const swapped: [Pair, unknown][] = [];
  try {
    // Document order (a node before its children, a key before its value), as yaml resolves
    // aliases, so the anchors seen are those set before.
    const anchors = new Set<string>();
    const stack: unknown[] = [doc.contents];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isPair(node)) {
        if (isCollection(node.key)) {
          const text = keyText(node.key, anchors);
          swapped.push([node, node.key]);
          node.key = new Scalar(text);
          stack.push(node.value);
        } else stack.push(node.value, node.key);
        continue;
      }
      if (isNode(node) && node.anchor) anchors.add(node.anchor);
      if (isMap(node) || isSeq(node))
        for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
    return doc.toJS({ maxAliasCount: 100 });
  } finally {
    for (const [pair, key] of swapped) pair.key = key;
  }
}

/** Options of {@link parseSkill}. */
export interface ParseOptions {
  /** Bounds to read the file with; default {@link VALIDATION_LIMITS} (shared/skill/limits.ts). */
  limits?: Partial<ValidationLimits>;
}

/** The frontmatter's size bound, checked before anything else reads it. */
function frontmatterTooLarge(raw: string, limits: ValidationLimits): FrontmatterOver | null {
  const bytes = utf8Length(raw);
  return bytes > limits.frontmatterBytes
    ? { limit: 'frontmatterBytes', found: bytes, max: limits.frontmatterBytes, exact: true }
    : null;
}

/** Parse a SKILL.md. Never throws: every problem is recorded on the result. */
export function parseSkill(text: string, options: ParseOptions = {}): ParsedSkill {
  const src = typeof text === 'string' ? text : String(text);
  const limits = resolveLimits(options.limits);
  const hasBom = src.charCodeAt(0) === 0xfeff;
  const lines = new LineIndex(src);
  const { block, issues, bodyStart } = findBoundaries(src, hasBom);

  let document: Document.Parsed | null = null;
  let data: unknown = undefined;
  let yamlErrors: YamlProblem[] = [];
  let yamlWarnings: YamlProblem[] = [];
  const repairs: YamlRepair[] = [];
  const overLimits: LimitExceeded[] = [];
  let rawRepairs: RawRepair[] = [];
  // Per repair, where it starts and ends in the repaired YAML and the shift after it, so an
  // offset maps back by binary search (a scan of every repair per node was quadratic).
  let repStarts: number[] = [];
  let repEnds: number[] = [];
  let shiftsAfter: number[] = [];
  const base = block ? block.contentStart : 0;

  const toTextOffset = (n: number): number => {
    let lo = 0;
    let hi = repStarts.length - 1;
    if (hi < 0 || n < (repStarts[0] ?? 0)) return Math.min(base + n, src.length);
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((repStarts[mid] ?? 0) <= n) lo = mid;
      else hi = mid - 1;
    }
    const r = rawRepairs[lo];
    const repStart = repStarts[lo] ?? 0;
    const repEnd = repEnds[lo] ?? 0;
    if (n < repEnd)
      return base + r.rawStart + Math.min(Math.max(n - repStart - 1, 0), r.rawEnd - r.rawStart);
    if (n === repEnd) return base + r.rawEnd;
    return Math.min(base + n - (shiftsAfter[lo] ?? 0), src.length);
  };

  const readLimit = ({ limit, found, max, exact }: FrontmatterOver) => {
    if (!block) return;
    overLimits.push({ limit, max, found, exact, start: block.openStart, end: block.openEnd });
    // Every consumer that trusts the YAML only when it has no errors learns it was not read.
    yamlErrors = [
      {
        code: 'LIMIT_EXCEEDED',
        message: `The frontmatter was not read: ${limit} ${exact ? found : `> ${max}`} exceeds the limit of ${max}`,
        severity: 'error',
        start: block.contentStart,
        end: block.contentEnd,
      },
    ];
  };

  if (block) {
    const tooLarge = frontmatterTooLarge(block.raw, limits);
    if (tooLarge) readLimit(tooLarge);
    else {
      try {
        const first = readYaml(block.raw, limits);
        if (first.over) readLimit(first.over);
        else {
          let doc = first.doc;
          if (doc.errors.length > 0) {
            const found = findColonRepairs(block.raw, doc.errors);
            if (found.length > 0) {
              const repaired = applyRepairs(block.raw, found);
              const second = readYaml(repaired, limits);
              if (second.doc && second.doc.errors.length < doc.errors.length) {
                doc = second.doc;
                rawRepairs = found;
                let shift = 0;
                repStarts = [];
                repEnds = [];
                shiftsAfter = [];
                for (const r of found) {
                  const repStart = r.rawStart + shift;
                  repStarts.push(repStart);
                  repEnds.push(repStart + r.replacement.length);
                  shift += r.replacement.length - (r.rawEnd - r.rawStart);
                  shiftsAfter.push(shift);
                  repairs.push({
                    kind: 'unquoted-colon',
                    key: r.key,
                    start: base + r.rawStart,
                    end: base + r.rawEnd,
                    value: r.value,
                    replacement: r.replacement,
                  });
                }
              }
            }
          }
          document = doc;
          yamlErrors = toProblems(doc.errors, 'error', toTextOffset);
          yamlWarnings = toProblems(doc.warnings, 'warning', toTextOffset);
          try {
            data = toData(doc);
          } catch (e) {
            yamlErrors.push({
              code: 'TO_JS',
              message: e instanceof Error ? e.message : String(e),
              severity: 'error',
              start: block.contentStart,
              end: block.contentEnd,
            });
          }
        }
      } catch (e) {
        document = null;
        yamlErrors = [
          {
            code: 'PARSE',
            message: e instanceof Error ? e.message : String(e),
            severity: 'error',
            start: block.contentStart,
            end: block.contentEnd,
          },
        ];
      }
    }
  }

  const nodeSpan = (node: unknown): { start: number; end: number } | null => {
    if (!isNode(node)) return null;
    const r = (node as YamlNode).range;
    if (!r) return null;
    const start = toTextOffset(r[0]);
    return { start, end: Math.max(start, toTextOffset(r[1])) };
  };

  const effectiveBodyStart = Math.min(bodyStart, src.length);
  let checkedBodyEnd = src.length;
  // UTF-8 needs at most three bytes per UTF-16 unit: a body that short is within the bound uncounted.
  if ((src.length - effectiveBodyStart) * 3 > limits.bodyBytes) {
    const within = utf8Prefix(src, effectiveBodyStart, src.length, limits.bodyBytes);
    if (within.end < src.length) {
      checkedBodyEnd = within.end;
      overLimits.push({
        limit: 'bodyBytes',
        max: limits.bodyBytes,
        found: within.bytes + utf8Length(src, within.end),
        exact: true,
        start: within.end,
        end: within.end,
      });
    }
  }
  return {
    text: src,
    hasBom,
    lineEnding: detectLineEnding(src),
    frontmatter: block,
    boundaryIssues: issues,
    document,
    data,
    yamlErrors,
    yamlWarnings,
    repairs,
    body: src.slice(effectiveBodyStart),
    bodyStart: effectiveBodyStart,
    limits,
    overLimits,
    checkedBodyEnd,
    // Why a getter: the line number needs a line scan up to the body, which most callers never ask for.
    get bodyStartLine() {
      return lines.positionAt(effectiveBodyStart).line;
    },
    lines,
    toTextOffset,
    nodeSpan,
    positionAt: (offset) => lines.positionAt(offset),
    rangeAt: (start, end) => lines.rangeAt(start, end),
  };
}
