/** A link destination found in Markdown, with its offsets in the text it was found in. */
export interface MarkdownLink {
  /** The destination as written (without `<>`). */
  target: string;
  /** Offsets of the destination in the scanned text. */
  start: number;
  end: number;
  image: boolean;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/gm;
// Why a hand scanner and not a Markdown library: we need only link destinations with exact
// offsets (CommonMark §6.3 inline links, §4.7 link reference definitions), outside code.
// Why no bare `[` in the link text (one nested `[…]` pair is allowed): from every `[` the
// engine scanned to the end of the line, quadratic on a long line of `[` (80,000 took 15 s).
const INLINE =
  /(!?)\[(?:[^[\]\\\n]|\\.|\[(?:[^[\]\\\n]|\\.)*\])*\]\([ \t]*(<[^>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)/g;
const REFERENCE_DEF = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)/gm;

/** [start, end) offsets of fenced code blocks (CommonMark §4.5); an unclosed fence runs to the end. */
function fencedBlocks(markdown: string): [number, number][] {
  if (!markdown.includes('```') && !markdown.includes('~~~')) return [];
  const blocks: [number, number][] = [];
  let open: { start: number; fence: string } | null = null;
  FENCE_LINE.lastIndex = 0;
  for (let m = FENCE_LINE.exec(markdown); m; m = FENCE_LINE.exec(markdown)) {
    const fence = m[1] ?? '';
    if (open === null) open = { start: m.index, fence };
    else if (
      fence[0] === open.fence[0] &&
      fence.length >= open.fence.length &&
      (m[2] ?? '').trim() === ''
    ) {
      blocks.push([open.start, m.index + m[0].length]);
      open = null;
    }
  }
  if (open !== null) blocks.push([open.start, markdown.length]);
  return blocks;
}

const CODE_SPAN = /(`+)(?:[^`]|(?!\1)`)*?\1/g;

/**
 * Whether offset `at` of `markdown` sits inside an inline code span on its line (CommonMark
 * §6.1). `cache` keeps each line's spans: links come in text order, and finding a line's spans
 * again for every link on it was quadratic on a long line.
 */
function inCodeSpan(
  markdown: string,
  at: number,
  lineStart: number,
  cache: { lineStart: number; spans: [number, number][] },
): boolean {
  if (cache.lineStart !== lineStart) {
    cache.lineStart = lineStart;
    cache.spans = [];
    let lineEnd = markdown.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = markdown.length;
    const line = markdown.slice(lineStart, lineEnd);
    if (line.includes('`')) {
      CODE_SPAN.lastIndex = 0;
      for (let m = CODE_SPAN.exec(line); m; m = CODE_SPAN.exec(line))
        cache.spans.push([lineStart + m.index, lineStart + m.index + m[0].length]);
    }
  }
  const spans = cache.spans;
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid];
    if (!s) break;
    if (at < s[0]) hi = mid - 1;
    else if (at >= s[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Whether `at` lies in one of the sorted, disjoint `blocks` (binary search). */
function inBlocks(blocks: [number, number][], at: number): boolean {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = blocks[mid];
    if (!b) break;
    if (at < b[0]) hi = mid - 1;
    else if (at >= b[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Whether the line starting at `lineStart` is an indented code block line (4 spaces or a tab). */
function inIndentedLine(markdown: string, lineStart: number): boolean {
  return markdown.startsWith('    ', lineStart) || markdown.charCodeAt(lineStart) === 9;
}

/**
 * The start of the line holding an offset, for offsets that mostly grow. Why not
 * `lastIndexOf('\n')` per link: on one long line every link scanned back to its start, quadratic.
 */
function lineCursor(markdown: string): (at: number) => number {
  let start = 0;
  let next = markdown.indexOf('\n');
  return (at) => {
    if (at < start) {
      start = 0;
      next = markdown.indexOf('\n');
    }
    while (next !== -1 && next < at) {
      start = next + 1;
      next = markdown.indexOf('\n', start);
    }
    return start;
  };
}

/**
 * Every inline link/image destination and link reference definition in `markdown`, outside
 * fenced code blocks, indented code lines and code spans; `base` is added to the offsets.
 */
export function findMarkdownLinks(markdown: string, base = 0): MarkdownLink[] {
  const hasInline = markdown.includes('](');
  const hasDef = markdown.includes(']:');
  if (!hasInline && !hasDef) return [];
  const fences = fencedBlocks(markdown);
  const spans = { lineStart: -1, spans: [] as [number, number][] };
  const lineOf = lineCursor(markdown);
  const skip = (at: number): boolean => {
    if (inBlocks(fences, at)) return true;
    const lineStart = lineOf(at);
    return inIndentedLine(markdown, lineStart) || inCodeSpan(markdown, at, lineStart, spans);
  };
  const out: MarkdownLink[] = [];
  if (hasDef) {
    REFERENCE_DEF.lastIndex = 0;
    for (let m = REFERENCE_DEF.exec(markdown); m; m = REFERENCE_DEF.exec(markdown)) {
      const dest = m[1] ?? '';
      if (!skip(m.index)) push(out, dest, m.index + m[0].length - dest.length, base, false);
    }
  }
  if (hasInline) {
    INLINE.lastIndex = 0;
    for (let m = INLINE.exec(markdown); m; m = INLINE.exec(markdown)) {
      const dest = m[2] ?? '';
      if (!skip(m.index)) push(out, dest, m.index + m[0].length - dest.length, base, m[1] === '!');
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function push(out: MarkdownLink[], dest: string, at: number, base: number, image: boolean): void {
  if (dest.startsWith('<') && dest.endsWith('>')) {
    out.push({
      target: dest.slice(1, -1),
      start: base + at + 1,
      end: base + at + dest.length - 1,
      image,
    });
  } else {
    out.push({ target: dest, start: base + at, end: base + at + dest.length, image });
  }
}

/** A relative path of letters, digits, `_`, `-`, `.` and inner `/`: nothing to decode, strip or refuse. */
const PLAIN_PATH = /^[\w.-][\w./-]*$/;

/** How a link destination relates to the skill folder. */
export type LinkTarget =
  | { kind: 'external' }
  | { kind: 'absolute'; path: string }
  | { kind: 'outside'; path: string }
  | { kind: 'relative'; path: string };

/**
 * Classify a destination: URLs, anchors and placeholders are external; `/x` is absolute;
 * `../` that climbs out of the skill is outside; everything else is a path relative to the
 * skill folder (fragment and query removed, percent-decoded, `./` and `a/../` folded).
 */
export function classifyLinkTarget(target: string): LinkTarget {
  let t = target.trim();
  // Why a fast path: most links are plain relative paths (references/guide.md), and the checks
  // below (scheme, query, percent-escapes, backslashes) cannot change those; a library has thousands.
  if (!PLAIN_PATH.test(t)) {
    // Why: Claude Code expands ${CLAUDE_SKILL_DIR} to the skill folder (docs/skill-format.md §2 claude-code placeholders).
    if (t.startsWith('${CLAUDE_SKILL_DIR}/')) t = t.slice('${CLAUDE_SKILL_DIR}/'.length);
    if (
      t === '' ||
      t.startsWith('#') ||
      t.startsWith('?') ||
      t.startsWith('//') ||
      /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(t) ||
      t.includes('$')
    ) {
      return { kind: 'external' };
    }
    t = t.replace(/[?#].*$/, '');
    try {
      t = decodeURIComponent(t);
    } catch {
      // Why: a stray `%` is a literal character in a file name, not an escape.
    }
    t = t.replace(/\\(.)/g, '$1');
    if (t.startsWith('/')) return { kind: 'absolute', path: t };
  }
  const parts: string[] = [];
  for (const seg of t.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return { kind: 'outside', path: t };
      parts.pop();
    } else parts.push(seg);
  }
  if (parts.length === 0) return { kind: 'external' };
  return { kind: 'relative', path: parts.join('/') };
}
