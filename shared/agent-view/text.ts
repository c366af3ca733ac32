/**
 * Text measures for what an agent holds in context: UTF-8 bytes and a token estimate, the one
 * the body rule uses (shared/skill/limits.ts `estimateTokens`).
 */
import { estimateTokens, utf8Length } from '../skill/limits';

export { CHARS_PER_TOKEN, estimateTokens } from '../skill/limits';

/** Bytes and estimated tokens of a text. */
export interface Measure {
  bytes: number;
  tokens: number;
}

/** UTF-8 bytes and estimated tokens of a text. */
export function measure(text: string): Measure {
  return { bytes: utf8Length(text), tokens: estimateTokens(text) };
}

/** Add measures. */
export function addMeasures(items: readonly Measure[]): Measure {
  let bytes = 0;
  let tokens = 0;
  for (const m of items) {
    bytes += m.bytes;
    tokens += m.tokens;
  }
  return { bytes, tokens };
}

/** Escape text for an XML element's content (and attribute values): `&`, `<`, `>`, `"`, `'`. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Characters XML 1.0 cannot hold at all, even escaped (C0 controls other than tab, line feed
 * and carriage return, lone surrogates, U+FFFE/U+FFFF). They are replaced by U+FFFD so that the
 * block stays well-formed; a name or description carrying one is worth a finding elsewhere.
 */
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Characters XML may hold but a terminal or a reader would not show as they are: carriage
 * return, DEL, C1 controls, invisible format characters (bidi overrides, zero-width, BOM) and
 * line/paragraph separators. They are written as character references (`&#x202E;`), which mean
 * the same character to an XML reader, so the block can be printed and pasted safely.
 */
const XML_INVISIBLE = /[\r\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/** Text made safe for an XML element: forbidden characters replaced, then escaped. */
export function xmlText(text: string): string {
  return escapeXml(text.replace(XML_FORBIDDEN, '\uFFFD')).replace(
    XML_INVISIBLE,
    (c) => `&#x${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()};`,
  );
}
