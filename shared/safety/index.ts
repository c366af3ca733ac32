/** The safety review (docs/safety-review.md): pure rules, no disk. */
export { SAFETY_RULES, safetyRule, VERDICT_HEADLINES } from './catalog';
export type { SafetyRuleInfo } from './catalog';
export { reviewSkill, summaryOf, verdictOf, withAcceptance, SAFETY_RULE_IDS } from './review';
export { findSecrets, isPlaceholderSecret, secretFileName, tokenLookingContent } from './secrets';
export { makeVisible } from './unicode';
export { frontmatterForReview } from './frontmatter';
export type * from './types';
