/**
 * Claude Code's skill list (docs/skill-format.md §2.3, docs/claude-code-listing.md): it shows the
 * model each skill's `description` and `when_to_use` joined as one line, cut past
 * {@link CLAUDE_CODE_LISTING_MAX} characters. One owner for the line and its count, so
 * validation's `description/listing-truncated` and the catalog's note (docs/agent-view.md §1)
 * never disagree about a skill, and both agree with Claude Code (checked against Claude Code
 * 2.1.332 with scripts/agent-listing.mjs):
 * - the two are joined with " - " between them (the description alone when there is no
 *   `when_to_use`);
 * - line breaks and tabs, with the spaces around line breaks, become one space, and the ends are
 *   trimmed;
 * - `<` and `>` are written `&lt;` and `&gt;` (`&` and quotes stay), and count as such;
 * - a line over 1,536 characters keeps its first 1,535 and ends with "…". Characters here are
 *   UTF-16 units, as Claude Code counts them: an emoji counts two, and the cut can split one
 *   (the model then receives U+FFFD in its place).
 */

/** The length of Claude Code's skill-list line (UTF-16 units), past which it is cut. */
export const CLAUDE_CODE_LISTING_MAX = 1536;

/** A skill's line in Claude Code's skill list, and how much of it the model does not see. */
export interface ListingLength {
  /** Characters (UTF-16 units, as Claude Code counts) of the joined line before the cut. */
  total: number;
  /** Characters of the line past the cut, which the model does not see (0: all of it). */
  cut: number;
  /** The line as the model sees it (cut lines end with "…"). */
  shown: string;
}

/** Claude Code's skill-list line for a skill (`when_to_use` empty when there is none). */
export function claudeCodeListing(description: string, whenToUse: string): ListingLength {
  const joined = whenToUse === '' ? flat(description) : `${flat(description)} - ${flat(whenToUse)}`;
  const line = joined.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const total = line.length;
  if (total <= CLAUDE_CODE_LISTING_MAX) return { total, cut: 0, shown: line };
  const kept = CLAUDE_CODE_LISTING_MAX - 1;
  // Why the replacement character: a cut inside an emoji leaves half of it, which cannot be
  // sent as UTF-8; the model receives U+FFFD there.
  const head = line.slice(0, kept).replace(/[\ud800-\udbff]$/, '\ufffd');
  return { total, cut: total - kept, shown: `${head}…` };
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * Line breaks, with the spaces and tabs around them, as one space; other tabs as spaces; the
 * ends trimmed. Why a loop, not one pattern: a pattern of "spaces, then line breaks" backtracks
 * over every run of spaces with no line break after it, quadratic in a 300,000-space description.
 */
function flat(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\r' || c === '\n') {
      let end = out.length;
      while (end > 0 && out[end - 1] === ' ') end--;
      out = out.slice(0, end);
      while (i < text.length && (text[i] === '\r' || text[i] === '\n' || isBlank(text[i]))) i++;
      out += ' ';
      continue;
    }
    out += c === '\t' ? ' ' : c;
    i++;
  }
  return out.trim();
}
