import { Composer, Document, isMap, isScalar, Pair, Scalar, YAMLMap } from 'yaml';
import type { CST, DocumentOptions } from 'yaml';

// Why this file: most frontmatter is a handful of `key: value` lines, yet yaml's Lexer and
// Parser took two thirds of parseSkill (bench/validate profile). For that plain subset this
// builds the very CST tokens yaml's Parser would emit, and yaml's own Composer turns them into
// the Document, so values, types, ranges, errors and the editable Document stay exactly yaml's.
// Anything outside the subset returns null and goes through the full parser. The tokens are
// checked against yaml's Parser in simple-yaml-tokens.test.ts.

/** Characters that may not start a plain scalar (YAML 1.2 §5.3 indicators), or that we leave to the full parser. */
const PLAIN_FIRST_EXCLUDED = new Set(
  '-?:,[]{}#&*!|>\'"%@`~ '.split('').map((c) => c.charCodeAt(0)),
);

/** Whether `c` is a character the subset accepts inside a line: printable, no tab, no BOM, no line separators. */
function plainChar(c: number): boolean {
  if (c >= 0x20 && c <= 0x7e) return true;
  if (c < 0xa0) return false;
  return c !== 0xfeff && c !== 0x2028 && c !== 0x2029 && (c < 0xd800 || c > 0xdfff);
}

/** End of a `[A-Za-z_][A-Za-z0-9_-]*` key starting at `i`, or -1. */
function keyEnd(src: string, i: number): number {
  const c0 = src.charCodeAt(i);
  if (!((c0 >= 97 && c0 <= 122) || (c0 >= 65 && c0 <= 90) || c0 === 95)) return -1;
  let j = i + 1;
  for (;;) {
    const c = src.charCodeAt(j);
    if (
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 95 ||
      c === 45
    )
      j++;
    else return j;
  }
}

/** The scalar token type of a one-line value [i, end), or null when the value is outside the subset. */
function valueType(src: string, i: number, end: number): CST.FlowScalar['type'] | null {
  if (end <= i) return null;
  const first = src.charCodeAt(i);
  if (first === 34 || first === 39) {
    // A quoted value without escapes, inner quotes or anything after the closing quote.
    if (end - i < 2 || src.charCodeAt(end - 1) !== first) return null;
    for (let j = i + 1; j < end - 1; j++) {
      const c = src.charCodeAt(j);
      if (c === first || c === 92 || !plainChar(c)) return null;
    }
    return first === 34 ? 'double-quoted-scalar' : 'single-quoted-scalar';
  }
  if (PLAIN_FIRST_EXCLUDED.has(first)) return null;
  const last = src.charCodeAt(end - 1);
  if (last === 32 || last === 58) return null;
  for (let j = i; j < end; j++) {
    const c = src.charCodeAt(j);
    if (!plainChar(c)) return null;
    // `: ` would start a mapping and ` #` a comment: both are the full parser's business.
    if (c === 58 && src.charCodeAt(j + 1) === 32) return null;
    if (c === 35 && src.charCodeAt(j - 1) === 32) return null;
  }
  return 'scalar';
}

/** A `key: value` or `key:` line parsed at `lineStart` with `indent` spaces; null outside the subset. */
interface KeyLine {
  keyStart: number;
  keyEnd: number;
  /** Start and end of the value (equal when the line is `key:`). */
  valueStart: number;
  valueEnd: number;
  valueType: CST.FlowScalar['type'] | null;
  /** Offset of the line's `\n`. */
  newline: number;
}

function keyLine(src: string, lineStart: number, indent: number): KeyLine | null {
  const newline = src.indexOf('\n', lineStart);
  if (newline === -1) return null;
  const ks = lineStart + indent;
  const ke = keyEnd(src, ks);
  if (ke === -1 || src.charCodeAt(ke) !== 58) return null;
  if (ke + 1 === newline)
    return {
      keyStart: ks,
      keyEnd: ke,
      valueStart: newline,
      valueEnd: newline,
      valueType: null,
      newline,
    };
  if (src.charCodeAt(ke + 1) !== 32) return null;
  const vs = ke + 2;
  const type = valueType(src, vs, newline);
  if (!type) return null;
  return { keyStart: ks, keyEnd: ke, valueStart: vs, valueEnd: newline, valueType: type, newline };
}

function scalarToken(
  type: CST.FlowScalar['type'],
  offset: number,
  indent: number,
  source: string,
  end?: CST.SourceToken[],
): CST.FlowScalar {
  const t: CST.FlowScalar = { type, offset, indent, source };
  if (end) t.end = end;
  return t;
}

function source(
  type: CST.SourceToken['type'],
  offset: number,
  indent: number,
  text: string,
): CST.SourceToken {
  return { type, offset, indent, source: text };
}

/**
 * The CST tokens yaml's `Parser` emits for `src` when it is a block mapping of one-line
 * `key: value` entries (plain or quote-free quoted values), where a `key:` may open one level
 * of such entries indented by spaces; no comments, blank lines, tabs or `\r`, ending in `\n`.
 * Returns null for anything else.
 */
export function simpleYamlTokens(src: string): CST.Token[] | null {
  const n = src.length;
  if (n === 0 || src.charCodeAt(n - 1) !== 10 || src.indexOf('\r') !== -1) return null;
  const items: CST.BlockMap['items'] = [];
  let at = 0;
  while (at < n) {
    const line = keyLine(src, at, 0);
    if (!line) return null;
    const keyToken = scalarToken('scalar', line.keyStart, 0, src.slice(line.keyStart, line.keyEnd));
    const colon = source('map-value-ind', line.keyEnd, 0, ':');
    if (line.valueType) {
      items.push({
        start: [],
        key: keyToken,
        sep: [colon, source('space', line.keyEnd + 1, 0, ' ')],
        value: scalarToken(
          line.valueType,
          line.valueStart,
          0,
          src.slice(line.valueStart, line.valueEnd),
          [source('newline', line.newline, 0, '\n')],
        ),
      });
      at = line.newline + 1;
      continue;
    }
    // `key:` then one level of indented `key: value` lines, all with the same indentation.
    let next = line.newline + 1;
    let indent = 0;
    while (src.charCodeAt(next + indent) === 32) indent++;
    if (indent === 0) return null;
    const nested: CST.BlockMap['items'] = [];
    let mapOffset = -1;
    while (next < n && src.charCodeAt(next) === 32) {
      for (let k = 0; k < indent; k++) if (src.charCodeAt(next + k) !== 32) return null;
      const inner = keyLine(src, next, indent);
      if (!inner || !inner.valueType) return null;
      const first = mapOffset === -1;
      if (first) mapOffset = inner.keyStart;
      nested.push({
        start: first ? [] : [source('space', next, 0, src.slice(next, next + indent))],
        key: scalarToken('scalar', inner.keyStart, indent, src.slice(inner.keyStart, inner.keyEnd)),
        sep: [
          source('map-value-ind', inner.keyEnd, indent, ':'),
          source('space', inner.keyEnd + 1, indent, ' '),
        ],
        value: scalarToken(
          inner.valueType,
          inner.valueStart,
          indent,
          src.slice(inner.valueStart, inner.valueEnd),
          [source('newline', inner.newline, indent, '\n')],
        ),
      });
      next = inner.newline + 1;
    }
    const blockMap: CST.BlockMap = { type: 'block-map', offset: mapOffset, indent, items: nested };
    items.push({
      start: [],
      key: keyToken,
      sep: [
        colon,
        source('newline', line.newline, 0, '\n'),
        source(
          'space',
          line.newline + 1,
          0,
          src.slice(line.newline + 1, line.newline + 1 + indent),
        ),
      ],
      value: blockMap,
    });
    at = next;
  }
  const map: CST.BlockMap = { type: 'block-map', offset: 0, indent: 0, items };
  const doc: CST.Document = { type: 'document', offset: 0, start: [], value: map };
  return [doc];
}

/** Options of the Composer that reads frontmatter (frontmatter-parser.ts), which the builder below must match. */
export interface SimpleComposeOptions {
  prettyErrors: boolean;
  uniqueKeys: boolean;
  version: '1.2';
  keepSourceTokens: boolean;
  logLevel: 'error';
}

/**
 * Longest key the builder takes: yaml (strict, as the frontmatter is read) reports a key whose
 * `:` is more than 1024 characters after its start, which the builder leaves to the Composer.
 */
const MAX_KEY = 1000;

/** The flow scalar node yaml's Composer makes of a one-line token, or null when it would not be a string. */
function scalarNode(
  schema: Document.Parsed['schema'],
  token: CST.FlowScalar,
  atKey: boolean,
): Scalar | null {
  const { type, offset, source } = token;
  let value = source;
  let nodeType: Scalar.Type = Scalar.PLAIN;
  if (type === 'scalar') {
    // The same test yaml's Composer runs (findScalarTagByTest): a plain scalar another tag claims
    // (null, a boolean, a number) is left to the Composer; every other one is a string, as is.
    for (const tag of schema.tags)
      if ((tag.default === true || (atKey && tag.default === 'key')) && tag.test?.test(source))
        return null;
  } else {
    // The subset's quoted scalars hold no escapes, inner quotes or line breaks.
    value = source.slice(1, -1);
    nodeType = type === 'double-quoted-scalar' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE;
  }
  const node = new Scalar(value);
  const valueEnd = offset + source.length;
  let end = valueEnd;
  for (const t of token.end ?? []) end += t.source.length;
  node.range = [offset, valueEnd, end];
  node.source = value;
  node.type = nodeType;
  return node;
}

/** The map yaml's Composer makes of a subset block map (resolveBlockMap), or null (see scalarNode). */
function mapNode(schema: Document.Parsed['schema'], bm: CST.BlockMap): YAMLMap | null {
  const map = new YAMLMap(schema);
  let offset = bm.offset;
  for (const item of bm.items) {
    const key = item.key as CST.FlowScalar;
    if (key.source.length > MAX_KEY) return null;
    const keyNode = scalarNode(schema, key, true);
    if (!keyNode) return null;
    const value = item.value as CST.FlowScalar | CST.BlockMap;
    const valueNode =
      value.type === 'block-map' ? mapNode(schema, value) : scalarNode(schema, value, false);
    if (!valueNode) return null;
    offset = valueNode.range?.[2] ?? offset;
    map.items.push(new Pair(keyNode, valueNode));
  }
  map.range = [bm.offset, offset, offset];
  return map;
}

/**
 * The directives a Composer made with these options starts with. Why a Composer: the Document is
 * made as the Composer makes it, with the Composer's directives (yaml does not export the class)
 * in its options, as composeDoc passes them. Why one per options object: each Document copies
 * them (`atDocument`) and nothing here changes them, and making a Composer per frontmatter showed
 * in the profile of a whole-library check.
 */
function directivesFor(options: SimpleComposeOptions): unknown {
  let directives = DIRECTIVES.get(options);
  if (directives === undefined) {
    directives = (new Composer(options) as unknown as { directives: object }).directives;
    DIRECTIVES.set(options, directives);
  }
  return directives;
}
const DIRECTIVES = new WeakMap<SimpleComposeOptions, object>();

/**
 * The Document yaml's Composer makes of tokens from {@link simpleYamlTokens}, built directly.
 * Why: for a handful of `key: value` lines the Composer's general path (properties, tags,
 * anchors, comments and checks for every node) was half of reading the frontmatter, and most of
 * a skill check's time in a process that has not warmed up. Null when a plain value is not a
 * string (a number, a boolean, null) or a key is very long: the caller composes those. The
 * result equals the Composer's, object for object (simple-yaml-tokens.test.ts).
 */
export function simpleYamlDocument(
  tokens: readonly CST.Token[],
  options: SimpleComposeOptions,
): Document.Parsed | null {
  const token = tokens[0];
  if (tokens.length !== 1 || token?.type !== 'document' || token.value?.type !== 'block-map')
    return null;
  const doc = new Document(undefined, {
    _directives: directivesFor(options),
    ...options,
  } as DocumentOptions) as Document.Parsed;
  const map = mapNode(doc.schema, token.value);
  if (!map) return null;
  doc.contents = map as unknown as Document.Parsed['contents'];
  const end = map.range?.[2] ?? 0;
  doc.range = [token.offset, end, end];
  BUILT.add(doc);
  return doc;
}

/** Documents {@link simpleYamlDocument} made: string scalars in maps, nothing else. */
const BUILT = new WeakSet<Document.Parsed>();

/**
 * The plain data of a Document {@link simpleYamlDocument} made, as yaml's `toJS` makes it, or
 * undefined for any other Document (or one whose nodes were replaced since by anything but string
 * scalars and maps). Why: yaml's general conversion (a context, alias and merge-key checks, key
 * stringifying for every pair) was a quarter of reading a plain frontmatter. As yaml's
 * addPairToJSMap does, a key already on the object or its prototype is defined as an own
 * property, so `__proto__` or `toString` is a key like any other and a repeated key keeps its
 * first place with its last value.
 */
export function simpleYamlData(doc: Document.Parsed): Record<string, unknown> | undefined {
  return BUILT.has(doc) ? mapData(doc.contents) : undefined;
}

function mapData(node: unknown): Record<string, unknown> | undefined {
  if (!isMap(node)) return undefined;
  const out: Record<string, unknown> = {};
  for (const { key, value } of node.items) {
    if (!isScalar(key) || typeof key.value !== 'string') return undefined;
    const data = isScalar(value) && typeof value.value === 'string' ? value.value : mapData(value);
    if (data === undefined) return undefined;
    if (key.value in out)
      Object.defineProperty(out, key.value, {
        value: data,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else out[key.value] = data;
  }
  return out;
}
