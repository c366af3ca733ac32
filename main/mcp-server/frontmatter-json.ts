/**
 * A SKILL.md's frontmatter as the JSON object a skill entry carries (SEP-2640 §3, "the
 * frontmatter as a JSON object, verbatim"), without losing anything on the way.
 *
 * YAML numbers are read into JavaScript numbers (IEEE-754 doubles), which hold integers exactly
 * only up to 2^53 and decimals only to about 17 digits; `JSON.stringify` then writes the
 * double, not what the file says (`12345678901234567890` went out as `12345678901234567000`).
 * Here every number is compared with its source text: when the JSON number denotes the same
 * value as the text (`1.50` and `1.5`, `0x1F` and `31`), it goes out as a number; when it does
 * not, it goes out as a string holding the text as written, and is reported, so the caller can
 * say what a host would read instead (docs/skills-over-mcp.md §3).
 */
import { isMap, isScalar, isSeq } from 'yaml';
import type { ParsedSkill } from '../../shared/skill';
import { isJsonObject } from '../../shared/json/values';

/** A number whose text a JSON number (a double) cannot hold. */
export interface InexactNumber {
  /** Where, as `a.b[2]` (`big`, `metadata.version`). */
  path: string;
  /** The number as the SKILL.md wrote it (what is served, as a string). */
  text: string;
  /** The nearest double: what a reader that parses the text as a number gets. */
  read: number;
}

/** The frontmatter as JSON, with the numbers that could not be kept as numbers. */
export interface FrontmatterJson {
  value: Record<string, unknown>;
  inexact: InexactNumber[];
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const HEX_OR_OCTAL = /^0(?:x[0-9a-fA-F]+|o[0-7]+)$/;

/** A decimal number's exact value in one spelling (digits and a power of ten), or undefined. */
function canonicalDecimal(text: string): string | undefined {
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const fraction = m[3] ?? '';
  let digits = `${m[2]}${fraction}`.replace(/^0+/, '');
  let exponent = Number(m[4] ?? '0') - fraction.length;
  if (digits === '') return '0';
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return `${m[1] === '-' ? '-' : ''}${digits}e${exponent}`;
}

/** Whether the double `value` is exactly the number `text` denotes (YAML 1.2 core notation). */
export function sameNumber(text: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (HEX_OR_OCTAL.test(text)) return Number.isInteger(value) && BigInt(text) === BigInt(value);
  const written = canonicalDecimal(text);
  // Why String(value): JavaScript prints a double in the fewest digits that read back as it, and
  // that is the text JSON.stringify writes.
  return written !== undefined && written === canonicalDecimal(String(value));
}

/** The YAML node of each key of a mapping node (a key that is not a scalar is not found). */
function childNodes(node: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isMap(node)) return out;
  for (const pair of node.items)
    if (isScalar(pair.key) && !out.has(String(pair.key.value)))
      out.set(String(pair.key.value), pair.value);
  return out;
}

/**
 * The frontmatter of `parsed` as JSON, or undefined when it is not a mapping that converts to
 * JSON. The parsed data and the YAML nodes are walked side by side: the data gives the values
 * (aliases already resolved, within the parser's bounds), the nodes their source text.
 */
export function frontmatterJson(parsed: ParsedSkill): FrontmatterJson | undefined {
  if (!isJsonObject(parsed.data)) return undefined;
  const inexact: InexactNumber[] = [];
  const text = parsed.text;
  const convert = (value: unknown, node: unknown, path: string): unknown => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      const span = isScalar(node) && typeof node.value === 'number' ? parsed.nodeSpan(node) : null;
      const source = span ? text.slice(span.start, span.end).trim() : undefined;
      if (source !== undefined && sameNumber(source, value)) return value;
      if (source === undefined && Number.isFinite(value)) return value;
      const written = source ?? String(value);
      inexact.push({ path, text: written, read: value });
      return written;
    }
    if (Array.isArray(value)) {
      const items = isSeq(node) ? node.items : [];
      return value.map((v, i) => convert(v, items[i], `${path}[${i}]`));
    }
    if (isJsonObject(value)) {
      const nodes = childNodes(node);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value))
        if (v !== undefined) out[k] = convert(v, nodes.get(k), path === '' ? k : `${path}.${k}`);
      return out;
    }
    // Anything else YAML could produce (none in the core schema) goes through JSON as before.
    return JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
  };
  try {
    const root = parsed.document?.contents;
    return { value: convert(parsed.data, root, '') as Record<string, unknown>, inexact };
  } catch {
    return undefined;
  }
}
