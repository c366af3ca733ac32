/**
 * Claude Code's skill list (docs/skill-format.md §2.3): it shows the model each skill's
 * `description` and `when_to_use` together, cut at {@link CLAUDE_CODE_LISTING_MAX} characters.
 * One owner for the count, so validation's `description/listing-truncated` and the catalog's note
 * (docs/agent-view.md §1) never disagree about a skill.
 */
import { codePointLength } from '../skill/yaml-strings';

/** Characters of `description` + `when_to_use` Claude Code keeps in its skill list. */
export const CLAUDE_CODE_LISTING_MAX = 1536;

/** How much of a skill's description and when_to_use Claude Code's skill list shows. */
export interface ListingLength {
  /** Characters (code points) of both together. */
  total: number;
  /** Characters past the cut, which the model does not see (0: all of it is shown). */
  cut: number;
}

/** Count `description` + `when_to_use` (empty when there is none) against Claude Code's cut. */
export function claudeCodeListing(description: string, whenToUse: string): ListingLength {
  const total = codePointLength(description) + codePointLength(whenToUse);
  return { total, cut: Math.max(0, total - CLAUDE_CODE_LISTING_MAX) };
}
