/**
 * The lock files the `skills` CLI reads and writes, read and written the same way here so each
 * tool sees what the other installed (docs/agents.md, "Lock files"):
 *
 * - a project's `skills-lock.json`: `{version: 1, skills: {name: {source, sourceType,
 *   sourceUrl?, ref?, skillPath?, computedHash}}}`, keys sorted, two-space JSON;
 * - the user's `~/.agents/.skill-lock.json` (`$XDG_STATE_HOME/skills/.skill-lock.json` when
 *   that is set): `{version: 3, skills: {name: {source, sourceType, sourceUrl, ref?, skillPath?,
 *   skillFolderHash, installedAt, updatedAt}}, dismissed: {}}`.
 *
 * What Skillbench adds to an entry lives under one key, `skillbench`, which the CLI carries
 * along untouched. Parsing is pure: a malformed file or one from a newer version is read as far
 * as it can be, marked, and never written back (see {@link LockFile.problem}).
 */
import { isJsonObject } from '../json/values';

/** Which of the two lock files. */
export type LockKind = 'project' | 'global';

/** The version each kind is written with. */
export const LOCK_VERSION: Readonly<Record<LockKind, number>> = { project: 1, global: 3 };

/** Where an installed skill came from, as Skillbench records it. */
export type SkillSource =
  | { kind: 'library'; path: string }
  | { kind: 'folder'; path: string }
  | ArchiveSource
  | { kind: 'git'; url: string; commit: string; skillPath: string }
  | McpSource;

/** An archive (`.zip`, `.skill`, `.tar.gz`) installed through the import reader. */
export interface ArchiveSource {
  kind: 'archive';
  /** Where the archive was when it was installed (read again by `outdated`). */
  path: string;
  /** Its file name. */
  name?: string;
  /** sha256 (hex) of the archive's bytes. */
  sha256?: string;
  /** The skill's folder inside the archive, when the archive holds several. */
  root?: string;
}

/** A skill read and verified from a remote MCP skill server (the inspector). */
export interface McpSource {
  kind: 'mcp';
  /** The connection's label in the inspector. */
  server: string;
  /** The server's URL (or, for a program the inspector started, its command line). */
  url: string;
  /** The skill's `SKILL.md` URI. */
  uri: string;
  /** Each file's digest as verified (`sha256:<hex>`), by path inside the skill. */
  digests: Record<string, string>;
}

/** Skillbench's own part of an entry. */
export interface SkillbenchEntry {
  source: SkillSource;
  mode: 'link' | 'copy';
  /** Hash (see main/agents/hash.ts) of the files as installed: the base for "changed since install". */
  installedHash: string;
  /** When Skillbench installed or last updated it (ISO 8601). */
  installedAt: string;
  /**
   * The agents (ids) it was installed for in this scope. Why: many agents read the shared copy
   * (`.agents/skills`) directly; removing the skill from one agent must not remove that copy
   * while another agent it was installed for still reads it. Missing in entries written before.
   */
  agents?: string[];
  /**
   * The source's version (its folder hash, or for an MCP source its listing's fingerprint) the
   * user chose to keep an edited copy over ("Keep mine"): that version is not offered again, a
   * newer one is. Cleared by the next install or update, which writes the entry anew.
   */
  keptOver?: string;
}

/** One skill's entry, with the fields both tools know. Unknown fields are kept as they were. */
export interface LockEntry {
  source: string;
  sourceType: string;
  sourceUrl?: string;
  ref?: string;
  skillPath?: string;
  /** Project lock: hash of the installed skill. */
  computedHash?: string;
  /** Global lock: hash of the skill's folder at its source. */
  skillFolderHash?: string;
  installedAt?: string;
  updatedAt?: string;
  skillbench?: SkillbenchEntry;
  [other: string]: unknown;
}

/** A lock file as read. */
export interface LockFile {
  kind: LockKind;
  version: number;
  skills: Record<string, LockEntry>;
  /** Everything else at the top level (`dismissed`, `lastSelectedAgents`, …), kept as it was. */
  rest: Record<string, unknown>;
  /**
   * Set when the file must not be written back: it is malformed, or it comes from a newer
   * version of the format. A plain sentence; what could be read is in `skills`.
   */
  problem?: string;
  /** Entries that could not be read (named, with why). */
  skipped: { name: string; why: string }[];
}

/** An empty lock file of the kind. */
export function emptyLock(kind: LockKind): LockFile {
  return {
    kind,
    version: LOCK_VERSION[kind],
    skills: {},
    rest: kind === 'global' ? { dismissed: {} } : {},
    skipped: [],
  };
}

/** Read the Skillbench part of an entry when it has the expected shape. */
function readSkillbench(v: unknown): SkillbenchEntry | undefined {
  if (!isJsonObject(v) || !isJsonObject(v.source)) return undefined;
  const kinds = ['library', 'folder', 'archive', 'git', 'mcp'];
  if (typeof v.source.kind !== 'string' || !kinds.includes(v.source.kind)) return undefined;
  if (v.mode !== 'link' && v.mode !== 'copy') return undefined;
  if (typeof v.installedHash !== 'string') return undefined;
  // Why dropped, not refused: a damaged field only loses what it adds (see SkillbenchEntry).
  const entry = { ...v };
  if (
    entry.agents !== undefined &&
    !(Array.isArray(entry.agents) && entry.agents.every((a) => typeof a === 'string'))
  )
    delete entry.agents;
  if (entry.keptOver !== undefined && typeof entry.keptOver !== 'string') delete entry.keptOver;
  return entry as unknown as SkillbenchEntry;
}

/**
 * Parse a lock file's text. Never throws: a file that is not JSON, or not an object with
 * `version` and `skills`, is read as empty with `problem` set; a newer version is read as far as
 * its entries have the known fields, with `problem` set; an entry without `source` is skipped.
 */
export function parseLock(kind: LockKind, text: string): LockFile {
  const lock = emptyLock(kind);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    lock.problem = `it is not valid JSON (${(error as Error).message})`;
    return lock;
  }
  if (!isJsonObject(data) || typeof data.version !== 'number' || !isJsonObject(data.skills)) {
    lock.problem = 'it does not have the "version" and "skills" the format needs';
    return lock;
  }
  lock.version = data.version;
  if (data.version > LOCK_VERSION[kind])
    lock.problem = `it was written in version ${data.version} of the format, newer than the version ${LOCK_VERSION[kind]} Skillbench knows`;
  else if (data.version < LOCK_VERSION[kind])
    lock.problem = `it was written in version ${data.version} of the format, older than version ${LOCK_VERSION[kind]}; the skills CLI starts such a file afresh`;
  for (const [key, value] of Object.entries(data))
    if (key !== 'version' && key !== 'skills') lock.rest[key] = value;
  for (const [name, value] of Object.entries(data.skills)) {
    if (!isJsonObject(value) || typeof value.source !== 'string') {
      lock.skipped.push({ name, why: 'the entry has no "source"' });
      continue;
    }
    const entry = { ...value } as LockEntry;
    if (typeof entry.sourceType !== 'string') entry.sourceType = 'unknown';
    const sb = readSkillbench(value.skillbench);
    if (sb) entry.skillbench = sb;
    else delete entry.skillbench;
    lock.skills[name] = entry;
  }
  return lock;
}

/** The text of a lock file, as the `skills` CLI writes it (project: keys sorted, final newline). */
export function serializeLock(lock: LockFile): string {
  const names = Object.keys(lock.skills);
  if (lock.kind === 'project') names.sort();
  const skills: Record<string, LockEntry> = {};
  for (const name of names) {
    const entry = lock.skills[name];
    if (entry) skills[name] = entry;
  }
  const data =
    lock.kind === 'project'
      ? { version: lock.version, skills }
      : { version: lock.version, skills, ...lock.rest };
  return JSON.stringify(data, null, 2) + (lock.kind === 'project' ? '\n' : '');
}

/** The `source`/`sourceType`/`sourceUrl` the `skills` CLI shows for a Skillbench source. */
export function cliSourceFields(
  source: SkillSource,
): Pick<LockEntry, 'source' | 'sourceType' | 'sourceUrl' | 'skillPath'> {
  switch (source.kind) {
    case 'library':
    case 'folder':
      return { source: source.path, sourceType: 'local' };
    case 'archive':
      return { source: source.path, sourceType: 'archive' };
    case 'git':
      return {
        source: source.url,
        sourceType: 'git',
        sourceUrl: source.url,
        ...(source.skillPath ? { skillPath: source.skillPath } : {}),
      };
    case 'mcp':
      return { source: source.uri, sourceType: 'mcp', sourceUrl: source.url };
  }
}

/**
 * Where a skill came from, in plain words. `source`: the source as read (main/agents/lock-store.ts
 * `entrySource`, which takes a local folder from the portable `source` field); Skillbench's own
 * record when not given.
 */
export function describeSource(
  entry: LockEntry,
  source: SkillSource | undefined = entry.skillbench?.source,
): string {
  const sb = source;
  if (sb) {
    switch (sb.kind) {
      case 'library':
        return `the library folder ${sb.path}`;
      case 'folder':
        return `the folder ${sb.path}`;
      case 'archive':
        return `the archive ${sb.path}${sb.sha256 ? ` (sha256 ${sb.sha256.slice(0, 12)}…)` : ''}`;
      case 'git':
        return `${sb.url} at commit ${sb.commit.slice(0, 12)}`;
      case 'mcp':
        return `${sb.uri} from the server ${sb.server}${sb.url ? ` (${sb.url})` : ''}`;
    }
  }
  return entry.sourceType === 'local' ? `the folder ${entry.source}` : entry.source;
}
