import type { ParsedSkill } from '../skill/frontmatter-parser';
import type { ReviewFrontmatter } from './types';

/**
 * The frontmatter the review needs, from the one parser's result. Why the caller parses: the
 * file set (shared/skill) asks this folder what a secret is, so this folder may import nothing
 * of shared/skill at run time (docs/architecture.md: no import cycles between folders).
 */
export function frontmatterForReview(
  parsed: Pick<ParsedSkill, 'data' | 'bodyStartLine'>,
): ReviewFrontmatter {
  return { data: parsed.data, bodyStartLine: parsed.bodyStartLine };
}
