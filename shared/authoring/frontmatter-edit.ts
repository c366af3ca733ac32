import { Document, isAlias, isMap, isScalar, isSeq, Scalar, visit, YAMLMap } from 'yaml';
import type { Node as YamlNode, Pair } from 'yaml';
import { parseSkill } from '../skill';
import type { ParsedSkill } from '../skill';
import { isJsonObject, jsonEqual } from '../json/values';

/** Whether the form view may edit a SKILL.md's frontmatter; when not, a plain sentence saying why. */
export type FrontmatterEditCheck = { ok: true } | { ok: false; reason: string };

/**
 * Edits are computed with the `yaml` Document API (a one-pair document renders the new value with
 * YAML's own quoting rules) and spliced into the original text at the node ranges the parser
 * reports. Everything outside the edited pair is kept byte for byte: comments, blank lines, key
 * order, quoting, indentation, line endings, the BOM and the body. Re-stringifying the whole document would
 * normalise untouched lines (indentation, flow padding, folded scalars), so it is only the
 * fallback for shapes the splice cannot address (a flow-style `{...}` frontmatter, explicit `?` keys).
 */
const STRINGIFY = { lineWidth: 0, minContentWidth: 0 } as const;

interface Layout {
  eol: string;
  indent: number;
  indentSeq: boolean;
}

interface Editable {
  parsed: ParsedSkill;
  /** Offset of the YAML text inside the original text. */
  base: number;
  raw: string;
  doc: Document.Parsed;
  layout: Layout;
}

type Plain = Record<string, unknown>;

/** The first line break in the text, or `\n` when there is none. */
function firstLineBreak(text: string): string {
  const m = /\r\n|\r|\n/.exec(text);
  return m ? m[0] : '\n';
}

/** Indentation habits of the user's YAML, so a rewritten nested value looks like its neighbours. */
function detectLayout(raw: string, text: string): Layout {
  const eol = firstLineBreak(raw.length > 0 ? raw : text);
  let indent = 2;
  let indentSeq = true;
  const nested = /^([A-Za-z0-9_"'-][^\r\n:]*):[ \t]*(?:#[^\r\n]*)?\r?\n( +)(- )?\S/m.exec(raw);
  if (nested) indent = Math.max(1, Math.min(8, nested[2].length));
  const seqAtZero = /^[^\s#-][^\r\n:]*:[ \t]*\r?\n- /m.test(raw);
  if (seqAtZero) indentSeq = false;
  return { eol, indent, indentSeq };
}

/** Plain reason for the first YAML parser error, with its line in the SKILL.md. */
function yamlErrorReason(parsed: ParsedSkill): string {
  const err = parsed.yamlErrors[0];
  const line = parsed.positionAt(err.start).line;
  if (err.code === 'DUPLICATE_KEY') {
    return `A field appears twice in the frontmatter (line ${line}). Remove one of them in the text view, then the form can edit the fields.`;
  }
  if (err.code === 'LIMIT_EXCEEDED') {
    // Past a bound of VALIDATION_LIMITS the YAML was not read at all (shared/skill/limits.ts).
    return 'The frontmatter is too large or too deeply nested to be read, so the form cannot show it. Edit it in the text view.';
  }
  return `The frontmatter is not valid YAML (line ${line}: ${err.message}). Fix it in the text view first, then the form can edit the fields.`;
}

/** Parse and decide whether the frontmatter can be edited; `null` editable means "no frontmatter yet". */
function prepare(text: string): {
  check: FrontmatterEditCheck;
  editable: Editable | null;
  parsed: ParsedSkill;
} {
  const parsed = parseSkill(text);
  const fm = parsed.frontmatter;
  if (!fm) return { check: { ok: true }, editable: null, parsed };
  if (fm.closer === null) {
    return {
      check: {
        ok: false,
        reason:
          'The frontmatter has no closing --- line, so the form cannot tell where the fields end. Add a line with --- after the last field in the text view.',
      },
      editable: null,
      parsed,
    };
  }
  if (parsed.repairs.length > 0) {
    const key = parsed.repairs[0].key;
    return {
      check: {
        ok: false,
        reason: `The value of "${key}" has a colon followed by a space, which YAML reads as a new field. Put the value in quotes (the text view has the same fix), then the form can edit the fields.`,
      },
      editable: null,
      parsed,
    };
  }
  if (parsed.yamlErrors.length > 0 || !parsed.document) {
    return {
      check: {
        ok: false,
        reason:
          parsed.yamlErrors.length > 0
            ? yamlErrorReason(parsed)
            : 'The frontmatter could not be read. Fix it in the text view first.',
      },
      editable: null,
      parsed,
    };
  }
  const contents = parsed.document.contents;
  if (contents !== null && !isMap(contents) && !(isScalar(contents) && contents.value === null)) {
    const what = isSeq(contents) ? 'a list' : 'a single value';
    return {
      check: {
        ok: false,
        reason: `The frontmatter must be a set of fields (one "name: value" per line), but it is ${what}. Fix it in the text view first.`,
      },
      editable: null,
      parsed,
    };
  }
  if (usesAnchors(parsed.document)) {
    return {
      check: {
        ok: false,
        reason:
          'The frontmatter reuses values with YAML anchors (&name) and aliases (*name), so changing one field could silently change another. Edit these fields in the text view.',
      },
      editable: null,
      parsed,
    };
  }
  return {
    check: { ok: true },
    editable: {
      parsed,
      base: fm.contentStart,
      raw: fm.raw,
      doc: parsed.document,
      layout: detectLayout(fm.raw, text),
    },
    parsed,
  };
}

/** True when any node carries an anchor or is an alias: an edit there would change other fields too. */
function usesAnchors(doc: Document.Parsed): boolean {
  let found = false;
  visit(doc, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
    Node(_key, node) {
      if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Whether the form can edit this SKILL.md's frontmatter, with a plain-language reason when it cannot. */
export function canEditFrontmatter(text: string): FrontmatterEditCheck {
  return prepare(text).check;
}

/** The frontmatter as plain data for the form's initial values (empty when there is none or it is not a mapping). */
export function readFrontmatterFields(text: string): Record<string, unknown> {
  const data = parseSkill(text).data;
  return isJsonObject(data) ? data : {};
}

/** Style hints carried from the value being replaced to the new one. */
interface StyleHint {
  scalarType?: Scalar.Type;
  flow?: boolean;
  comment?: string;
  flowPadding?: boolean;
  /** Indentation of the old block value relative to its key. */
  indent?: number;
  indentSeq?: boolean;
}

/** Render `key: value` as YAML with the Document API (no folding), `\n` line breaks. */
function renderPair(key: string, value: unknown, layout: Layout, hint: StyleHint): string {
  const doc = new Document(null, { version: '1.2' });
  const pair = doc.createPair<YamlNode, YamlNode>(key, value);
  const node = pair.value;
  if (hint.scalarType && isScalar(node) && typeof node.value === 'string') {
    // A plain scalar cannot span lines without changing its meaning to a reader skimming the
    // file; let YAML pick a block scalar for multi-line text instead.
    const multiLine = node.value.includes('\n');
    if (!(multiLine && hint.scalarType === Scalar.PLAIN)) node.type = hint.scalarType;
  }
  if (hint.flow !== undefined && (isMap(node) || isSeq(node))) node.flow = hint.flow;
  if (hint.comment !== undefined && node) node.comment = hint.comment;
  const map = new YAMLMap();
  map.items.push(pair);
  doc.contents = map;
  return doc.toString({
    ...STRINGIFY,
    indent: hint.indent ?? layout.indent,
    indentSeq: hint.indentSeq ?? layout.indentSeq,
    flowCollectionPadding: hint.flowPadding ?? false,
  });
}

/** Prefix every non-empty line after the first with `pad` and use the file's line break. */
function placeText(rendered: string, pad: string, eol: string): string {
  const lines = rendered.split('\n');
  return lines.map((l, i) => (i === 0 || l === '' ? l : pad + l)).join(eol);
}

/** The end of a pair in `raw`: after the line break that ends its value (trailing comment included). */
function pairEnd(raw: string, pair: Pair<YamlNode, YamlNode | null>): number {
  const valueRange = pair.value?.range ?? pair.key?.range;
  if (!valueRange) return raw.length;
  const end = valueRange[1];
  if (end > 0 && (raw[end - 1] === '\n' || raw[end - 1] === '\r')) {
    return raw[end - 1] === '\r' && raw[end] === '\n' ? end + 1 : end;
  }
  let i = end;
  while (i < raw.length && raw[i] !== '\n' && raw[i] !== '\r') i++;
  if (raw[i] === '\r' && raw[i + 1] === '\n') return i + 2;
  return i < raw.length ? i + 1 : i;
}

/** Start of the line holding `offset`. */
function lineStartOf(raw: string, offset: number): number {
  let i = offset;
  while (i > 0 && raw[i - 1] !== '\n' && raw[i - 1] !== '\r') i--;
  return i;
}

function findPair(map: YAMLMap, key: string): Pair<YamlNode, YamlNode | null> | undefined {
  return (map.items as Pair<YamlNode, YamlNode | null>[]).find(
    (p) => isScalar(p.key) && String(p.key.value) === key && typeof p.key.value === 'string',
  );
}

/** The key sits alone at the start of its line (`  key: ...`), which the splice relies on. */
function keyStartsLine(raw: string, pair: Pair<YamlNode, YamlNode | null>): boolean {
  const r = pair.key?.range;
  if (!r) return false;
  const ls = lineStartOf(raw, r[0]);
  return /^[ ]*$/.test(raw.slice(ls, r[0]));
}

/** Column of `offset` (spaces from its line start). */
function columnOf(raw: string, offset: number): number {
  return offset - lineStartOf(raw, offset);
}

/** Style of the value being replaced, so the new value looks the same where it still can. */
function hintOf(
  raw: string,
  keyColumn: number,
  node: YamlNode | null,
  keepComment: boolean,
): StyleHint {
  if (!node?.range) return {};
  const start = node.range[0];
  if (isScalar(node)) {
    const hint: StyleHint = {
      scalarType: node.type,
      comment: keepComment ? (node.comment ?? undefined) : undefined,
    };
    if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) {
      const body = /\r?\n( *)\S/.exec(raw.slice(start, node.range[1]));
      if (body && body[1].length > keyColumn) hint.indent = body[1].length - keyColumn;
    }
    return hint;
  }
  if (isMap(node) || isSeq(node)) {
    const hint: StyleHint = {
      flow: Boolean(node.flow),
      flowPadding: /^[[{] /.test(raw.slice(start, start + 2)),
    };
    if (!node.flow) {
      const offset = columnOf(raw, start) - keyColumn;
      if (isSeq(node)) {
        // yaml's `indentSeq: false` puts the dashes two columns left of `indent`.
        hint.indentSeq = offset > 0;
        hint.indent = offset > 0 ? offset : 2;
      } else if (offset > 0) hint.indent = offset;
    }
    return hint;
  }
  return {};
}

/** Splice one pair of a block mapping; null when the mapping's shape needs the fallback. */
function editBlockMap(ed: Editable, map: YAMLMap, key: string, value: unknown): string | null {
  const { raw, layout } = ed;
  const items = map.items as Pair<YamlNode, YamlNode | null>[];
  if (map.flow || !items.every((p) => keyStartsLine(raw, p))) return null;
  const pair = findPair(map, key);
  let start: number;
  let end: number;
  let insert: string;
  if (pair) {
    const keyRange = pair.key.range;
    if (!keyRange) return null;
    const node = pair.value;
    if (value === undefined) {
      start = lineStartOf(raw, keyRange[0]);
      end = pairEnd(raw, pair);
      insert = '';
    } else {
      const pad = raw.slice(lineStartOf(raw, keyRange[0]), keyRange[0]);
      const vr = node?.range;
      const inlineOld =
        node &&
        vr &&
        vr[1] > vr[0] &&
        !/[\r\n]/.test(raw.slice(keyRange[1], vr[0])) &&
        ((isScalar(node) &&
          (node.type === Scalar.PLAIN ||
            node.type === Scalar.QUOTE_DOUBLE ||
            node.type === Scalar.QUOTE_SINGLE)) ||
          ((isMap(node) || isSeq(node)) && node.flow) ||
          isAlias(node));
      const keyColumn = pad.length;
      const inlineRendered = renderPair('k', value, layout, hintOf(raw, keyColumn, node, false));
      const m = /^k: ([^\n]*)\n$/.exec(inlineRendered);
      if (inlineOld && m) {
        // Same-line value replaced by a same-line value: only the value's own characters change,
        // so a trailing `# comment` and the spacing around it stay as written.
        start = vr[0];
        end = vr[1];
        insert = m[1];
      } else {
        const rendered = renderPair('k', value, layout, hintOf(raw, keyColumn, node, true));
        start = keyRange[1];
        end = pairEnd(raw, pair);
        insert = placeText(rendered.slice(1), pad, layout.eol);
      }
    }
  } else {
    if (value === undefined) return raw;
    const last = items[items.length - 1];
    const pad = last?.key?.range
      ? raw.slice(lineStartOf(raw, last.key.range[0]), last.key.range[0])
      : '';
    start = end = last ? pairEnd(raw, last) : raw.length;
    const rendered = renderPair(key, value, layout, {});
    insert = pad + placeText(rendered, pad, layout.eol);
    // The last line of the mapping may end without a line break (only inside nested mappings).
    if (start > 0 && raw[start - 1] !== '\n' && raw[start - 1] !== '\r')
      insert = layout.eol + insert;
  }
  return raw.slice(0, start) + insert + raw.slice(end);
}

/** Whole-document fallback with the Document API for frontmatter shapes the splice cannot address. */
function restringify(ed: Editable, path: string[], value: unknown): string {
  const doc = ed.doc.clone();
  if (value === undefined) doc.deleteIn(path);
  else doc.setIn(path, doc.createNode(value));
  const out = doc.toString({
    ...STRINGIFY,
    indent: ed.layout.indent,
    indentSeq: ed.layout.indentSeq,
  });
  return out.replace(/\n/g, ed.layout.eol);
}

/** Replace the YAML text of the frontmatter inside the whole SKILL.md. */
function withRaw(ed: Editable, newRaw: string): string {
  const text = ed.parsed.text;
  return text.slice(0, ed.base) + newRaw + text.slice(ed.base + ed.raw.length);
}

/** Check that an edit reads back as intended; a wrong splice must never reach the user's file. */
function readsBack(text: string, path: string[], value: unknown, before: Plain): boolean {
  const parsed = parseSkill(text);
  if (parsed.yamlErrors.length > 0 || parsed.repairs.length > 0) return false;
  const after = isJsonObject(parsed.data) ? parsed.data : {};
  const expected: Plain = structuredCloneData(before);
  if (path.length === 1) {
    if (value === undefined) delete expected[path[0]];
    else defineData(expected, path[0], normalise(value));
  } else {
    const parent = expected[path[0]];
    const inner: Plain = isJsonObject(parent) ? parent : {};
    if (value === undefined) delete inner[path[1]];
    else defineData(inner, path[1], normalise(value));
    // Removing the last metadata entry removes the whole mapping (see setMetadataEntry).
    if (Object.keys(inner).length === 0) delete expected[path[0]];
    else defineData(expected, path[0], inner);
  }
  return jsonEqual(after, expected);
}

/** Set an own data property, even for keys such as `__proto__` that plain assignment would treat specially. */
function defineData(target: Plain, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A deep copy of plain YAML data. */
function structuredCloneData(v: Plain): Plain {
  return normalise(v) as Plain;
}

/** The value as YAML would give it back: `undefined` entries dropped, own keys only. */
function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : normalise(x)));
  if (isJsonObject(v)) {
    const out: Plain = {};
    for (const k of Object.keys(v)) {
      if (v[k] !== undefined) defineData(out, k, normalise(v[k]));
    }
    return out;
  }
  return v;
}

/** Add a new frontmatter block at the top of a SKILL.md that has none (after a BOM, if any). */
function createFrontmatter(text: string, key: string, value: unknown): string {
  const eol = firstLineBreak(text);
  const at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const rendered = renderPair(key, value, { eol, indent: 2, indentSeq: true }, {});
  return (
    text.slice(0, at) + '---' + eol + placeText(rendered, '', eol) + '---' + eol + text.slice(at)
  );
}

/** Apply an edit at `path` (one or two keys) with the splice, the self-check and the fallback. */
function edit(text: string, path: string[], value: unknown): string {
  const { check, editable: ed, parsed } = prepare(text);
  if (!check.ok) return text;
  if (!ed)
    return value === undefined
      ? text
      : createFrontmatter(
          text,
          path[0],
          path.length === 1 ? value : Object.fromEntries([[path[1], value]]),
        );
  const before = isJsonObject(parsed.data) ? parsed.data : {};
  const contents = ed.doc.contents;
  let candidate: string | null = null;
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    if (value === undefined) return text;
    const topValue = path.length === 1 ? value : Object.fromEntries([[path[1], value]]);
    const rendered = renderPair(path[0], topValue, ed.layout, {});
    const sep = ed.raw.length > 0 && !/[\r\n]$/.test(ed.raw) ? ed.layout.eol : '';
    candidate = withRaw(ed, ed.raw + sep + placeText(rendered, '', ed.layout.eol));
  } else if (isMap(contents)) {
    const newRaw =
      path.length === 1
        ? editBlockMap(ed, contents, path[0], value)
        : editNested(ed, contents, path[0], path[1], value, before);
    if (newRaw !== null) candidate = withRaw(ed, newRaw);
  }
  if (candidate !== null && readsBack(candidate, path, value, before)) return candidate;
  try {
    const fallback = withRaw(ed, restringify(ed, path, value));
    return readsBack(fallback, path, value, before) ? fallback : text;
  } catch {
    // The Document API refuses some shapes (for example an alias left without its anchor);
    // the user's text is worth more than the edit.
    return text;
  }
}

/** Edit `parent.key` inside a nested block mapping, or rewrite the parent when it is not one. */
function editNested(
  ed: Editable,
  top: YAMLMap,
  parent: string,
  key: string,
  value: unknown,
  before: Plain,
): string | null {
  const pair = findPair(top, parent);
  const node = pair?.value ?? null;
  if (pair && isMap(node) && !node.flow && node.items.length > 0) {
    const remaining = node.items.filter((p) => !(isScalar(p.key) && p.key.value === key)).length;
    if (value === undefined && remaining === 0) return editBlockMap(ed, top, parent, undefined);
    return editBlockMap(ed, node, key, value);
  }
  const current = before[parent];
  const next: Plain = isJsonObject(current) ? (normalise(current) as Plain) : {};
  if (value === undefined) delete next[key];
  else defineData(next, key, value);
  return editBlockMap(ed, top, parent, Object.keys(next).length > 0 ? next : undefined);
}

/**
 * Set (or with `undefined`, remove) one top-level frontmatter field. Returns the text unchanged
 * when the frontmatter cannot be edited (see `canEditFrontmatter`) or the value is already set.
 */
export function setFrontmatterField(text: string, key: string, value: unknown): string {
  const current = readFrontmatterFields(text);
  if (
    value !== undefined &&
    Object.prototype.hasOwnProperty.call(current, key) &&
    jsonEqual(current[key], normalise(value))
  )
    return text;
  return edit(text, [key], value);
}

/** Set (or with `undefined`, remove) one entry of the `metadata` mapping; removing the last entry removes `metadata`. */
export function setMetadataEntry(text: string, key: string, value: string | undefined): string {
  const meta = readFrontmatterFields(text).metadata;
  if (
    isJsonObject(meta) &&
    value !== undefined &&
    Object.prototype.hasOwnProperty.call(meta, key) &&
    meta[key] === value
  )
    return text;
  return edit(text, ['metadata', key], value);
}
