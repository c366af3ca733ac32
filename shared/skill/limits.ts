/**
 * Bounds on the work one SKILL.md may cause. A library, an imported archive or a remote server
 * can hand Skillbench any file, and validation runs on every keystroke, in the CLI and on worker
 * threads: past these bounds a file is reported as too large or complex to check fully
 * (`file/too-complex`) instead of hanging the app, exhausting memory or overflowing the stack.
 *
 * Each bound is far above any real skill: a real frontmatter has fewer than 100 keys, fewer than
 * 1,000 YAML nodes, is nested fewer than 10 levels and is smaller than 20 KB; a real body is
 * under 500 lines (about 25 KB); anchors and aliases are warned about and almost never used.
 */
export const VALIDATION_LIMITS = {
  /** UTF-8 bytes of the frontmatter (real: < 20 KB). Past it the YAML is not read at all. */
  frontmatterBytes: 256 * 1024,
  /**
   * YAML nodes of the frontmatter: keys, values, list items and collections (real: < 1,000).
   * Past it the YAML is not read.
   */
  nodes: 20_000,
  /**
   * Nesting depth of the frontmatter (real: < 10). Why 100: yaml's composer needs about 1.2 KB
   * of stack per level, so 100 levels stay far below the smallest stack the core runs on (the
   * main thread's ~984 KB) while leaving room for a pre-scan estimate that is off by a few times.
   * Past it the YAML is not read.
   */
  depth: 100,
  /**
   * YAML anchors (`&a`) and aliases (`*a`) together (real: 0). yaml resolves each alias by a scan
   * of the document's anchors, so their number multiplies the document's size. Past it the YAML
   * is not read. (The expansion of aliases is bounded separately by yaml's `maxAliasCount`.)
   */
  aliases: 100,
  /**
   * UTF-8 bytes of the body that the body rules scan (real: < 100 KB); the rest is not scanned
   * for placeholders or shell commands. The body's length itself is always measured.
   */
  bodyBytes: 1024 * 1024,
  /** Findings kept per file and profile; the rest are counted (for the verdict), not listed. */
  findings: 1_000,
} as const;

/**
 * The largest SKILL.md Skillbench reads, anywhere (validation, the library list, the editor, the
 * catalog, an agent's folders). A larger file is reported as too large and never read whole:
 * SEP-2640 caps a whole skill at the same 16 MiB, so no reader accepts a skill whose SKILL.md
 * alone is larger, and a real one is a few kilobytes. Why a bound at all: a SKILL.md can be a
 * link to `/dev/zero` or gigabytes of anything, and reading it whole hangs or exhausts memory.
 */
export const SKILL_MD_MAX_BYTES = 16 * 1024 * 1024;

/** One set of bounds, e.g. {@link VALIDATION_LIMITS} with some raised (benchmarks) or lowered. */
export type ValidationLimits = { readonly [K in keyof typeof VALIDATION_LIMITS]: number };

/** The bound a file went past, with where to show it. */
export interface LimitExceeded {
  limit: keyof ValidationLimits;
  /** The bound in force. */
  max: number;
  /** What was found; when `exact` is false, only that it is more than `max`. */
  found: number;
  exact: boolean;
  /** Offsets in the original text the finding is shown at. */
  start: number;
  end: number;
}

/** {@link VALIDATION_LIMITS} with `overrides` applied (ignoring values that are not positive numbers). */
export function resolveLimits(overrides?: Partial<ValidationLimits>): ValidationLimits {
  if (!overrides) return VALIDATION_LIMITS;
  const out: Record<string, number> = { ...VALIDATION_LIMITS };
  for (const [k, v] of Object.entries(overrides)) {
    if (k in VALIDATION_LIMITS && typeof v === 'number' && v > 0) out[k] = v;
  }
  return out as unknown as ValidationLimits;
}

/**
 * UTF-8 length of `text[from, to)`, counting no further than `stop` bytes: returns the bytes
 * counted and the offset reached (where `stop` was reached, or `to`). Linear, no allocation.
 */
export function utf8Prefix(
  text: string,
  from: number,
  to: number,
  stop = Infinity,
): { bytes: number; end: number } {
  let bytes = 0;
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    const n =
      c < 0x80
        ? 1
        : c < 0x800
          ? 2
          : c >= 0xd800 && c <= 0xdbff && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
            ? 4
            : 3;
    if (bytes + n > stop) break;
    bytes += n;
    i += n === 4 ? 2 : 1;
  }
  return { bytes, end: i };
}

const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * UTF-8 length of `text[from, to)`. Why not {@link utf8Prefix}: a whole 50 MB body is counted for
 * its finding, and letting the regular-expression engine skip the ASCII runs is several times
 * faster than a loop over every character.
 */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let bytes = to - from;
  NON_ASCII.lastIndex = from;
  for (let m = NON_ASCII.exec(text); m !== null && m.index < to; m = NON_ASCII.exec(text)) {
    const c = text.charCodeAt(m.index);
    // 2 bytes below U+0800, else 3; a surrogate pair (two units) is 4 bytes, 2 per unit.
    bytes += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdfff ? paired(text, m.index, from, to) : 2;
  }
  return bytes;
}

/** Extra bytes for a surrogate at `i`: 1 for each half of a pair, 2 for a lone one (U+FFFD-like, 3 bytes). */
function paired(text: string, i: number, from: number, to: number): number {
  const c = text.charCodeAt(i);
  if (c <= 0xdbff) return i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 1 : 2;
  return i > from && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800 ? 1 : 2;
}

/** What the pre-scan estimates about a frontmatter's YAML, without parsing it. */
export interface PrescanEstimate {
  /** YAML nodes: keys, values, list items and collections. */
  nodes: number;
  /** The deepest nesting of collections and values. */
  depth: number;
  /** Anchors and aliases. */
  aliases: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isFlowIndicator(c: number): boolean {
  return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
}

/** End of the line starting at `i` (the offset of its `\n`/`\r`, or the text's end). */
function lineEndAt(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === LF || c === CR) return j;
    j++;
  }
  return j;
}

/**
 * Estimate the size and nesting of a YAML text in one pass over its characters, without yaml's
 * lexer, parser or composer: block nesting from indentation and the `- `, `? `, `: ` indicators
 * that open a line, flow nesting from brackets outside quoted scalars, nodes from lines,
 * indicators and commas, anchors and aliases from `&`/`*` where a node starts. Block scalars
 * (`|`, `>`) and quoted scalars are skipped as the YAML reader would. It is an estimate for
 * valid YAML and for garbage alike; the exact bounds are enforced again while yaml parses
 * (frontmatter-parser.ts), so an underestimate costs time up to the bound, never safety.
 */
export function prescanYaml(text: string): PrescanEstimate {
  let nodes = 0;
  let depth = 0;
  let aliases = 0;
  // Block collections open on the current line's path: their columns, and whether each is a
  // sequence (a `- ` list may sit at the same column as the mapping key that holds it).
  const cols: number[] = [];
  const seqs: boolean[] = [];
  let flow = 0;
  /** Inside a quoted scalar that spans lines: its quote character, else 0. */
  let quote = 0;
  /** Inside a block scalar: the indentation of the line that opened it, else -1. */
  let blockScalar = -1;
  /** Whether the next character may start a node (after an indicator, a bracket, a comma). */
  let atNodeStart = false;

  const note = (d: number): void => {
    if (d > depth) depth = d;
  };

  /** Skip a quoted scalar from `i` (just after its opening quote); returns the offset after it, or -1 when the line ends first. */
  const skipQuoted = (i: number, end: number, q: number): number => {
    let j = i;
    while (j < end) {
      const c = text.charCodeAt(j);
      if (q === 34 && c === 92) j += 2;
      else if (c === q) {
        if (q === 39 && text.charCodeAt(j + 1) === 39) j += 2;
        else return j + 1;
      } else j++;
    }
    return -1;
  };

  /**
   * Scan the rest of a line from `from`, in flow context or after a block line's indicators. A
   * line that ends inside a quoted scalar sets `quote`; one that opens a block scalar sets
   * `blockScalar`. Nodes are counted where one starts: a scalar, a quoted scalar, an alias, a
   * flow collection, a block scalar.
   */
  const scanInline = (from: number, end: number, lineIndent: number): void => {
    let i = from;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (isBlank(c)) {
        i++;
        continue;
      }
      if (c === 35 /* # */ && (i === 0 || isBlank(text.charCodeAt(i - 1)))) return;
      if (atNodeStart && (c === 34 || c === 39)) {
        nodes++;
        const after = skipQuoted(i + 1, end, c);
        atNodeStart = false;
        if (after === -1) {
          quote = c;
          return;
        }
        i = after;
        continue;
      }
      if (c === 91 /* [ */ || c === 123 /* { */) {
        if (flow > 0 || atNodeStart) {
          flow++;
          nodes++;
          note(cols.length + flow + 1);
          atNodeStart = true;
        }
        i++;
        continue;
      }
      if (flow > 0 && (c === 93 /* ] */ || c === 125) /* } */) {
        flow--;
        atNodeStart = false;
        i++;
        continue;
      }
      if (flow > 0 && c === 44 /* , */) {
        atNodeStart = true;
        i++;
        continue;
      }
      const next = i + 1 < end ? text.charCodeAt(i + 1) : SPACE;
      if (
        (c === 58 /* : */ || c === 63) /* ? */ &&
        (isBlank(next) ||
          (flow > 0 && (next === 44 || next === 91 || next === 93 || next === 123 || next === 125)))
      ) {
        // A mapping value (or explicit key) follows: a node may start here, one level deeper.
        if (flow === 0) note(cols.length + 1);
        atNodeStart = true;
        i++;
        continue;
      }
      if (atNodeStart && (c === 38 /* & */ || c === 42) /* * */) {
        aliases++;
        if (c === 42) nodes++;
        while (i < end && !isBlank(text.charCodeAt(i)) && !isFlowIndicator(text.charCodeAt(i))) i++;
        // After an anchor the node itself follows; after an alias the node is complete.
        atNodeStart = c === 38;
        continue;
      }
      if (atNodeStart && flow === 0 && (c === 124 /* | */ || c === 62) /* > */) {
        nodes++;
        blockScalar = lineIndent;
        return;
      }
      if (atNodeStart && c === 33 /* ! */) {
        while (i < end && !isBlank(text.charCodeAt(i))) i++;
        continue;
      }
      if (atNodeStart) nodes++;
      atNodeStart = false;
      i++;
    }
  };

  let ls = 0;
  const n = text.length;
  while (ls < n) {
    const le = lineEndAt(text, ls);
    const next =
      le < n && text.charCodeAt(le) === CR && text.charCodeAt(le + 1) === LF ? le + 2 : le + 1;
    let i = ls;
    if (quote !== 0) {
      const after = skipQuoted(ls, le, quote);
      if (after === -1) {
        ls = next;
        continue;
      }
      quote = 0;
      scanInline(after, le, 0);
      ls = next;
      continue;
    }
    while (i < le && text.charCodeAt(i) === SPACE) i++;
    const indent = i - ls;
    if (blockScalar >= 0) {
      if (i === le || indent > blockScalar) {
        ls = next;
        continue;
      }
      blockScalar = -1;
    }
    if (flow > 0) {
      scanInline(ls, le, indent);
      ls = next;
      continue;
    }
    while (i < le && isBlank(text.charCodeAt(i))) i++;
    if (i === le || text.charCodeAt(i) === 35) {
      ls = next;
      continue;
    }
    // The columns this line opens: each leading `- `/`? `/`: ` indicator, then its content.
    const lineCols: number[] = [];
    const lineSeqs: boolean[] = [];
    for (;;) {
      const c = text.charCodeAt(i);
      const after = i + 1 < le ? text.charCodeAt(i + 1) : SPACE;
      if ((c === 45 || c === 63 || c === 58) && isBlank(after)) {
        lineCols.push(i - ls);
        lineSeqs.push(c === 45);
        i++;
        while (i < le && isBlank(text.charCodeAt(i))) i++;
        if (i === le) break;
        continue;
      }
      break;
    }
    if (i < le && text.charCodeAt(i) !== 35) {
      lineCols.push(i - ls);
      lineSeqs.push(false);
    }
    const first = lineCols[0] ?? indent;
    const firstSeq = lineSeqs[0] ?? false;
    while (cols.length > 0 && (cols[cols.length - 1] ?? 0) > first) {
      cols.pop();
      seqs.pop();
    }
    if (cols.length > 0 && cols[cols.length - 1] === first) {
      const topSeq = seqs[seqs.length - 1] ?? false;
      if (firstSeq && !topSeq) {
        // A list under a mapping key at the key's own column: one level deeper.
        cols.push(first);
        seqs.push(true);
      } else if (!firstSeq && topSeq) {
        // A key at the column of a list that hung under the previous key: the list ended.
        cols.pop();
        seqs.pop();
        if (cols[cols.length - 1] !== first) {
          cols.push(first);
          seqs.push(false);
        }
      }
    } else {
      cols.push(first);
      seqs.push(firstSeq);
    }
    for (let k = 1; k < lineCols.length; k++) {
      cols.push(lineCols[k] ?? 0);
      seqs.push(lineSeqs[k] ?? false);
    }
    note(cols.length);
    atNodeStart = true;
    scanInline(i, le, indent);
    ls = next;
  }
  return { nodes, depth, aliases };
}

/** Characters per token in Skillbench's token estimate (docs/skill-format.md §2 `body/too-long`). */
export const CHARS_PER_TOKEN = 4;

/** A low surrogate: the second half of a character outside the BMP, not a character of its own. */
const LOW_SURROGATES = /[\uDC00-\uDFFF]/g;

/**
 * Estimated tokens of a text: characters (code points, so an emoji counts once) ÷ 4, rounded up
 * so that a non-empty text never counts as nothing. The one estimate: the body rule, the
 * catalog's footprint and the editor's header all use it.
 */
export function estimateTokens(text: string): number {
  let characters = text.length;
  if (/[\uDC00-\uDFFF]/.test(text)) characters -= text.match(LOW_SURROGATES)?.length ?? 0;
  return Math.ceil(characters / CHARS_PER_TOKEN);
}
