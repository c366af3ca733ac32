/**
 * Public, JSON-safe types of the inspector, shared by main/inspector, the IPC contract
 * and the renderer: one definition, pure (no Node, no DOM). Everything a method of the inspector
 * service returns is built from these, so main/api passes it through the contract unchanged.
 * Secrets never appear here: saved connections say `hasSecret: true` instead.
 */
import type { SafetyReviewResult } from '../safety/types';
import type { ReadDirectoryResult } from '../sep';
import type { ProfileId, ValidationResult } from '../validation/types';

/** How a remote server is reached. */
export type TransportKind = 'http' | 'sse' | 'stdio';

/** One HTTP header to send; `secret` ones are stored encrypted and never handed back. */
export interface HeaderInput {
  name: string;
  value: string;
  secret?: boolean;
}

/** One environment variable for a stdio server; `secret` ones are stored encrypted. */
export interface EnvInput {
  name: string;
  value: string;
  secret?: boolean;
}

/** What a caller gives to connect (or to save a connection). */
export interface ConnectionInput {
  /** Host-assigned label: the first half of every skill key (SEP-2640 §5). */
  label: string;
  kind: TransportKind;
  /** `http:`/`https:` URL for `http` and `sse`. */
  url?: string;
  headers?: HeaderInput[];
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** Use OAuth 2.1 when the server asks for it (HTTP and SSE). Default true. */
  oauth?: boolean;
  /** stdio: the program to start, its arguments, extra environment and working folder. */
  command?: string;
  args?: string[];
  env?: EnvInput[];
  cwd?: string;
}

/** A saved connection as callers see it: secret values replaced by `hasSecret`. */
export interface SavedConnection {
  id: string;
  label: string;
  kind: TransportKind;
  url?: string;
  headers: { name: string; value?: string; secret: boolean; hasSecret: boolean }[];
  hasBearerToken: boolean;
  oauth: boolean;
  hasOAuthTokens: boolean;
  command?: string;
  args: string[];
  env: { name: string; value?: string; secret: boolean; hasSecret: boolean }[];
  cwd?: string;
  savedAt: string;
}

/** Where a connection is in its life. */
export type ConnectionState =
  'connecting' | 'authorizing' | 'connected' | 'disconnected' | 'failed';

/** One connection's status, as events and `status()` report it. */
export interface ConnectionStatus {
  label: string;
  state: ConnectionState;
  kind: TransportKind;
  /** URL for HTTP/SSE, the command line for stdio (no secrets). */
  target: string;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  /** The server's declared capabilities, verbatim. */
  capabilities?: Record<string, unknown>;
  /** True when the Skills extension is declared. */
  skillsExtension: boolean;
  directoryRead: boolean;
  /** A plain sentence when `state` is `failed`. */
  error?: string;
}

/** The discovery routes, tried in this order. */
export type DiscoveryRoute =
  | 'extension'
  | 'index-april-2026'
  | 'index-june-2026'
  | 'fastmcp-manifest'
  | 'resources-list'
  | 'resource-template';

/** Label shown on anything found outside the Skills extension (docs/skills-over-mcp.md §6). */
export const LEGACY_LABEL = 'legacy, unverified';

/** One file of a skill as its manifest lists it (or as a legacy route guessed it). */
export interface ManifestFile {
  uri: string;
  /** Path relative to the skill folder, `/`-separated; undefined when the URI is outside the skill. */
  path?: string;
  digest?: string;
  size?: number;
}

/** A skill found on a server. Keyed by (server label, uri), never by name (SEP-2640 §5). */
export interface InspectedSkill {
  /** `<server label>\n<uri>`: unique, stable, safe to use as a map key. */
  key: string;
  server: string;
  /** The `SKILL.md` URI. */
  uri: string;
  /** Frontmatter name, or the URI's final skill segment when unknown. */
  name: string;
  description?: string;
  /** The skill path (`acme/billing/refunds`) when the URI is a `skill://` URI. */
  skillPath?: string;
  /** URI of the skill folder (the SKILL.md URI without `/SKILL.md`). */
  rootUri: string;
  route: DiscoveryRoute;
  /** `undefined` for the extension; {@link LEGACY_LABEL} otherwise. */
  label?: string;
  /** The entry's frontmatter (extension, June index); undefined until read for other routes. */
  frontmatter?: Record<string, unknown>;
  /** Complete manifest, `'dynamic'`, or undefined when the route has none (yet). */
  manifest?: ManifestFile[] | 'dynamic';
  /** FastMCP `_manifest` URI, read when the skill is opened. */
  manifestUri?: string;
  /** Legacy archives (June `archives`, April `type: archive`); listed, never unpacked here. */
  archives?: { url: string; mimeType?: string; digest?: string }[];
  /** Same name as another skill of this server or another one: shown side by side. */
  sameNameAs: string[];
  problems: string[];
}

/** A step of discovery with what it found, so the route taken can be shown. */
export interface DiscoveryStep {
  route: DiscoveryRoute | 'resources-list-scan';
  outcome: 'used' | 'empty' | 'not-offered' | 'failed' | 'skipped';
  detail: string;
  pages?: number;
}

/** What `discover` returns. */
export interface DiscoveryResult {
  server: string;
  /** The route whose skills are listed, or undefined when nothing was found. */
  route?: DiscoveryRoute;
  steps: DiscoveryStep[];
  skills: InspectedSkill[];
  /** Templates found by `resources/templates/list` (the user may fill one in and try again). */
  templates: { uriTemplate: string; name?: string; description?: string }[];
  /** True when a page or byte bound stopped discovery early: the listing is partial. */
  partial: boolean;
  problems: string[];
  durationMs: number;
}

/** Verification status of one file. `pending`: not read yet. */
export type FileStatus = 'pending' | 'verified' | 'mismatch' | 'unlisted' | 'unverifiable';

/** One file's verification record. */
export interface FileVerification {
  uri: string;
  path?: string;
  status: FileStatus;
  expected?: { digest?: string; size?: number };
  actual?: { digest: string; size: number; mimeType?: string; encoding: 'text' | 'blob' };
  /** Plain sentences: why it is not verified, or what was compared. */
  reasons: string[];
  /** Field-by-field frontmatter differences (SKILL.md only). */
  frontmatterDiffs?: FrontmatterDiff[];
  checkedAt?: string;
}

/** One field that differs between the entry's frontmatter and the served SKILL.md. */
export interface FrontmatterDiff {
  /** JSON pointer, e.g. `/description` or `/metadata/version`. */
  field: string;
  kind: 'missing-in-file' | 'missing-in-entry' | 'different';
  entry?: unknown;
  file?: unknown;
}

/** A file's content after a read: only handed out when it may be used. */
export interface FileRead {
  verification: FileVerification;
  /** Present when verified, or unverifiable on a legacy route (labelled); absent on any failure. */
  content?: { text?: string; base64?: string; mimeType?: string; size: number };
}

/** The outcome of verifying a whole skill. */
export interface SkillVerification {
  key: string;
  uri: string;
  /** `verified` only when every listed file is verified and nothing unlisted was found. */
  verdict: 'verified' | 'failed' | 'unverifiable';
  files: FileVerification[];
  problems: string[];
  bytesRead: number;
  durationMs: number;
}

/** One node of the file tree shown for a skill. */
export interface FileTreeNode {
  name: string;
  path: string;
  uri: string;
  kind: 'file' | 'directory';
  size?: number;
  status?: FileStatus;
  children?: FileTreeNode[];
}

/** One protocol log entry. */
export interface ProtocolLogEntry {
  seq: number;
  server: string;
  direction: 'out' | 'in';
  /** Epoch milliseconds. */
  time: number;
  kind: 'request' | 'response' | 'error' | 'notification';
  method?: string;
  id?: string | number;
  /** Responses and errors: the method of the request they answer (same connection). */
  inReplyTo?: string;
  /** A deliberate probe (a request sent expecting an error) or its answer: an error here is expected. */
  expectedProbe?: boolean;
  /** Responses and errors: time since the matching request. */
  durationMs?: number;
  bytes: number;
  /** The JSON-RPC message; large ones are cut down to a preview (`truncated: true`). */
  message: unknown;
  truncated: boolean;
}

/** Filter for the protocol log. */
export interface ProtocolLogFilter {
  server?: string;
  direction?: 'out' | 'in';
  kind?: ProtocolLogEntry['kind'];
  /** Exact method, or a prefix ending in `/` (`skills/`). */
  method?: string;
  /** Case-insensitive text that must occur in the serialised message. */
  text?: string;
  sinceSeq?: number;
  limit?: number;
}

/** Bounds on what one session may read (docs/skills-over-mcp.md §5: bound pages, bytes per resource and per server; time out). */
export interface InspectorLimits {
  /** Pages followed for any paginated list. */
  maxPages: number;
  /** Decoded bytes of one resource. */
  maxResourceBytes: number;
  /** Decoded bytes read from one server in one session. */
  maxServerBytes: number;
  /** Files per skill accepted for reading (the host limit is 512, SEP-2640 §3). */
  maxFilesPerSkill: number;
  /** Per-request timeout, ms. */
  requestTimeoutMs: number;
  /** Connection (and OAuth consent) timeout, ms. */
  connectTimeoutMs: number;
}

/** Outcome of one report-card check. `warn`: a SHOULD is not met; `skip`: not applicable. */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

/** One report-card check with its evidence. */
export interface ReportCheck {
  id: string;
  title: string;
  status: CheckStatus;
  summary: string;
  /** A bounded number of lines naming URIs and values. */
  evidence: string[];
  /** Spec reference. */
  source: string;
}

/** The whole server report card. */
export interface ReportCard {
  server: string;
  target: string;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  generatedAt: string;
  durationMs: number;
  skills: number;
  files: number;
  bytesRead: number;
  verdict: 'pass' | 'fail';
  counts: Record<CheckStatus, number>;
  checks: ReportCheck[];
}

/** Where a skill saved from a server came from (kept in the app's data, never in the skill). */
export interface ProvenanceRecord {
  name: string;
  folder: string;
  libraryRoot: string;
  server: { label: string; target: string; name?: string; version?: string };
  uri: string;
  /** The name the server gave it, when it was kept under another one ("Keep both"). */
  renamedFrom?: string;
  /** The files as the server served and verified them (a renamed SKILL.md differs in its `name`). */
  files: { path: string; uri: string; digest: string; size: number }[];
  savedAt: string;
}

/** The outcome of "Save to my library" or "Export for upload". */
export type SaveResult =
  | {
      ok: true;
      /** The folder's name: the skill's own, or the free `name-N` when the user kept both. */
      name: string;
      folder: string;
      files: number;
      provenance: ProvenanceRecord;
      /** The server's name, when the skill was saved under another one ("Keep both"). */
      renamedFrom?: string;
      /** Where the replaced folder went (Skillbench's trash), when the user chose to replace it. */
      trashedTo?: string;
    }
  | {
      ok: false;
      reason: 'verification' | 'conflict' | 'invalid' | 'safety';
      message: string;
      folder?: string;
      /** For `conflict`: the free `name-N` "Keep both" would use. */
      suggestion?: string;
      /** For `safety`: the review that stopped the save (docs/safety-review.md). */
      safety?: SafetyReviewResult;
      failures?: { uri: string; status: string; reasons: string[] }[];
    };

/** The skill screen's data: verified SKILL.md, frontmatter, validation under a profile, file tree. */
export interface SkillViewData {
  skill: InspectedSkill;
  skillMd: FileRead;
  /** Frontmatter parsed from the served SKILL.md (when usable), else the entry's. */
  frontmatter?: Record<string, unknown>;
  /** The SKILL.md source (only when usable: verified, or labelled legacy). */
  text?: string;
  validation?: ValidationResult;
  /** What the user asked to check for: a profile, or `own` (the skill's own format, as the library checks it). */
  profile: ProfileId | 'own';
  /** The profiles the validation ran under (for `own`: the skill's own format). */
  profiles: ProfileId[];
  tree: FileTreeNode;
  directoryRead: boolean;
}

/** One child in a page of a live folder listing, with its verification status (files only). */
export interface DirectoryPageEntry {
  uri: string;
  path?: string;
  status?: FileStatus;
}

/** One page of a live folder listing (`resources/directory/read`) with statuses per child. */
export type DirectoryPage = ReadDirectoryResult & { entries: DirectoryPageEntry[] };
