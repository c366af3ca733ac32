export { DISK_RULES, packageDiagnostics, packageSize, targetFits } from './disk-rules';
export type { TargetFit } from './disk-rules';
export { checkLibrary, memberFacts } from './library-checks';
export type { DependencyFact, LibraryFinding, LibraryMember, MemberFacts } from './library-checks';
export {
  applySafeFixes,
  LibraryMemo,
  sameUnits,
  validateLibrary,
  validateSkillFolder,
  ValidateInputError,
} from './service';
export type {
  AppliedFix,
  FixOutcome,
  LibraryValidation,
  SeverityCounts,
  SkillValidation,
  ValidateFolderOptions,
  ValidateLibraryOptions,
} from './service';
