export { SkillsServerService, summarizeSnapshot } from './service';
export type {
  CatalogSummary,
  ExcludedSkillInfo,
  ServedSkillInfo,
  ServerState,
  ServerStatus,
  SkillsServerServiceEvents,
  SkillsServerServiceOptions,
} from './service';
export { LiveCatalog, diffSnapshots } from './live-catalog';
export type { CatalogChange, LiveCatalogOptions } from './live-catalog';
export { buildSnapshot } from './catalog';
export type { CatalogSnapshot, ExcludedSkill, ServedSkill, SnapshotFile } from './catalog';
export { createSkillsServer } from './mcp-server';
export type { RequestLogEntry, SkillsServerFeatures, SkillsServerHandle } from './mcp-server';
export { startHttpHost, generateToken, MCP_PATH } from './http-host';
export type { HttpHost, HttpHostOptions } from './http-host';
export { serveStdio } from './stdio-host';
export type { StdioHostOptions } from './stdio-host';
export { clientSetupSnippets } from './client-setup';
export type { ClientSetupInput, ClientSnippet } from './client-setup';
export { mcpServeCheck } from './skill-check';
export type { SkillCheck, SkillCheckResult } from './skill-check';
