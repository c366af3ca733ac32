export { InspectorService } from './service';
export type { ConnectTarget, InspectorServiceEvents, InspectorServiceOptions } from './service';
export { InspectorSession, describeTarget } from './session';
export { boundedFetch } from './http-fetch';
export type { ResourceBytes, SessionOptions } from './session';
export { discoverSkills, listExtensionSkills, markSameNames, skillFromEntry } from './discovery';
export type { DiscoverOptions } from './discovery';
export {
  readSkillFile,
  verifySkill,
  walkDirectory,
  fileTree,
  skillView,
  manifestFileView,
  loadLegacyManifest,
} from './skill-reader';
export type { SkillViewData, VerifySkillOptions } from './skill-reader';
export { compareFrontmatter, frontmatterOf, sha256Digest, verifyRead } from './verify';
export { runReportCard, reportToJson, reportToMarkdown } from './report-card';
export type { CheckStatus, ReportCard, ReportCheck } from './report-card';
export { ProtocolLog, LoggedTransport } from './protocol-log';
export { ConnectionStore, CONNECTIONS_FILE } from './connection-store';
export type { SecretBox } from './connection-store';
export { LoopbackOAuthProvider } from './oauth';
export type { OAuthState, OpenBrowser } from './oauth';
export { writeVerifiedFolder, recordProvenance, readProvenance, PROVENANCE_FILE } from './keep';
export type { ProvenanceRecord, SaveResult } from './keep';
export { InspectorError, toInspectorError } from './errors';
export type { InspectorErrorCode } from './errors';
export { DEFAULT_LIMITS, resolveLimits } from './limits';
export { checkReadableUri, manifestUriProblem, skillKey, parseSkillKey } from './uris';
export { inspectionVerdict } from './verdict';
export type { InspectionVerdict, UnreadableOutput, VerdictReason } from './verdict';
export * from './types';
