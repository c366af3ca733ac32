/** A link destination found in Markdown, with its offsets in the text it was found in. */
export interface MarkdownLink {
  /** The destination as written (without `<>`). */
  target: string;
  /** Offsets of the destination in the scanned text. */
  start: number;
  end: number;
  image: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Why a hand scanner and not a Markdown library: we need only link destinations with exact
// offsets (CommonMark §6.3 inline links, §4.7 link reference definitions), outside code.
const INLINE = /(!?)\[(?:[^\]\\]|\\.)*\]\([ \t]*(<[^>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)/g;
const REFERENCE_DEF = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)/;

/** Blank out inline code spans (same length) so links inside them are not seen (CommonMark §6.1). */
function maskCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  return line.replace(/(`+)([^`]|(?!\1)`)*?\1/g, (m) => ' '.repeat(m.length));
}

/**
 * Every inline link/image destination and link reference definition in `markdown`, outside
 * fenced code blocks and code spans; `base` is added to the offsets.
 */
export function findMarkdownLinks(markdown: string, base = 0): MarkdownLink[] {
  const out: MarkdownLink[] = [];
  let fence: string | null = null;
  let pos = 0;
  while (pos <= markdown.length) {
    let nl = markdown.indexOf('\n', pos);
    if (nl === -1) nl = markdown.length;
    const raw = markdown.slice(pos, nl);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1]) fence = null;
    } else if (f) {
      fence = f[1] ?? null;
    } else if (!/^( {4}|\t)/.test(line) && (line.includes('](') || line.includes(']:'))) {
      const masked = maskCodeSpans(line);
      const def = REFERENCE_DEF.exec(masked);
      if (def?.[1]) {
        const dest = def[1];
        const at = def.index + def[0].length - dest.length;
        push(out, dest, pos + at, base, false);
      }
      INLINE.lastIndex = 0;
      for (let m = INLINE.exec(masked); m; m = INLINE.exec(masked)) {
        const dest = m[2] ?? '';
        const at = m.index + m[0].length - dest.length;
        push(out, dest, pos + at, base, m[1] === '!');
      }
    }
    pos = nl + 1;
  }
  return out;
}

function push(out: MarkdownLink[], dest: string, at: number, base: number, image: boolean): void {
  if (dest.startsWith('<') && dest.endsWith('>')) {
    out.push({ target: dest.slice(1, -1), start: base + at + 1, end: base + at + dest.length - 1, image });
  } else {
    out.push({ target: dest, start: base + at, end: base + at + dest.length, image });
  }
}

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
  // Why: Claude Code expands ${CLAUDE_SKILL_DIR} to the skill folder (spec §2 claude-code placeholders).
  if (t.startsWith('${CLAUDE_SKILL_DIR}/')) t = t.slice('${CLAUDE_SKILL_DIR}/'.length);
  if (t === '' || t.startsWith('#') || t.startsWith('?') || t.startsWith('//') || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(t) || t.includes('$')) {
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
