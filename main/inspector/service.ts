/**
 * The inspector as one service for the app (wired into the contract by main/api):
 * saved connections, connect/reconnect/cancel/disconnect, discovery, skill view, file reads with
 * verification, refresh, report card, protocol log, save to library and export for upload.
 * Every value it returns is plain JSON without secrets. Events: `status`, `log`, `discovered`,
 * `file`, `verified`.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpSource } from '../../shared/agents/lock';
import type { ProfileId } from '../../shared/validation';
import type { FolderFile } from '../platform/staged-folder';
import type { ReadDirectoryResult } from '../../shared/sep';
import { ConnectionStore } from './connection-store';
import type { SecretBox } from './connection-store';
import { discoverSkills, markSameNames, skillFromEntry } from './discovery';
import type { DiscoverOptions } from './discovery';
import { InspectorError } from './errors';
import type { SafetyReviewResult, TrustRequest } from '../../shared/safety';
import { passGate } from '../safety/gate';
import { reviewSkillBytes } from '../safety/service';
import {
  planVerifiedFolder,
  readProvenance,
  recordProvenance,
  verifiedFolderFiles,
  writePlannedFolder,
  writeVerifiedFolder,
  type KeepOptions,
  type VerifiedSkillFiles,
} from './keep';
import type { ProvenanceRecord, SaveResult } from './keep';
import type { OpenBrowser } from './oauth';
import { ProtocolLog } from './protocol-log';
import { reportToJson, reportToMarkdown, runReportCard } from './report-card';
import type { ReportCard } from './report-card';
import { InspectorSession } from './session';
import { fileTree, readSkillFile, skillView, verifySkill } from './skill-reader';
import type { SkillViewData } from './skill-reader';
import type { UnreadableOutput } from './verdict';
import { parseSkillKey, relativePathIn } from './uris';
import { LEGACY_LABEL } from './types';
import type {
  ConnectionInput,
  ConnectionStatus,
  DiscoveryResult,
  FileRead,
  FileTreeNode,
  FileVerification,
  InspectedSkill,
  InspectorLimits,
  ProtocolLogEntry,
  ProtocolLogFilter,
  SavedConnection,
  SkillVerification,
} from './types';

/** Options for {@link InspectorService}. */
export interface InspectorServiceOptions {
  /** The app's data folder: saved connections and provenance live here. */
  dataDir: string;
  /** Where Save's "Replace" moves the old folder (default: Skillbench's trash, see main/platform/trash.ts). */
  trashDir?: string;
  /** Electron `safeStorage` (or none: secrets are then refused for saving). */
  secretBox?: SecretBox;
  /** Opens the OAuth consent page (Electron: `shell.openExternal`). Without it OAuth is off. */
  openBrowser?: OpenBrowser;
  limits?: Partial<InspectorLimits>;
  logCapacity?: number;
}

/** Events of {@link InspectorService}. */
export interface InspectorServiceEvents {
  status: [ConnectionStatus];
  log: [ProtocolLogEntry];
  discovered: [DiscoveryResult];
  file: [{ key: string; verification: FileVerification }];
  verified: [SkillVerification];
}

interface Connection {
  session?: InspectorSession;
  input: ConnectionInput;
  savedId?: string;
  status: ConnectionStatus;
  connecting?: AbortController;
  skills: Map<string, InspectedSkill>;
  statuses: Map<string, Map<string, FileVerification>>;
}

/** Where a connection comes from: a saved one (by id) or a one-off input with its secrets. */
export type ConnectTarget = { savedId: string; label?: string } | ConnectionInput;

/** The verified bytes by the path each file gets in the skill folder. */
function byPath(
  verification: SkillVerification,
  bytes: ReadonlyMap<string, Uint8Array>,
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const f of verification.files) {
    const data = bytes.get(f.uri);
    if (f.path && data) out.set(f.path, data);
  }
  return out;
}

/** The inspector service. */
export class InspectorService extends EventEmitter<InspectorServiceEvents> {
  readonly store: ConnectionStore;
  readonly protocolLog: ProtocolLog;
  private readonly connections = new Map<string, Connection>();
  /**
   * The temp folders of verified copies made for the exporter. Why kept: each is removed when the
   * next export starts (one export dialog is open at a time) and when the inspector closes, so
   * exports no longer leave copies of skills in the temp folder.
   */
  private readonly exportFolders = new Set<string>();

  constructor(private readonly options: InspectorServiceOptions) {
    super();
    this.store = new ConnectionStore(options.dataDir, options.secretBox);
    this.protocolLog = new ProtocolLog(options.logCapacity);
    this.protocolLog.subscribe((e) => this.emit('log', e));
  }

  // ---- saved connections -------------------------------------------------------------------

  /** Saved connections, secrets shown as `hasSecret`. */
  listConnections(): Promise<SavedConnection[]> {
    return this.store.list();
  }

  /** Save or update a connection; secrets are encrypted or refused (no SecretBox). */
  saveConnection(input: ConnectionInput, id?: string): Promise<SavedConnection> {
    return this.store.save(input, id);
  }

  /** Delete a saved connection. */
  removeConnection(id: string): Promise<boolean> {
    return this.store.remove(id);
  }

  // ---- connections ---------------------------------------------------------------------------

  /** Connect (replacing a connection with the same label). Cancel with {@link cancel} or `signal`. */
  async connect(
    target: ConnectTarget,
    options: { signal?: AbortSignal } = {},
  ): Promise<ConnectionStatus> {
    let input: ConnectionInput;
    let savedId: string | undefined;
    let oauthState;
    if ('savedId' in target) {
      const r = await this.store.resolve(target.savedId);
      input = target.label ? { ...r.input, label: target.label } : r.input;
      oauthState = r.oauthState;
      savedId = target.savedId;
    } else input = target;
    if (!input.label.trim()) throw new InspectorError('usage', 'A connection needs a label.');
    await this.disconnect(input.label);
    const ac = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, ac.signal]) : ac.signal;
    const conn: Connection = {
      input,
      savedId,
      connecting: ac,
      status: {
        label: input.label,
        state: 'connecting',
        kind: input.kind,
        target: '',
        skillsExtension: false,
        directoryRead: false,
      },
      skills: new Map(),
      statuses: new Map(),
    };
    this.connections.set(input.label, conn);
    try {
      conn.session = await InspectorSession.open(input, {
        log: this.protocolLog,
        limits: this.options.limits,
        signal,
        openBrowser: this.options.openBrowser,
        oauthState,
        onOAuthState: savedId ? (s) => this.store.saveOAuthState(savedId, s) : undefined,
        onStatus: (s) => {
          conn.status = s;
          this.emit('status', s);
        },
      });
      return conn.status;
    } catch (e) {
      if (this.connections.get(input.label) === conn)
        conn.status = { ...conn.status, state: 'failed', error: (e as Error).message };
      throw e;
    } finally {
      conn.connecting = undefined;
    }
  }

  /** Connect again with the same settings. */
  async reconnect(label: string): Promise<ConnectionStatus> {
    const conn = this.connections.get(label);
    if (!conn)
      throw new InspectorError('not-connected', `There is no connection called "${label}".`);
    return this.connect(conn.savedId ? { savedId: conn.savedId, label } : conn.input);
  }

  /** Cancel a connection attempt or everything in flight on it. */
  cancel(label: string): void {
    const conn = this.connections.get(label);
    conn?.connecting?.abort();
    conn?.session?.cancelInFlight();
  }

  /** Close a connection (stops a stdio server we started) and forget its skills. */
  async disconnect(label: string): Promise<void> {
    const conn = this.connections.get(label);
    if (!conn) return;
    this.connections.delete(label);
    conn.connecting?.abort();
    await conn.session?.close();
    const status: ConnectionStatus = { ...conn.status, state: 'disconnected' };
    this.emit('status', status);
  }

  /** What the server of `label` sent that was not MCP messages, so far (a stdio server writing other text). */
  unreadableOutput(label: string): UnreadableOutput {
    const { count, samples } = this.session(label).session.wire.unreadable;
    return { count, samples: [...samples] };
  }

  /** Status of every connection. */
  status(): ConnectionStatus[] {
    return [...this.connections.values()].map((c) => c.status);
  }

  private session(label: string): { conn: Connection; session: InspectorSession } {
    const conn = this.connections.get(label);
    if (!conn?.session || conn.session.isClosed)
      throw new InspectorError('not-connected', `"${label}" is not connected. Connect first.`);
    return { conn, session: conn.session };
  }

  private skill(key: string): {
    conn: Connection;
    session: InspectorSession;
    skill: InspectedSkill;
    statuses: Map<string, FileVerification>;
  } {
    const parsed = parseSkillKey(key);
    if (!parsed) throw new InspectorError('not-found', 'That is not a skill key.');
    const { conn, session } = this.session(parsed.server);
    const skill = conn.skills.get(key);
    if (!skill)
      throw new InspectorError(
        'not-found',
        `No skill ${parsed.uri} was discovered on "${parsed.server}". Run discovery first.`,
      );
    let statuses = conn.statuses.get(key);
    if (!statuses) conn.statuses.set(key, (statuses = new Map()));
    return { conn, session, skill, statuses };
  }

  // ---- discovery and skills ------------------------------------------------------------------

  /** Discover the skills of a connected server (route recorded); nothing is read ahead of need. */
  async discover(
    label: string,
    options: Omit<DiscoverOptions, 'signal'> & { signal?: AbortSignal } = {},
  ): Promise<DiscoveryResult> {
    const { conn, session } = this.session(label);
    const result = await discoverSkills(session, options);
    conn.skills = new Map(result.skills.map((s) => [s.key, s]));
    conn.statuses = new Map();
    this.markAcrossServers();
    this.emit('discovered', result);
    return result;
  }

  private markAcrossServers(): void {
    markSameNames([...this.connections.values()].flatMap((c) => [...c.skills.values()]));
  }

  /** Every discovered skill (all servers or one), same-named ones side by side with their origin. */
  skills(server?: string): InspectedSkill[] {
    return [...this.connections.values()]
      .filter((c) => server === undefined || c.input.label === server)
      .flatMap((c) => [...c.skills.values()]);
  }

  /** The skill screen's data: verified SKILL.md, frontmatter, validation under `profile`, file tree. */
  async view(key: string, profile?: ProfileId): Promise<SkillViewData> {
    const { session, skill, statuses } = this.skill(key);
    const data = await skillView(session, skill, profile, statuses);
    this.emit('file', { key, verification: data.skillMd.verification });
    return data;
  }

  /** The file tree from the manifest with each file's status so far. */
  tree(key: string): FileTreeNode {
    const { skill, statuses } = this.skill(key);
    return fileTree(skill, statuses);
  }

  /** Read and verify one file; content only when it may be used. */
  async readFile(key: string, uri: string): Promise<FileRead> {
    const { session, skill, statuses } = this.skill(key);
    const r = await readSkillFile(session, skill, uri);
    statuses.set(uri, r.verification);
    this.emit('file', { key, verification: r.verification });
    return r;
  }

  /** One page of a live folder listing (only when the server declared `directoryRead`), with statuses. */
  async readDirectory(
    key: string,
    dirUri: string,
    cursor?: string,
  ): Promise<
    ReadDirectoryResult & {
      entries: { uri: string; path?: string; status?: FileVerification['status'] }[];
    }
  > {
    const { session, skill, statuses } = this.skill(key);
    const page = await session.readDirectoryPage(dirUri, cursor);
    const listed = new Set(Array.isArray(skill.manifest) ? skill.manifest.map((f) => f.uri) : []);
    const entries = page.resources.map((r) => ({
      uri: r.uri,
      path: relativePathIn(skill.rootUri, r.uri),
      status:
        r.mimeType === 'inode/directory'
          ? undefined
          : (statuses.get(r.uri)?.status ??
            (Array.isArray(skill.manifest) && !listed.has(r.uri)
              ? ('unlisted' as const)
              : 'pending')),
    }));
    return { ...page, entries };
  }

  /** Verify every file of a skill (SKILL.md first; unlisted files found by a folder walk fail). */
  async verify(key: string, options: { walk?: boolean } = {}): Promise<SkillVerification> {
    const { session, skill, statuses } = this.skill(key);
    const v = await verifySkill(session, skill, { walk: options.walk });
    for (const f of v.files) {
      statuses.set(f.uri, f);
      this.emit('file', { key, verification: f });
    }
    this.emit('verified', v);
    return v;
  }

  /** File statuses so far. */
  fileStatuses(key: string): FileVerification[] {
    return [...this.skill(key).statuses.values()];
  }

  /** Fetch the entry again through `skills/get` and forget earlier statuses (the "refresh" action). */
  async refresh(key: string): Promise<InspectedSkill> {
    const { conn, session, skill } = this.skill(key);
    if (skill.route !== 'extension')
      throw new InspectorError(
        'protocol',
        'Only skills found through the Skills extension can be refreshed with skills/get.',
      );
    const r = await session.getSkill(skill.uri);
    const problems: string[] = [];
    const fresh = skillFromEntry(session.label, r.skill, problems);
    if (!fresh)
      throw new InspectorError(
        'protocol',
        problems.join(' ') || 'The refreshed entry could not be used.',
      );
    if (fresh.uri !== skill.uri)
      throw new InspectorError(
        'protocol',
        `skills/get answered with ${fresh.uri} instead of ${skill.uri}.`,
      );
    fresh.problems.push(...problems);
    conn.skills.set(key, fresh);
    conn.statuses.set(key, new Map());
    this.markAcrossServers();
    return fresh;
  }

  // ---- report card and log -------------------------------------------------------------------

  /** Check the server against the Skills extension; pass/fail per check with evidence. */
  report(label: string): Promise<ReportCard> {
    return runReportCard(this.session(label).session);
  }

  /** A report card as Markdown. */
  reportMarkdown(report: ReportCard): string {
    return reportToMarkdown(report);
  }

  /** A report card as JSON. */
  reportJson(report: ReportCard): string {
    return reportToJson(report);
  }

  /** Protocol log entries matching the filter. */
  log(filter: ProtocolLogFilter = {}): ProtocolLogEntry[] {
    return this.protocolLog.query(filter);
  }

  /** The protocol log as a JSON document. */
  exportLog(filter: ProtocolLogFilter = {}): string {
    return this.protocolLog.exportJson(filter);
  }

  // ---- keep it -------------------------------------------------------------------------------

  private async verifiedFiles(key: string): Promise<{
    skill: InspectedSkill;
    verification: SkillVerification;
    bytes: Map<string, Uint8Array>;
    conn: Connection;
    session: InspectorSession;
  }> {
    const { conn, session, skill, statuses } = this.skill(key);
    const bytes = new Map<string, Uint8Array>();
    // Why re-read: the bytes written must be the bytes just verified, not an older read.
    const verification = await verifySkill(session, skill, { keepBytes: bytes });
    for (const f of verification.files) statuses.set(f.uri, f);
    this.emit('verified', verification);
    return { skill, verification, bytes, conn, session };
  }

  /** The safety review of a skill's verified files (nothing is written). */
  async review(key: string): Promise<SafetyReviewResult> {
    return (await this.verifyAndReview(key)).review;
  }

  /**
   * Verify a skill and review the bytes just verified, in one read of each file. A skill that is
   * not verified is reviewed too (what was read), since a person deciding wants both answers.
   */
  async verifyAndReview(
    key: string,
  ): Promise<{ verification: SkillVerification; review: SafetyReviewResult }> {
    const { skill, verification, bytes } = await this.verifiedFiles(key);
    const review = await reviewSkillBytes(
      skill.uri,
      byPath(verification, bytes),
      this.options.dataDir,
    );
    return { verification, review };
  }

  /**
   * Write the verified files into `<libraryRoot>/<name>/` and record provenance in the data
   * folder. A name already in the library is returned as a `conflict` until the user chooses
   * (`onConflict`: keep both as `name-N`, or replace with the old folder going to the trash).
   * The safety review runs on the bytes about to be written (a renamed SKILL.md included): a
   * "Don't trust" skill is not written unless `trust` is given (docs/safety-review.md, "Points
   * of trust").
   */
  async saveToLibrary(
    key: string,
    libraryRoot: string,
    trust?: TrustRequest,
    onConflict?: KeepOptions['onConflict'],
  ): Promise<SaveResult> {
    const { skill, verification, bytes, session } = await this.verifiedFiles(key);
    const info = session.statusExtra().serverInfo;
    const verified: VerifiedSkillFiles = {
      name: skill.name,
      uri: skill.uri,
      verification,
      bytes,
      server: {
        label: session.label,
        target: session.status().target,
        name: info?.name,
        version: info?.version,
      },
    };
    const planned = await planVerifiedFolder(verified, libraryRoot, { onConflict });
    if (!planned.ok) return planned;
    const { plan } = planned;
    const written = new Map(plan.files.map((f) => [f.path, new Uint8Array(f.data)] as const));
    const reviewed = await reviewSkillBytes(skill.uri, written, this.options.dataDir);
    const gate = await passGate(reviewed, this.options.dataDir, 'saved', trust);
    if (!gate.allowed)
      return { ok: false, reason: 'safety', message: gate.message ?? '', safety: gate.reviewed };
    const result = await writePlannedFolder(verified, plan, this.options.trashDir);
    if (result.ok) await recordProvenance(this.options.dataDir, result.provenance);
    return result;
  }

  /** A verified copy of the skill in a new temp folder, for the exporter (main/pack). */
  async exportForUpload(key: string): Promise<SaveResult> {
    const { skill, verification, bytes, session } = await this.verifiedFiles(key);
    await this.removeExportFolders();
    const parent = await mkdtemp(join(tmpdir(), 'skillbench-inspector-export-'));
    this.exportFolders.add(parent);
    return writeVerifiedFolder(
      {
        name: skill.name,
        uri: skill.uri,
        verification,
        bytes,
        server: { label: session.label, target: session.status().target },
      },
      parent,
    );
  }

  // ---- install into agents ------------------------------------------------------------------

  /**
   * A discovered skill's files for installing into agents, read and verified again now (the
   * bytes installed are the bytes just verified), with the source record the lock files keep;
   * or, when any file is not verified, the refusal in plain words.
   */
  async installableSkill(
    key: string,
  ): Promise<
    | { ok: true; name: string; files: FolderFile[]; source: McpSource }
    | { ok: false; message: string }
  > {
    const { skill, verification, bytes, session } = await this.verifiedFiles(key);
    return installable(session, skill, verification, bytes);
  }

  /**
   * The session that reaches a recorded source, and how to let it go: the live connection of
   * that label when it reaches the same target; else a one-off connection to the URL (with the
   * saved connection of that label and URL, so its headers and token are used). Why never a
   * program: a lock file is a file anyone can write into a project, and what it names must not
   * start anything; a skill from a program is checked through the live connection only.
   */
  private async sessionFor(
    source: McpSource,
  ): Promise<{ session: InspectorSession; release: () => Promise<void> } | { missing: string }> {
    const live = this.connections.get(source.server);
    if (live?.session && !live.session.isClosed && live.status.target === source.url)
      return { session: live.session, release: async () => undefined };
    if (!/^https?:\/\//i.test(source.url))
      return {
        missing: `Skillbench does not start the program of "${source.server}" by itself; connect to it in the Inspector, then check again.`,
      };
    const saved = (await this.store.list()).find(
      (c) => c.label === source.server && c.url === source.url && c.kind !== 'stdio',
    );
    let input: ConnectionInput = { label: source.server, kind: 'http', url: source.url };
    let oauthState;
    if (saved) ({ input, oauthState } = await this.store.resolve(saved.id));
    try {
      const session = await InspectorSession.open(input, {
        log: this.protocolLog,
        limits: this.options.limits,
        oauthState,
      });
      return { session, release: () => session.close() };
    } catch (error) {
      return {
        missing: `The server "${source.server}" (${source.url}) could not be reached: ${(error as Error).message}`,
      };
    }
  }

  /** The skill of a recorded source as the server lists it now, or why it cannot be found. */
  private async findRemote(
    session: InspectorSession,
    source: McpSource,
  ): Promise<InspectedSkill | { missing: string }> {
    const found = await discoverSkills(session);
    const skill = found.skills.find((s) => s.uri === source.uri);
    if (!skill)
      return {
        missing: `The server "${source.server}" no longer lists ${source.uri}.`,
      };
    return skill;
  }

  /**
   * The digests a server lists now for a recorded skill, by path; nothing of the skill is read.
   * `outdated` compares them with the digests recorded at install.
   */
  async remoteListing(
    source: McpSource,
  ): Promise<{ digests: Record<string, string> } | { missing: string }> {
    const reached = await this.sessionFor(source);
    if ('missing' in reached) return reached;
    try {
      const skill = await this.findRemote(reached.session, source);
      if ('missing' in skill) return skill;
      if (!Array.isArray(skill.manifest))
        return {
          missing: `${source.uri} has no list of files with digests on "${source.server}" any more, so it cannot be compared.`,
        };
      const digests: Record<string, string> = {};
      for (const f of skill.manifest) if (f.path) digests[f.path] = f.digest ?? '';
      return { digests };
    } catch (error) {
      return {
        missing: `"${source.server}" could not list its skills: ${(error as Error).message}`,
      };
    } finally {
      await reached.release();
    }
  }

  /** A recorded skill's files now, every one read and verified again, or why not. */
  async remoteFiles(
    source: McpSource,
  ): Promise<{ name: string; files: FolderFile[]; source: McpSource } | { missing: string }> {
    const reached = await this.sessionFor(source);
    if ('missing' in reached) return reached;
    try {
      const skill = await this.findRemote(reached.session, source);
      if ('missing' in skill) return skill;
      const bytes = new Map<string, Uint8Array>();
      const verification = await verifySkill(reached.session, skill, { keepBytes: bytes });
      const r = installable(reached.session, skill, verification, bytes);
      return r.ok ? r : { missing: r.message };
    } catch (error) {
      return { missing: `"${source.server}" could not be read: ${(error as Error).message}` };
    } finally {
      await reached.release();
    }
  }

  /** Provenance records of skills saved from servers. */
  provenance(): Promise<ProvenanceRecord[]> {
    return readProvenance(this.options.dataDir);
  }

  /** Close every connection, and remove the copies made for the exporter. */
  async close(): Promise<void> {
    for (const label of [...this.connections.keys()]) await this.disconnect(label);
    await this.removeExportFolders();
  }

  /** Remove the verified copies made for earlier exports (best effort: a temp folder). */
  private async removeExportFolders(): Promise<void> {
    for (const folder of [...this.exportFolders]) {
      this.exportFolders.delete(folder);
      await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

/** The verified files and source record of a skill, or why it cannot be installed (plain words). */
function installable(
  session: InspectorSession,
  skill: InspectedSkill,
  verification: SkillVerification,
  bytes: Map<string, Uint8Array>,
):
  | { ok: true; name: string; files: FolderFile[]; source: McpSource }
  | { ok: false; message: string } {
  const r = verifiedFolderFiles(
    {
      name: skill.name,
      uri: skill.uri,
      verification,
      bytes,
      server: { label: session.label, target: session.status().target },
    },
    'installed',
  );
  if (!r.ok) {
    const reasons = [
      ...(skill.route !== 'extension'
        ? [
            `It was found through an older route (${LEGACY_LABEL}), whose files carry no digests to check.`,
          ]
        : []),
      ...verification.problems,
      ...(r.failures ?? []).map(
        (f) => `${f.uri}: ${f.status}${f.reasons.length > 0 ? ` — ${f.reasons.join(' ')}` : ''}`,
      ),
    ];
    return {
      ok: false,
      message:
        r.reason === 'invalid'
          ? r.message
          : `${skill.name} was not installed: only a skill whose every file matches the server's listing can be installed, and this one does not.${[...new Set(reasons)].map((x) => ` ${x}`).join('')} Nothing was written.`,
    };
  }
  const digests: Record<string, string> = {};
  for (const f of verification.files) if (f.path && f.actual) digests[f.path] = f.actual.digest;
  return {
    ok: true,
    name: skill.name,
    files: r.files,
    source: {
      kind: 'mcp',
      server: session.label,
      url: session.status().target,
      uri: skill.uri,
      digests,
    },
  };
}
