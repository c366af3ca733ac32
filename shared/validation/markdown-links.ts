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
  return inBlocks(cache.spans, at);
}

/** Whether `at` lies in one of the sorted, disjoint `blocks` (binary search): code spans, fences, links. */
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

/** A path into one of the skill's own folders named in the text, as in `python scripts/fill.py`. */
export interface FileMention {
  /** The path relative to the skill folder (`scripts/fill.py`). */
  path: string;
  /** Offsets of the path as written (with `./` or `${CLAUDE_SKILL_DIR}/`), plus `base`. */
  start: number;
  end: number;
}

// Why only scripts/, references/ and assets/: the Agent Skills format names these as the skill's
// own folders, with paths from the skill folder, so `scripts/fill.py` in the instructions is a
// file the skill ships; any other relative path may be one the agent is told to create in the
// user's project. Why the last segment needs an extension: `references/` alone names a folder.
const SKILL_FOLDERS = ['scripts/', 'references/', 'assets/'] as const;
/**
 * The rest of a path after its folder, read at one offset (sticky). Why the guard after:
 * `scripts/*.py` and `scripts/{name}.py` are patterns, not files.
 */
const MENTION_REST = /(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z0-9]{1,10}(?![\w/\\*{<$-])/y;
/**
 * What may not stand before a path for it to be the skill's: `src/scripts/x.py`, a URL's
 * `/scripts/x.py` and `$HOME/scripts` are not.
 */
const NOT_BEFORE = /[\w./\\$:@%~-]/;
const SKILL_DIR_PREFIX = '${CLAUDE_SKILL_DIR}/';

/** Where the path written at `at` starts, with its `./` or `${CLAUDE_SKILL_DIR}/`; -1 if not the skill's. */
function mentionStart(markdown: string, at: number): number {
  let start = at;
  if (markdown.startsWith('./', at - 2)) start = at - 2;
  else if (markdown.startsWith(SKILL_DIR_PREFIX, at - SKILL_DIR_PREFIX.length))
    start = at - SKILL_DIR_PREFIX.length;
  return start > 0 && NOT_BEFORE.test(markdown.charAt(start - 1)) ? -1 : start;
}

/**
 * Every path into the skill's scripts/, references/ or assets/ folder named in `markdown`,
 * in running text, code spans and code blocks alike (commands to run are mostly written in
 * code), but not inside a Markdown link's destination (those are links). `base` is added to
 * the offsets; `links` are the text's links as `findMarkdownLinks(markdown, base)` finds them.
 * Why indexOf and not one regex over the text: a regex that must look behind at every offset
 * cost milliseconds per large body, and a library has thousands.
 */
export function findFileMentions(
  markdown: string,
  base = 0,
  links: readonly MarkdownLink[] = findMarkdownLinks(markdown, base),
): FileMention[] {
  let inLinks: [number, number][] | undefined;
  const out: FileMention[] = [];
  for (const folder of SKILL_FOLDERS) {
    for (let at = markdown.indexOf(folder); at !== -1; at = markdown.indexOf(folder, at + 1)) {
      const start = mentionStart(markdown, at);
      if (start === -1) continue;
      MENTION_REST.lastIndex = at + folder.length;
      const rest = MENTION_REST.exec(markdown);
      if (!rest) continue;
      inLinks ??= links.map((l): [number, number] => [l.start, l.end]);
      if (inBlocks(inLinks, base + at)) continue;
      const end = MENTION_REST.lastIndex;
      out.push({ path: markdown.slice(at, end), start: base + start, end: base + end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
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
