/**
 * Hidden text: characters an agent reads but a person does not see (docs/safety-review.md,
 * "Hidden text"). Legitimate uses are told apart by their neighbours, never by the language of
 * the text: flag and keycap emoji, emoji joined with ZWJ, joiners in scripts that need them
 * (Persian, Hindi …), bidi controls in right-to-left text, a single variation selector.
 */

/** Invisible characters the review looks at, one regex run per text (linear: a character class). */
// Why surrogate pairs written out: the class must also work on lone code units without /v.
// Why not U+FE0E/U+FE0F: they choose text or emoji presentation and follow emoji everywhere.
/* eslint-disable no-misleading-character-class -- these classes list lone invisible characters on purpose */
const HIDDEN_RUN =
  /(?:[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u202A-\u202E\u2066-\u2069\uFE00-\uFE0D\u3164\u115F\u1160\uFFA0]|\uDB40[\uDC00-\uDDEF])+/g;

/** Quick test whether a text needs the hidden-character pass at all. */
export const HAS_HIDDEN =
  /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u202A-\u202E\u2066-\u2069\uFE00-\uFE0D\u3164\u115F\u1160\uFFA0]|\uDB40[\uDC00-\uDDEF]/;
/* eslint-enable no-misleading-character-class */

/** Scripts written right to left: bidi controls belong there. */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
/** Letters of scripts other than Latin, Greek and Cyrillic, and combining marks: joiners belong there. */
const JOINER_SCRIPT = /[\p{M}]|(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{L}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]/u;
const HAN = /\p{Script=Han}/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** How a hidden character is shown: `⟦U+200B⟧`. */
function codeLabel(cp: number): string {
  return `\u27e6U+${cp.toString(16).toUpperCase().padStart(4, '0')}\u27e7`;
}

/** `text` with every invisible or control character shown as `⟦U+XXXX⟧` (for excerpts). */
export function makeVisible(text: string, max = 240): string {
  const cut = text.length > max ? `${text.slice(0, max)}\u2026` : text;
  return cut.replace(
    // eslint-disable-next-line no-control-regex, no-misleading-character-class -- showing control characters is the point
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\uFE00-\uFE0D\u3164\u115F\u1160\uFFA0\u{E0100}-\u{E01EF}]/gu,
    (c) => codeLabel(c.codePointAt(0) ?? 0),
  );
}

/** The code point just before offset `i` (surrogates joined). */
function cpBefore(text: string, i: number): string {
  if (i <= 0) return '';
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) return text.slice(i - 2, i);
  return text.slice(i - 1, i);
}
/** The code point starting at offset `i`. */
function cpAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** Printable ASCII, else `\xNN`. */
function asciiShown(bytes: number[]): string {
  return bytes
    .map((b) =>
      b >= 0x20 && b < 0x7f
        ? String.fromCharCode(b)
        : b === 10
          ? '\\n'
          : `\\x${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
}
function printableShare(bytes: number[]): number {
  if (bytes.length === 0) return 0;
  return bytes.filter((b) => (b >= 0x20 && b < 0x7f) || b === 10).length / bytes.length;
}

/** Decode zero-width characters used as two binary digits (eight per byte), when that yields text. */
function decodeBinary(cps: number[]): string | undefined {
  const symbols = [...new Set(cps)];
  if (symbols.length !== 2 || cps.length < 16 || cps.length % 8 !== 0) return undefined;
  let best: number[] = [];
  for (const one of symbols) {
    const bytes: number[] = [];
    for (let i = 0; i < cps.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8; j++) b = (b << 1) | (cps[i + j] === one ? 1 : 0);
      bytes.push(b);
    }
    if (printableShare(bytes) > printableShare(best)) best = bytes;
  }
  return printableShare(best) >= 0.8 ? asciiShown(best) : undefined;
}

/** One finding of hidden characters, before the review adds its wording. */
export interface HiddenHit {
  rule:
    | 'hidden/tag-characters'
    | 'hidden/zero-width'
    | 'hidden/bidi-control'
    | 'hidden/variation-selectors';
  severity: 'low' | 'medium' | 'high' | 'critical';
  offset: number;
  length: number;
  detail: string;
  hidden?: string;
}

/** Every hidden-character finding in `text`. `code`: the file is a script (bidi controls never belong). */
export function findHiddenCharacters(text: string, code: boolean): HiddenHit[] {
  if (!HAS_HIDDEN.test(text)) return [];
  const hits: HiddenHit[] = [];
  HIDDEN_RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = HIDDEN_RUN.exec(text)) !== null && hits.length < 200) {
    const run = m[0];
    const start = m.index;
    const cps = [...run].map((c) => c.codePointAt(0) ?? 0);
    const before = cpBefore(text, start);
    const after = cpAt(text, start + run.length);
    const tags = cps.filter((c) => c >= 0xe0000 && c <= 0xe007f);
    const vs = cps.filter((c) => (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef));
    const bidi = cps.filter((c) => (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069));
    const zw = cps.length - tags.length - vs.length - bidi.length;

    if (tags.length > 0) {
      // Why: 🏴 + tag letters + CANCEL TAG is a subdivision flag (England, Scotland, Wales).
      const flag =
        before === '\u{1F3F4}' &&
        cps.length === tags.length &&
        cps[cps.length - 1] === 0xe007f &&
        cps.length <= 8 &&
        tags
          .slice(0, -1)
          .every((c) => (c >= 0xe0061 && c <= 0xe007a) || (c >= 0xe0030 && c <= 0xe0039));
      if (!flag) {
        const decoded = tags
          .filter((c) => c >= 0xe0020 && c <= 0xe007e)
          .map((c) => String.fromCharCode(c - 0xe0000))
          .join('');
        hits.push({
          rule: 'hidden/tag-characters',
          severity: 'critical',
          offset: start,
          length: run.length,
          detail: `${tags.length} tag character(s) (U+E0000–U+E007F)`,
          hidden: decoded,
        });
      }
    }
    if (vs.length > 0) {
      const single = vs.length === 1 && cps.length === 1;
      const ivs = single && (vs[0] ?? 0) >= 0xe0100 && HAN.test(before);
      const plain = single && (vs[0] ?? 0) < 0xe0100 && before !== '';
      if (!ivs && !plain) {
        const bytes = vs.map((c) => (c < 0xe0100 ? c - 0xfe00 : c - 0xe0100 + 16));
        hits.push({
          rule: 'hidden/variation-selectors',
          severity: vs.length >= 4 ? 'critical' : 'medium',
          offset: start,
          length: run.length,
          detail: `${vs.length} variation selector(s) in a row after ${before ? `U+${(before.codePointAt(0) ?? 0).toString(16).toUpperCase()}` : 'nothing'}`,
          hidden: asciiShown(bytes),
        });
      }
    }
    if (bidi.length > 0) {
      const lineStart = text.lastIndexOf('\n', start) + 1;
      let lineEnd = text.indexOf('\n', start);
      if (lineEnd === -1) lineEnd = text.length;
      const rtl = RTL_LETTER.test(text.slice(lineStart, Math.min(lineEnd, lineStart + 4000)));
      if (code || !rtl)
        hits.push({
          rule: 'hidden/bidi-control',
          severity: bidi.includes(0x202e) || bidi.includes(0x2067) || code ? 'high' : 'medium',
          offset: start,
          length: run.length,
          detail: `bidi control(s) ${bidi.map(codeLabel).join(' ')}${code ? ' in code' : ' in a line without right-to-left text'}`,
        });
    }
    if (zw > 0) {
      const zws = cps.filter(
        (c) =>
          !(c >= 0xe0000 && c <= 0xe01ef) &&
          !(c >= 0xfe00 && c <= 0xfe0f) &&
          !((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)),
      );
      const joinerOnly = zws.every((c) => c === 0x200d || c === 0x200c);
      const allZwj = zws.every((c) => c === 0x200d);
      // Why: ZWJ between emoji builds one emoji (👨‍👩‍👧, ❤️‍🔥); an emoji may end in VS16 (U+FE0F).
      const emoji =
        allZwj && (PICTOGRAPHIC.test(before) || before === '\uFE0F') && PICTOGRAPHIC.test(after);
      const script =
        joinerOnly && zws.length <= 2 && (JOINER_SCRIPT.test(before) || JOINER_SCRIPT.test(after));
      const bom = zws.length === 1 && zws[0] === 0xfeff && start === 0;
      if (!emoji && !script && !bom) {
        const decoded = decodeBinary(zws);
        const inWord = WORD_CHAR.test(before) && WORD_CHAR.test(after);
        const severity: HiddenHit['severity'] = decoded
          ? 'critical'
          : zws.length >= 3
            ? 'high'
            : inWord || code
              ? 'medium'
              : 'low';
        hits.push({
          rule: 'hidden/zero-width',
          severity,
          offset: start,
          length: run.length,
          detail: `${zws.length} zero-width character(s): ${[...new Set(zws)].map(codeLabel).join(' ')}${inWord ? ' inside a word' : ''}`,
          ...(decoded ? { hidden: decoded } : {}),
        });
      }
    }
  }
  return hits;
}

/** Cyrillic and Greek letters that look like Latin ones, and the Latin letter they imitate. */
const CONFUSABLE: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ѕ: 'S',
  ο: 'o',
  α: 'a',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  υ: 'u',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLE).join('')}]`, 'g');
const INVISIBLE_RE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u00AD]|\uDB40[\uDC00-\uDDEF]/g;

/**
 * A line folded for phrase matching: invisible characters dropped, compatibility forms (full-width,
 * mathematical letters) normalised, lookalike Cyrillic and Greek letters mapped to Latin. Why: so
 * "ign\u200Bore" or "ignоre" (Cyrillic о) match like "ignore". Russian text folds to nonsense
 * Latin that matches no English phrase, so no rule fires on it for its alphabet.
 */
export function foldForMatching(line: string): string {
  // eslint-disable-next-line no-control-regex -- the ASCII fast path
  if (!/[^\u0000-\u007f]/.test(line)) return line;
  return line
    .replace(INVISIBLE_RE, '')
    .normalize('NFKC')
    .replace(CONFUSABLE_RE, (c) => CONFUSABLE[c] ?? c);
}

/** Whether a word mixes Latin with Cyrillic or Greek letters (a lookalike), as in a host name. */
export function mixesScripts(word: string): boolean {
  return /\p{Script=Latin}/u.test(word) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(word);
}

/** Longest DNS label (RFC 1035); a longer `xn--` label is no host name a browser would show. */
const MAX_LABEL = 63;

/**
 * Decode one punycode label (RFC 3492) without its `xn--` prefix; undefined when malformed.
 * Never throws: the label comes from a skill's text, which an attacker writes.
 */
export function decodePunycode(input: string): string | undefined {
  if (input.length > MAX_LABEL - 4) return undefined;
  const base = 36,
    tMin = 1,
    tMax = 26,
    skew = 38,
    damp = 700;
  const out: number[] = [];
  const dash = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(dash, 0); j++) {
    const c = input.charCodeAt(j);
    // Why: the part before the last dash holds only basic (ASCII) code points.
    if (c >= 0x80) return undefined;
    out.push(c);
  }
  let n = 128,
    i = 0,
    bias = 72;
  const adapt = (delta: number, num: number, first: boolean): number => {
    delta = first ? Math.floor(delta / damp) : delta >> 1;
    delta += Math.floor(delta / num);
    let k = 0;
    while (delta > ((base - tMin) * tMax) >> 1) {
      delta = Math.floor(delta / (base - tMin));
      k += base;
    }
    return k + Math.floor(((base - tMin + 1) * delta) / (delta + skew));
  };
  for (let pos = dash > 0 ? dash + 1 : 0; pos < input.length;) {
    const oldi = i;
    let w = 1;
    for (let k = base; ; k += base) {
      if (pos >= input.length || k > 2000) return undefined;
      const c = input.charCodeAt(pos++);
      // Why explicit ranges: RFC 3492's `c - 48 < 10` relies on unsigned arithmetic; here a
      // character below '0' or between the letter ranges would make a negative digit.
      const digit =
        c >= 48 && c <= 57
          ? c - 22
          : c >= 65 && c <= 90
            ? c - 65
            : c >= 97 && c <= 122
              ? c - 97
              : base;
      if (digit >= base) return undefined;
      i += digit * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < t) break;
      w *= base - t;
    }
    bias = adapt(i - oldi, out.length + 1, oldi === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff) return undefined;
    out.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...out);
}
