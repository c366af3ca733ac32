/**
 * What Gemini CLI's and OpenCode's readings share, both agents being JavaScript: how js-yaml,
 * their YAML reader (js-yaml 4; js-yaml 3 under gray-matter), reads a frontmatter field where
 * Skillbench's YAML reader (`yaml`) reads it otherwise; the frontmatter block both cut out with
 * the same pattern; and the one pass that stands in for their `^KEY:\s*(.*)$` line patterns.
 */
import { isAlias, isMap, isScalar, type Document } from 'yaml';

/**
 * js-yaml reads a plain date (`2024-01-01`, with a time too) as a date, not text; the YAML
 * reader here reads it as text.
 */
const JS_YAML_DATE =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

/** A top-level field as js-yaml gives it: text, absent (or null), or a value of another kind. */
export type JsYamlField = { text: string } | 'absent' | 'other';

/**
 * Field `key` of a frontmatter document as js-yaml reads it. With `merge` (js-yaml 3's default
 * schema), a key missing at the top is taken from a `<<:` map.
 */
export function jsYamlField(
  doc: Document.Parsed,
  key: string,
  options: { merge?: boolean; nullIsAbsent?: boolean } = {},
): JsYamlField {
  let found: unknown = doc.get(key, true);
  if (found === undefined && options.merge) {
    const merged: unknown = doc.get('<<', true);
    const source = isAlias(merged) ? merged.resolve(doc) : merged;
    if (isMap(source)) found = source.get(key, true);
  }
  if (found === undefined) return 'absent';
  // Why resolved: js-yaml reads `name: *a` as the text the anchor names.
  const node = isAlias(found) ? found.resolve(doc) : found;
  if (!isScalar(node)) return 'other';
  if (node.value === null) return options.nullIsAbsent ? 'absent' : 'other';
  if (typeof node.value !== 'string') return 'other';
  if (node.tag === 'tag:yaml.org,2002:binary') return 'other';
  if (node.type === 'PLAIN' && JS_YAML_DATE.test(node.value)) return 'other';
  return { text: node.value };
}

/**
 * The frontmatter both Gemini CLI and OpenCode's second reading cut out with
 * `^---\r?\n([\s\S]*?)\r?\n---`: from after a first line that is exactly `---` (a `\r` may end
 * it) to the first later line that starts with `---`; its offsets in `text`, or null.
 */
export function dashBlock(text: string): { start: number; end: number } | null {
  const start = text.startsWith('---\n') ? 4 : text.startsWith('---\r\n') ? 5 : -1;
  if (start === -1) return null;
  // Why after the opening line's break: `---` right below `---` does not close (the closing
  // line needs a line break of its own), so an empty frontmatter needs a blank line.
  const close = /\r?\n---/.exec(text.slice(start));
  return close === null ? null : { start, end: start + close.index };
}

/** A character that ends a line for a JavaScript regular expression's `.` (it does not match it). */
const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * What a pattern `:\s*(.*)$` captures of `rest` (the text right after a key's colon), trimmed;
 * undefined when it does not match. Why not that pattern: on a long run of spaces followed by a
 * line separator it backtracks in quadratic time. `\s*` may take line separators and `(.*)` may
 * not, so it matches only when every separator is in the whitespace right after the colon.
 */
export function afterColon(rest: string): string | undefined {
  const value = rest.trimStart();
  return LINE_END.test(value) ? undefined : value.trim();
}
