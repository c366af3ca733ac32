export { parseSkill, detectLineEnding, locateFrontmatter } from './frontmatter-parser';
export {
  CHARS_PER_TOKEN,
  SKILL_MD_MAX_BYTES,
  VALIDATION_LIMITS,
  estimateTokens,
  prescanYaml,
  resolveLimits,
  utf8Length,
  utf8Prefix,
} from './limits';
export type { LimitExceeded, PrescanEstimate, ValidationLimits } from './limits';
export type {
  ParseOptions,
  BoundaryIssue,
  Boundaries,
  FrontmatterBlock,
  LineEnding,
  ParsedSkill,
  YamlProblem,
  YamlRepair,
} from './frontmatter-parser';
export { LineIndex } from './line-index';
export { applyEdits } from './text-edits';
export { codePointLength, quoteYamlString, textOf, yamlScalarText } from './yaml-strings';
export { PLACEHOLDER_DESCRIPTION, templateTextIn } from './template-text';
export { leftOutByContent, leftOutByPath, NEVER_ENTERED, tokenLookingContent } from './file-set';
export type { FileSetRule, LeftOut } from './file-set';
