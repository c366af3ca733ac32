import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Pair, YAMLMap } from 'yaml';
import { PROFILE_VALIDATORS } from '../schemas/validators';
import type { AjvError } from '../schemas/validators';
import type { RuleContext } from './rule-context';
import { pointerSegment } from './rule-context';
import { count } from '../text/words';

/** Split a JSON pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Per mapping, its first pair for each key text (what `nodeAtPointer` looks up). */
export type PairIndex = WeakMap<YAMLMap, Map<string, Pair>>;

function pairFor(map: YAMLMap, seg: string, index?: PairIndex): Pair | undefined {
  if (!index)
    return map.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === seg);
  let byKey = index.get(map);
  if (!byKey) {
    byKey = new Map();
    for (const p of map.items)
      if (isPair(p) && isScalar(p.key)) {
        const k = String(p.key.value);
        if (!byKey.has(k)) byKey.set(k, p);
      }
    index.set(map, byKey);
  }
  return byKey.get(seg);
}

/**
 * The YAML node (and its pair, for map entries) at a JSON pointer. Pass one `index` for many
 * look-ups in the same document: each mapping is then searched by a hash map built once, not
 * item by item per look-up (quadratic for a schema error on each of thousands of keys).
 */
export function nodeAtPointer(
  doc: Document.Parsed,
  pointer: string,
  index?: PairIndex,
): { node: unknown; pair: Pair | null } | null {
  let node: unknown = doc.contents;
  let pair: Pair | null = null;
  for (const seg of pointerSegments(pointer)) {
    if (isMap(node)) {
      const found = pairFor(node, seg, index);
      if (!found) return null;
      pair = found;
      node = found.value;
    } else if (isSeq(node)) {
      const i = Number(seg);
      if (!Number.isInteger(i) || i < 0 || i >= node.items.length) return null;
      pair = null;
      node = node.items[i];
    } else return null;
  }
  return { node, pair };
}

/** Human field name for a pointer: `tools[0].name`. */
export function fieldName(pointer: string): string {
  return pointerSegments(pointer).reduce(
    (acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s),
    '',
  );
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  array: 'a list',
  object: 'a group of fields',
  boolean: 'true or false',
  number: 'a number',
  integer: 'a whole number',
  null: 'empty',
};

function typeWords(t: unknown): string {
  const list = Array.isArray(t) ? t : [t];
  return list.map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ');
}

/** The pointer an ajv error is about (for required/additionalProperties: the property itself). */
function errorPointer(e: AjvError): string {
  const p = e.params;
  const extra = p['missingProperty'] ?? p['additionalProperty'] ?? p['propertyName'];
  return typeof extra === 'string' ? `${e.instancePath}/${pointerSegment(extra)}` : e.instancePath;
}

function plainMessage(e: AjvError, field: string): string {
  const p = e.params;
  const f = field ? `"${field}"` : 'The frontmatter';
  switch (e.keyword) {
    case 'required':
      return `The field "${field}" is required. Add it.`;
    case 'additionalProperties':
      return `The field "${field}" is not allowed here.`;
    case 'type':
      return `${f} should be ${typeWords(p['type'])}.`;
    case 'enum':
      return `${f} must be one of: ${(p['allowedValues'] as unknown[] | undefined)?.map(String).join(', ') ?? ''}.`;
    case 'const':
      return `${f} must be "${String(p['allowedValue'])}".`;
    case 'pattern':
      return `The value of ${f} does not have the expected form.`;
    case 'maxLength':
      return `${f} is too long: at most ${String(p['limit'])} characters.`;
    case 'minLength':
      return `${f} must not be empty.`;
    case 'minItems':
      return `The list ${f} needs at least ${count(Number(p['limit']), 'item')}.`;
    case 'propertyNames':
      return `The name "${String(p['propertyName'])}" is not allowed here.`;
    case 'anyOf':
    case 'oneOf':
      return `${f} does not have an allowed form.`;
    case 'not':
      return `The value of ${f} is not allowed.`;
    default:
      return `${f} does not match the profile: ${e.message ?? e.keyword}.`;
  }
}

/**
 * Whether a hand rule already reported on `ptr`, on a field inside it, or on a field it is
 * inside (the root `''` covers everything). Why sets: comparing every schema error with every
 * hand-reported pointer was quadratic (thousands of unexpected keys, each reported by both).
 */
function handCoverage(reported: ReadonlySet<string>): (ptr: string) => boolean {
  if (reported.has('')) return () => true;
  // Every proper ancestor of a reported pointer: `ptr` there means a report inside `ptr`.
  const ancestors = new Set<string>();
  for (const h of reported) {
    for (let i = h.lastIndexOf('/'); i >= 0; i = h.lastIndexOf('/', i - 1)) {
      const up = h.slice(0, i);
      if (ancestors.has(up)) break;
      ancestors.add(up);
      if (i === 0) break;
    }
  }
  return (ptr) => {
    if (reported.has(ptr) || ancestors.has(ptr)) return true;
    // A report on a proper ancestor of `ptr`.
    for (let i = ptr.lastIndexOf('/'); i > 0; i = ptr.lastIndexOf('/', i - 1))
      if (reported.has(ptr.slice(0, i))) return true;
    return false;
  };
}

/**
 * Validate the frontmatter data with the profile's precompiled JSON Schema and report what no
 * hand rule already reported (the same fault is reported once: hand rules win).
 */
export function schemaRule(ctx: RuleContext): void {
  const doc = ctx.parsed.document;
  if (
    !ctx.on('schema/invalid') ||
    !doc ||
    !ctx.data ||
    ctx.parsed.yamlErrors.some((e) => e.code === 'TO_JS')
  )
    return;
  const validate = PROFILE_VALIDATORS[ctx.profile];
  // The data as the profile's reader types it (docs/skill-format.md §2).
  if (validate(ctx.readerData ?? ctx.data)) return;
  const errors = validate.errors ?? [];
  const covered = handCoverage(ctx.reported);
  const byPointer = new Map<string, AjvError>();
  for (const e of errors) {
    // Errors inside an anyOf/oneOf branch are summarised by the combinator's own error.
    if (/\/(?:anyOf|oneOf)\/\d+\//.test(e.schemaPath)) continue;
    const ptr = errorPointer(e);
    if (covered(ptr)) continue;
    if (!byPointer.has(ptr)) byPointer.set(ptr, e);
  }
  const index: PairIndex = new WeakMap();
  for (const [ptr, e] of byPointer) {
    const field = fieldName(ptr);
    let span: { start: number; end: number } | null = null;
    if (e.keyword === 'required') {
      const parent = nodeAtPointer(doc, e.instancePath, index);
      span =
        e.instancePath && parent
          ? parent.pair
            ? ctx.parsed.nodeSpan(parent.pair.key)
            : ctx.parsed.nodeSpan(parent.node)
          : null;
    } else {
      const at = nodeAtPointer(doc, ptr, index);
      if (at) {
        span =
          e.keyword === 'additionalProperties' || e.keyword === 'propertyNames'
            ? ctx.parsed.nodeSpan(at.pair?.key)
            : ctx.parsed.nodeSpan(at.node);
        if ((!span || span.end === span.start) && at.pair) span = ctx.parsed.nodeSpan(at.pair.key);
      }
    }
    const fm = ctx.parsed.frontmatter;
    span ??= fm ? { start: fm.openStart, end: fm.openEnd } : { start: 0, end: 0 };
    ctx.report('schema/invalid', {
      message: plainMessage(e, field),
      detail: `${ctx.profile}.schema.json ${e.schemaPath}: ${ptr || '/'} ${e.message ?? e.keyword}${e.keyword === 'pattern' ? ` (${String(e.params['pattern'])})` : ''}`,
      ...span,
      pointer: ptr,
    });
  }
}
