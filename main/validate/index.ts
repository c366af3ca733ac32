export {
  buildFileView,
  walkTree,
  fileViewFromTree,
  UNWALKED_FOLDERS,
  TEXT_FILES,
} from './file-view';
export type { WalkedEntry, WalkedTree } from './file-view';
export {
  DISK_RULES,
  linkDiagnostics,
  packageDiagnostics,
  packageSize,
  targetFits,
} from './disk-rules';
export type { TargetFit } from './disk-rules';
export { checkLibrary, memberFacts } from './library-checks';
export type { DependencyFact, LibraryFinding, LibraryMember, MemberFacts } from './library-checks';
export { findMarkdownLinks, classifyLinkTarget } from './markdown-links';
export {
  applySafeFixes,
  LibraryMemo,
  validateLibrary,
  validateSkillFolder,
  ValidateInputError,
} from './service';
export {
  sharedValidationPool,
  useBuiltValidationWorkers,
  useValidationWorkers,
  ValidationPool,
} from './workers';
export type {
  AppliedFix,
  FixOutcome,
  LibraryValidation,
  SeverityCounts,
  SkillValidation,
  ValidateFolderOptions,
  ValidateLibraryOptions,
} from './service';
export { mapPool } from './pool';
