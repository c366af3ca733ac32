/** A YAML double-quoted scalar for `value`, escaping backslash, quote and control characters (YAML 1.2 §5.7). */
export function quoteYamlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f || c === 0x85 || c === 0xfeff || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else out += ch;
  }
  return out + '"';
}

const PLAIN_SAFE = /^[a-z0-9][a-z0-9-]*$/;
const LOOKS_TYPED = /^(?:[-+]?[0-9][0-9_.:eE+-]*|[yY]|[nN]|yes|no|on|off|true|false|null)$/i;

/** The value as a plain scalar when that is unambiguous (simple kebab-case words), quoted otherwise. */
export function yamlScalarText(value: string): string {
  return PLAIN_SAFE.test(value) && !LOOKS_TYPED.test(value) ? value : quoteYamlString(value);
}

/** Any value as display text: strings as they are, objects and lists as JSON. */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Number of Unicode code points (not UTF-16 units) in `s`. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
