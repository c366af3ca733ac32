/**
 * The skill manager: install skills into agents (by link to one canonical copy per scope, as
 * the `skills` CLI does, or by copy), remove them (to the trash, with Undo), compare them with
 * their sources and update them without ever losing a local edit. Every folder is written
 * staged and atomic (main/platform/staged-folder.ts), nothing existing is replaced without the
 * user saying so (the old copy then goes to the trash), and every lock change goes through
 * main/agents/lock-store.ts, which never rewrites a file it could not read whole.
 */
import { readerVerdict } from '../../shared/agent-view/readers';
import type { TrustRequest } from '../../shared/safety';
import { passGate } from '../safety/gate';
import { reviewSkillBytes, reviewSkillFolder, type BytesReview } from '../safety/service';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  agentById,
  alsoLoadedBy,
  AGENTS,
  type AgentSpec,
  sameScope,
  unknownAgentSentence,
} from '../../shared/agents/agents';
import {
  cliSourceFields,
  describeSource,
  type ArchiveSource,
  type LockEntry,
  type McpSource,
  type SkillSource,
} from '../../shared/agents/lock';
import {
  filesChanged,
  lineDiff,
  mergeFolders,
  type FileConflict,
  type FileResolution,
  type FileSides,
  type MergeFile,
} from '../../shared/agents/merge';
import type {
  AgentsOverview,
  InstallCheck,
  InstallOutcome,
  InstallReport,
  MergeResolution,
  OutdatedEntry,
  RemoveReport,
  ScopeRef,
  UpdateChoice,
  UpdateOutcome,
} from '../../shared/agents/types';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { writeFileAtomic } from '../platform/atomic-write';
import { folderProblem } from '../platform/fs-errors';
import { isPlainRelativePath } from '../platform/paths';
import { FileTooLargeError, readBoundedSync } from '../platform/read-file';
import { skillFileAt, skillFileNameIn } from '../skill-folder';
import { readingsOf } from '../skill-folder/agent-readings';
import { exists, writeFolder, type FolderFile } from '../platform/staged-folder';
import { skillFolderNameProblem } from '../../shared/projection';
import { moveAcrossDevices, moveToTrash } from '../platform/trash';
import { listed } from '../../shared/text/words';
import { importSkill } from '../pack/import';
import { validateSkillFolder } from '../validate';
import { cloneAt, remoteHead } from './git-source';
import { folderChanges, folderFiles, hashFolder } from './hash';
import {
  entrySource,
  LockRefusedError,
  portableLocalSource,
  readLockFile,
  updateLockFile,
} from './lock-store';
import {
  agentFolderRefusal,
  agentSkillsDir,
  allAgentSkillDirs,
  canonicalDir,
  describeScope,
  detectAgents,
  isOneFolderName,
  linkOnTheWay,
  NOT_ONE_FOLDER,
  lockPath,
  type AgentEnv,
  type Scope,
} from './paths';
import { entryFor, scanAgents, scopeRef } from './scan';
import {
  installName,
  loadSource,
  renamedSource,
  skillFolderNamed,
  type LoadedSource,
} from './source';

/** What the manager is built on. */
export interface ManagerOptions {
  env: AgentEnv;
  /** Skillbench's data folder: the project list (`agents.json`) and the merge bases (`agents/bases/`). */
  dataDir: string;
  /** Where replaced and removed folders go. */
  trashDir: string;
  /** The library roots (links into them are "linked to a library skill"). */
  libraryRoots: () => Promise<string[]>;
  /** Remote skill servers (the inspector), for skills installed from one; without it they are not checked. */
  remote?: RemoteSkills;
}

/**
 * What the manager asks of the inspector about a skill installed from an MCP server. Why an
 * interface: the connections (and their secrets) live in the inspector; the manager only needs
 * the listing and the verified files.
 */
export interface RemoteSkills {
  /** The digests the server lists now for the skill, by path; nothing of it is read. */
  remoteListing(
    source: McpSource,
  ): Promise<{ digests: Record<string, string> } | { missing: string }>;
  /** The skill's files now, every one read and verified against the listing; or why not. */
  remoteFiles(
    source: McpSource,
  ): Promise<{ name: string; files: FolderFile[]; source: McpSource } | { missing: string }>;
}

/** A skill that is not a folder on disk: an archive's or a server's files, held in memory. */
export interface SkillFiles {
  name: string;
  files: FolderFile[];
  source: SkillSource;
}

/** What to do when a destination already exists. */
export type ConflictChoice = 'ask' | 'rename' | 'replace';

/** One install request. */
export interface InstallRequest {
  /** Skill folders to install (with where each came from). */
  skills: { dir: string; source: SkillSource }[];
  agents: string[];
  scope: Scope;
  /** `link` or `copy`; default per agent: link where it follows links, else copy. */
  mode?: 'link' | 'copy';
  onConflict?: ConflictChoice;
  /** Install a skill the safety review calls "Don't trust" anyway (docs/safety-review.md). */
  trust?: TrustRequest;
}

/** A plain sentence for an error, with the file-system code when there is one. */
function why(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'EACCES' || e?.code === 'EPERM' || e?.code === 'EROFS')
    return `the folder cannot be written (${e.code}${e.path ? `: ${e.path}` : ''})`;
  if (e?.code === 'ENOENT') return `something it needs is missing (${e.path ?? e.message})`;
  // Why no final period: every sentence this reason goes into ends it itself.
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}

/**
 * What is wrong with `dir` as a project folder, in a sentence, or undefined when it is one (a link
 * to a folder counts: a project may live behind a link, ~/code pointing at another disk). The one
 * check of a project folder, for installing into it, adding it, and the command line's --project.
 */
export async function projectFolderProblem(dir: string): Promise<string | undefined> {
  return (await folderProblem(dir, 'project'))?.message;
}

/** True when the path is a link. */
async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The real path, or null. */
async function real(path: string): Promise<string | null> {
  return realpath(path).catch(() => null);
}

/**
 * Whether `hash` has the form of a folder hash (sha256, hex) and so can name a kept merge base.
 * Why: the hash comes from a lock file, and a project's lock comes with the project; as part of
 * a path, "../../elsewhere" would make any folder or file on the computer the base of a merge.
 */
function isFolderHash(hash: string): boolean {
  return /^[0-9a-f]{64}$/.test(hash);
}

/** The skill manager over one environment and data folder. */
/** What an install says when the agent reads a folder that holds the skill already (see install). */
function sharedMessage(skill: string, dest: string, canonical: string, agent: string): string {
  return resolve(dest) === resolve(canonical)
    ? `Installed ${skill} in the shared folder ${canonical}, which ${agent} reads.`
    : `Installed ${skill} in ${dest}, which ${agent} reads.`;
}

export class SkillManager {
  private readonly undo = new Map<string, { from: string; to: string; scope: Scope }[]>();
  /** Projects looked at in this run besides the saved ones (the CLI's current folder). */
  readonly extraProjects: string[] = [];

  constructor(private readonly options: ManagerOptions) {}

  get env(): AgentEnv {
    return this.options.env;
  }

  private get projectsFile(): string {
    return join(this.options.dataDir, 'agents.json');
  }

  /** The project folders the user added, and this run's extra ones. */
  async projects(): Promise<string[]> {
    return [...new Set([...(await this.savedProjects()), ...this.extraProjects])];
  }

  /** The project folders the user added. */
  async savedProjects(): Promise<string[]> {
    try {
      const data = JSON.parse(await readFile(this.projectsFile, 'utf8')) as { projects?: unknown };
      return Array.isArray(data.projects)
        ? data.projects.filter((p): p is string => typeof p === 'string')
        : [];
    } catch {
      return [];
    }
  }

  /** Add a project folder (it must exist and be a folder). */
  async addProject(dir: string): Promise<string[]> {
    const abs = resolve(dir);
    const problem = await projectFolderProblem(abs);
    if (problem !== undefined) throw new Error(problem);
    const projects = await this.savedProjects();
    if (!projects.includes(abs)) projects.push(abs);
    await mkdir(this.options.dataDir, { recursive: true });
    await writeFileAtomic(this.projectsFile, `${JSON.stringify({ projects }, null, 2)}\n`);
    return projects;
  }

  /** Forget a project folder (nothing in it is touched). */
  async removeProject(dir: string): Promise<string[]> {
    const projects = (await this.savedProjects()).filter((p) => p !== resolve(dir));
    await mkdir(this.options.dataDir, { recursive: true });
    await writeFileAtomic(this.projectsFile, `${JSON.stringify({ projects }, null, 2)}\n`);
    return projects;
  }

  /** Where linked skill folders may point: every agent skills folder and the library roots. */
  async policyRoots(extraProjects: readonly string[] = []): Promise<string[]> {
    const projects = [...new Set([...(await this.projects()), ...extraProjects])];
    return [...allAgentSkillDirs(this.env, projects), ...(await this.options.libraryRoots())];
  }

  /** Every agent (detected, or holding skills) and what it loads. */
  async overview(
    options: { agents?: string[]; all?: boolean; projects?: string[] } = {},
  ): Promise<AgentsOverview> {
    const projects = [...new Set([...(await this.projects()), ...(options.projects ?? [])])];
    const libraryRoots = await this.options.libraryRoots();
    const scanned = await scanAgents(
      {
        env: this.env,
        projects,
        libraryRoots,
        policyRoots: [...allAgentSkillDirs(this.env, projects), ...libraryRoots],
      },
      options,
    );
    return {
      agents: scanned.agents,
      projects,
      lockProblems: scanned.lockProblems,
      unlisted: scanned.unlisted,
    };
  }

  /** The agents found on this computer. */
  async detected(): Promise<AgentSpec[]> {
    return detectAgents(this.env, await this.projects());
  }

  /** The verdict of each skill for each agent's reader, and the skill's safety review. */
  async check(dirs: string[], agents: string[]): Promise<InstallCheck[]> {
    const checks: InstallCheck[] = [];
    for (const dir of dirs) {
      let safety: InstallCheck['safety'];
      try {
        const r = await reviewSkillFolder(dir, this.options.dataDir);
        safety = {
          verdict: r.report.verdict,
          headline: r.report.headline,
          summary: r.report.summary,
          findings: r.report.findings.length,
          accepted: r.accepted !== undefined,
          hash: r.hash,
        };
      } catch {
        safety = undefined;
      }
      for (const id of agents) {
        const spec = agentById(id);
        if (!spec) continue;
        try {
          const result = await validateSkillFolder(dir, { profiles: [spec.profile] });
          // Why warnings too: "valid, with warnings" and nothing said of them leaves the user
          // guessing what to look at.
          const judged = readerVerdict(
            spec.id,
            spec.profile,
            result.verdicts[spec.profile] ?? 'valid',
            result.diagnostics,
            readingsOf(spec.id, dir),
          );
          checks.push({
            skill: dir,
            agent: id,
            verdict: judged.verdict,
            problems: judged.problems.slice(0, 5),
            ...(judged.notAsWritten ? { notAsWritten: true } : {}),
            ...(safety ? { safety } : {}),
          });
        } catch (error) {
          checks.push({ skill: dir, agent: id, verdict: 'error', problems: [why(error)] });
        }
      }
    }
    return checks;
  }

  /**
   * Run `use` on a skill held in memory, written first into a temp folder of its own with the
   * one staged writer. Why a folder: the checks for each agent's reader, the file set and the
   * install itself then run exactly as for a library skill. The temp folder is removed after.
   */
  private async staged<T>(skill: SkillFiles, use: (dir: string) => Promise<T>): Promise<T> {
    const parent = await mkdtemp(join(tmpdir(), 'skillbench-install-'));
    try {
      const name =
        skillFolderNameProblem(skill.name) === undefined ? skill.name : installName(skill.name);
      const dir = join(parent, name);
      await writeFolder(dir, skill.files);
      return await use(dir);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  }

  /** The verdict of a skill held in memory for each agent's reader (see {@link staged}). */
  async checkFiles(skill: SkillFiles, agents: string[]): Promise<InstallCheck[]> {
    return this.staged(skill, async (dir) =>
      (await this.check([dir], agents)).map((c) => ({ ...c, skill: skill.name })),
    );
  }

  /** Install a skill held in memory (an archive's, a server's verified files) like a folder. */
  async installFiles(
    skill: SkillFiles,
    request: Omit<InstallRequest, 'skills'>,
  ): Promise<InstallReport> {
    return this.staged(skill, (dir) =>
      this.install({ ...request, skills: [{ dir, source: skill.source }] }),
    );
  }

  /**
   * Read an archive (`.zip`, `.skill`, `.tar.gz`, `.tar`) through the one import reader, which
   * refuses hostile archives, into a temp folder; `use` gets the skill folder and its source
   * record. A refusal is a plain sentence; nothing is written anywhere but the temp folder,
   * which is removed after.
   */
  private async readArchive<T>(
    archive: string,
    pick: string | undefined,
    use: (dir: string, source: ArchiveSource) => Promise<T>,
  ): Promise<T | { refused: string }> {
    const path = resolve(archive);
    const name = basename(path);
    const st = await stat(path).catch(() => null);
    if (!st?.isFile() || name.toLowerCase() === 'skill.md')
      return {
        refused: `${path} is not an archive. Give a .zip, .skill, .tar.gz (.tgz) or .tar file.`,
      };
    const sha256 = await sha256File(path);
    const parent = await mkdtemp(join(tmpdir(), 'skillbench-archive-'));
    try {
      const result = await importSkill(path, {
        into: parent,
        ...(pick !== undefined ? { pick } : {}),
        trashDir: this.options.trashDir,
      });
      if (result.status === 'refused')
        return { refused: `${name} was refused: ${result.refusal.message}` };
      // Why its own words: the import's "Pick the one to import" does not say how to pick here.
      if (result.status === 'choose')
        return {
          refused: `${name} holds ${result.skills.length} skills (folders ${result.skills.map((s) => s.root || '(root)').join(', ')}); name the one to install by its folder (on the command line: skillbench install --archive ${name} FOLDER --agent …).`,
        };
      if (result.status !== 'imported') return { refused: result.message };
      return await use(result.dir, {
        kind: 'archive',
        path,
        name,
        sha256,
        ...(result.skill.root ? { root: result.skill.root } : {}),
      });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  }

  /** Install the skill in an archive (see {@link readArchive}); `pick` names one of several. */
  async installArchive(
    archive: string,
    request: Omit<InstallRequest, 'skills'>,
    pick?: string,
  ): Promise<InstallReport> {
    const r = await this.readArchive(archive, pick, (dir, source) =>
      this.install({ ...request, skills: [{ dir, source }] }),
    );
    if (!('refused' in r)) return r;
    return {
      checks: [],
      lockNotes: [],
      outcomes: request.agents.map((agent) => ({
        skill: basename(archive),
        agent,
        status: 'refused' as const,
        message: `${r.refused} Nothing was installed.`,
      })),
    };
  }

  /** Where the merge base of a hash is kept: every file that was installed. */
  private baseDir(hash: string): string {
    return join(this.options.dataDir, 'agents', 'bases', hash);
  }

  /** Where the first version kept only SKILL.md of a base (read still, never written). */
  private legacyBasePath(hash: string): string {
    return join(this.options.dataDir, 'agents', 'bases', `${hash}.md`);
  }

  /**
   * Keep every file that was installed, the base of a later merge (docs/agents.md, "Updates").
   * Why the whole folder: a merge of SKILL.md alone overwrote the user's edits to other files.
   */
  private async keepBase(loaded: LoadedSource): Promise<void> {
    const dir = this.baseDir(loaded.hash);
    if (await exists(dir)) return;
    try {
      await writeFolder(dir, loaded.files);
    } catch (error) {
      // Why: another Skillbench may have kept the same base in the meantime; that one is as good.
      if (!(await exists(dir))) throw error;
    }
  }

  /** The files of the base `hash` by path, or null when Skillbench does not know it. */
  private async readBase(hash: string): Promise<Map<string, Uint8Array> | null> {
    if (!isFolderHash(hash)) return null;
    const dir = this.baseDir(hash);
    if (await exists(dir))
      return new Map((await folderFiles(dir)).map((f) => [f.path, f.data] as const));
    const legacy = await readFile(this.legacyBasePath(hash)).catch(() => null);
    return legacy === null ? null : new Map([['SKILL.md', legacy]]);
  }

  /** Whether a merge base is kept for `hash`. */
  private async hasBase(hash: string): Promise<boolean> {
    if (!isFolderHash(hash)) return false;
    return (await exists(this.baseDir(hash))) || (await exists(this.legacyBasePath(hash)));
  }

  /** Record an install in the scope's lock file; a refusal becomes a note, never a silent skip. */
  private async record(
    scope: Scope,
    loaded: LoadedSource,
    mode: 'link' | 'copy',
    notes: string[],
    /** The agents it was installed for now; those recorded before are kept (see SkillbenchEntry.agents). */
    agents: readonly string[] = [],
  ): Promise<void> {
    const now = new Date().toISOString();
    const kind = scope.kind === 'global' ? 'global' : 'project';
    const path = lockPath(scope, this.env);
    try {
      await updateLockFile(kind, path, (lock) => {
        const previous = lock.skills[loaded.name];
        const fields = cliSourceFields(loaded.source);
        if (kind === 'project' && fields.sourceType === 'local')
          fields.source = portableLocalSource(fields.source, dirname(path));
        const entry: LockEntry = {
          ...fields,
          ...(kind === 'project'
            ? { computedHash: loaded.hash }
            : {
                skillFolderHash: loaded.hash,
                installedAt: previous?.installedAt ?? now,
                updatedAt: now,
              }),
          skillbench: {
            source: loaded.source,
            mode,
            installedHash: loaded.hash,
            installedAt: now,
            agents: [...new Set([...(previous?.skillbench?.agents ?? []), ...agents])],
          },
        };
        lock.skills[loaded.name] = entry;
      });
      await this.keepBase(loaded);
    } catch (error) {
      notes.push(
        error instanceof LockRefusedError
          ? `${loaded.name} was installed but not recorded: ${error.message}`
          : `${loaded.name} was installed but ${path} could not be written: ${why(error)}.`,
      );
    }
  }

  /**
   * Record that the user kept their edited copy over the source's `version`, so it is not
   * offered again. False when it cannot be recorded: the entry has no Skillbench part (another
   * tool installed it) or the lock file is refused or cannot be written; the copy is kept anyway.
   */
  private async rememberKept(scope: Scope, name: string, version: string): Promise<boolean> {
    const kind = scope.kind === 'global' ? 'global' : 'project';
    const path = lockPath(scope, this.env);
    if (!(await readLockFile(kind, path)).lock.skills[name]?.skillbench) return false;
    let recorded = false;
    try {
      await updateLockFile(kind, path, (lock) => {
        const sb = lock.skills[name]?.skillbench;
        if (!sb) return;
        sb.keptOver = version;
        recorded = true;
      });
    } catch {
      // Why quiet: keeping the copy needs nothing written; the version is offered again instead.
      return false;
    }
    return recorded;
  }

  /** Make `dest` a link to `target` (relative, as the `skills` CLI makes them). */
  private async link(target: string, dest: string): Promise<void> {
    await mkdir(dirname(dest), { recursive: true });
    const parent = (await real(dirname(dest))) ?? dirname(dest);
    // Why a junction on Windows: making a symbolic link there needs a privilege most users lack.
    if (process.platform === 'win32') await symlink(resolve(target), dest, 'junction');
    else await symlink(relative(parent, target), dest);
  }

  /** Install skills into agents (see {@link InstallRequest}). */
  async install(request: InstallRequest): Promise<InstallReport> {
    const report: InstallReport = { checks: [], outcomes: [], lockNotes: [] };
    // Folders this request wrote, so an agent that reads one written for another agent a moment
    // ago (Codex reads the shared copy a link for Claude Code needs) is told it was installed.
    const writtenNow = new Set<string>();
    const onConflict = request.onConflict ?? 'ask';
    const specs: AgentSpec[] = [];
    for (const id of request.agents) {
      const spec = agentById(id);
      if (spec) specs.push(spec);
      else
        report.outcomes.push({
          skill: '',
          agent: id,
          status: 'refused',
          message: unknownAgentSentence(id),
        });
    }
    // Why: a mistyped project folder would otherwise be made, with the skill in it, unnoticed.
    const projectProblem =
      request.scope.kind === 'project' ? await projectFolderProblem(request.scope.dir) : undefined;
    if (projectProblem !== undefined) {
      for (const spec of specs)
        report.outcomes.push({
          skill: '',
          agent: spec.id,
          status: 'refused',
          message: `${projectProblem} Nothing was installed.`,
        });
      return report;
    }
    for (const wanted of request.skills) {
      let loaded: LoadedSource;
      try {
        loaded = await loadSource(wanted.dir, wanted.source);
      } catch (error) {
        for (const spec of specs)
          report.outcomes.push({
            skill: wanted.dir,
            agent: spec.id,
            status: 'failed',
            message: `${wanted.dir} could not be read, so nothing was installed: ${why(error)}.`,
          });
        continue;
      }
      const checks = await this.check(
        [wanted.dir],
        specs.map((s) => s.id),
      );
      report.checks.push(...checks.map((c) => ({ ...c, skill: loaded.name })));
      // The point of trust: a "Don't trust" skill reaches no agent unless the user accepted it.
      const gate = await passGate(
        await reviewSkillFolder(wanted.dir, this.options.dataDir),
        this.options.dataDir,
        'installed',
        request.trust,
      );
      if (!gate.allowed) {
        for (const spec of specs)
          report.outcomes.push({
            skill: loaded.name,
            agent: spec.id,
            status: 'refused',
            message: gate.message ?? '',
          });
        continue;
      }
      const allowed = specs.filter((spec) => {
        const check = checks.find((c) => c.agent === spec.id);
        if (check?.verdict !== 'error') return true;
        report.outcomes.push({
          skill: loaded.name,
          agent: spec.id,
          status: 'refused',
          message: `${loaded.name} was not installed for ${spec.name}: its reader would reject it (${check.problems.join(' ') || 'errors in SKILL.md'}). Fix them first.`,
        });
        return false;
      });
      if (allowed.length === 0) continue;
      if (onConflict === 'rename') loaded = await this.freeName(loaded, allowed, request);
      const modes = new Set<'link' | 'copy'>();
      const installedFor: string[] = [];
      for (const spec of allowed) {
        const outcome = await this.installOne(loaded, spec, request, onConflict, writtenNow);
        report.outcomes.push(outcome);
        if ((outcome.status === 'installed' || outcome.status === 'already') && outcome.mode) {
          modes.add(outcome.mode);
          installedFor.push(spec.id);
        }
      }
      // Why the lock is written after the files: an entry never names a copy that is not there.
      if (modes.size > 0)
        await this.record(
          request.scope,
          loaded,
          modes.has('link') ? 'link' : 'copy',
          report.lockNotes,
          installedFor,
        );
    }
    if (report.outcomes.some((o) => o.status === 'installed' || o.status === 'already')) {
      const note = alsoLoadedBy(
        await this.detected(),
        request.agents,
        request.scope.kind,
        request.mode ?? 'auto',
      );
      if (note) report.alsoLoadedBy = note.sentence;
    }
    return report;
  }

  /** The first `<name>`, `<name>-2`, … free in every destination of the request. */
  private async freeName(
    loaded: LoadedSource,
    specs: AgentSpec[],
    request: InstallRequest,
  ): Promise<LoadedSource> {
    for (let n = 1; n < 1000; n++) {
      const name = n === 1 ? loaded.name : `${loaded.name}-${n}`;
      const places = [join(canonicalDir(request.scope, this.env), name)];
      for (const spec of specs) {
        const dir = agentSkillsDir(spec, request.scope, this.env);
        if (dir) places.push(join(dir, name));
      }
      let free = true;
      for (const p of places) if (await exists(p)) free = false;
      if (free) return n === 1 ? loaded : renamedSource(loaded, name);
    }
    return loaded;
  }

  /** Whether the folder at `path` holds exactly the files of `loaded`. */
  private async sameFiles(path: string, loaded: LoadedSource): Promise<boolean> {
    try {
      return (await hashFolder(path)) === loaded.hash;
    } catch {
      return false;
    }
  }

  /** Put the skill's files at `dest`, staged; an existing folder is replaced only when told. */
  private async writeCopy(
    loaded: LoadedSource,
    dest: string,
    replace: boolean,
  ): Promise<{ trashedTo?: string }> {
    const files: FolderFile[] = loaded.files;
    return writeFolder(dest, files, { replace, trashDir: this.options.trashDir });
  }

  private async installOne(
    loaded: LoadedSource,
    spec: AgentSpec,
    request: InstallRequest,
    onConflict: ConflictChoice,
    writtenNow: Set<string>,
  ): Promise<InstallOutcome> {
    const base = { skill: loaded.name, agent: spec.id };
    const folder = agentSkillsDir(spec, request.scope, this.env);
    if (folder === null)
      return {
        ...base,
        status: 'refused',
        message: `${spec.name} has no folder for skills of ${describeScope(request.scope)}; install it into a project instead.`,
      };
    const mode = request.mode ?? (spec.followsLinks ? 'link' : 'copy');
    const dest = join(folder, loaded.name);
    const replace = onConflict === 'replace';
    const canonical = join(canonicalDir(request.scope, this.env), loaded.name);
    const refusal =
      (await agentFolderRefusal(request.scope, folder, dest)) ??
      (mode === 'link' ? await agentFolderRefusal(request.scope, null, canonical) : undefined);
    if (refusal !== undefined)
      return {
        ...base,
        status: 'refused',
        message: `${refusal} Nothing was installed for ${spec.name}.`,
      };
    try {
      if (mode === 'copy') {
        if (await exists(dest)) {
          if (!(await isLink(dest)) && (await this.sameFiles(dest, loaded))) {
            if (writtenNow.has(resolve(dest)))
              return {
                ...base,
                status: 'installed',
                mode,
                path: dest,
                message: sharedMessage(loaded.name, dest, canonical, spec.name),
              };
            return {
              ...base,
              status: 'already',
              mode,
              path: dest,
              message: `${loaded.name} is already installed for ${spec.name}, unchanged.`,
            };
          }
          if (!replace) return this.conflict(base, dest);
        }
        const written = await this.writeCopy(loaded, dest, replace);
        writtenNow.add(resolve(dest));
        return {
          ...base,
          status: 'installed',
          mode,
          path: dest,
          message: `Copied ${loaded.name} into ${dest}.`,
          ...(written.trashedTo ? { trashedTo: written.trashedTo } : {}),
        };
      }
      // Why every refusal comes before any write: a conflict in the agent's folder must leave
      // nothing behind, not even the shared copy, which other agents read (writing it would
      // install the skill for them while this one was refused).
      const canonicalThere = await exists(canonical);
      const canonicalStale =
        canonicalThere && ((await isLink(canonical)) || !(await this.sameFiles(canonical, loaded)));
      if (canonicalStale && !replace) return this.conflict(base, canonical);
      const separate = resolve(dest) !== resolve(canonical);
      const destThere = separate && (await exists(dest));
      let linkedAlready = false;
      if (destThere && canonicalThere && (await isLink(dest))) {
        const [a, b] = await Promise.all([real(dest), real(canonical)]);
        linkedAlready = a !== null && a === b;
      }
      if (destThere && !linkedAlready && !replace) return this.conflict(base, dest);
      let trashedTo: string | undefined;
      if (canonicalStale || !canonicalThere) {
        trashedTo = (await this.writeCopy(loaded, canonical, canonicalStale)).trashedTo;
        writtenNow.add(resolve(canonical));
      }
      // Why "already" only when nothing was written in this request: an agent that reads the
      // shared copy another agent's install wrote a moment ago was installed by it.
      if (!separate && !writtenNow.has(resolve(canonical)))
        return {
          ...base,
          status: 'already',
          mode,
          path: canonical,
          message: `${loaded.name} is already installed for ${spec.name}, unchanged.`,
        };
      if (!separate)
        return {
          ...base,
          status: 'installed',
          mode,
          path: canonical,
          message: sharedMessage(loaded.name, canonical, canonical, spec.name),
          ...(trashedTo ? { trashedTo } : {}),
        };
      if (linkedAlready)
        return {
          ...base,
          status: 'already',
          mode,
          path: dest,
          message: `${loaded.name} is already linked for ${spec.name}.`,
        };
      if (destThere) trashedTo = await moveToTrash(dest, this.options.trashDir);
      try {
        await this.link(canonical, dest);
      } catch (error) {
        // Why a copy then: links may be refused (Windows without the privilege, some file systems); the user is told.
        await this.writeCopy(loaded, dest, false);
        return {
          ...base,
          status: 'installed',
          mode: 'copy',
          path: dest,
          message: `A link could not be made (${why(error)}), so ${loaded.name} was copied into ${dest} instead.`,
        };
      }
      return {
        ...base,
        status: 'installed',
        mode,
        path: dest,
        message: `Linked ${dest} to ${canonical}.`,
        ...(trashedTo ? { trashedTo } : {}),
      };
    } catch (error) {
      return {
        ...base,
        status: 'failed',
        message: `${loaded.name} was not installed for ${spec.name}: ${why(error)}. Nothing at ${dest} was changed.`,
      };
    }
  }

  private conflict(base: { skill: string; agent: string }, existing: string): InstallOutcome {
    return {
      ...base,
      status: 'conflict',
      existing,
      message: `${existing} already exists and holds something else. Choose: rename (install as ${base.skill}-2), replace (the old copy goes to the trash), or cancel. Nothing was changed.`,
    };
  }

  /**
   * Remove a skill (by folder or skill name) from agents in a scope: each agent's entry (the
   * link itself, or the copy) goes to the trash. The canonical copy goes too when no remaining
   * link points to it; the lock entry when no copy remains. Undo puts everything back.
   */
  async uninstall(name: string, agents: string[], scope: Scope): Promise<RemoveReport> {
    const report: RemoveReport = { removed: [], kept: [], notFound: [], lockNotes: [] };
    if (!isOneFolderName(name)) {
      report.kept.push(`"${name}" ${NOT_ONE_FOLDER}, so nothing was removed.`);
      return report;
    }
    const moved: { from: string; to: string; scope: Scope }[] = [];
    const canonical = join(canonicalDir(scope, this.env), name);
    const canonicalReal = await real(canonical);
    for (const id of agents) {
      const spec = agentById(id);
      const folder = spec ? agentSkillsDir(spec, scope, this.env) : null;
      if (!spec || folder === null) {
        report.notFound.push(
          `${id}: no such agent, or it has no folder in ${describeScope(scope)}`,
        );
        continue;
      }
      const path = join(folder, name);
      if (!(await exists(path))) {
        if (!report.removed.some((r) => r.path === path))
          report.notFound.push(`${spec.name}: ${path} does not exist`);
        continue;
      }
      if (resolve(path) === resolve(canonical)) continue;
      const through = await linkOnTheWay(scope, path);
      if (through !== undefined) {
        report.kept.push(
          `${path} was left as it was: ${through}, and Skillbench does not remove anything through a link in a project.`,
        );
        continue;
      }
      try {
        const to = await moveToTrash(path, this.options.trashDir);
        moved.push({ from: path, to, scope });
        report.removed.push({ agent: id, path, trashedTo: to });
      } catch (error) {
        report.kept.push(
          `${path} could not be moved to the trash: ${why(error)}; it was left as it was.`,
        );
      }
    }
    // The canonical copy: removed when one of the agents asked reads it directly, and nothing else links to it.
    const readsCanonical = agents.some((id) => {
      const spec = agentById(id);
      const dir = spec ? agentSkillsDir(spec, scope, this.env) : null;
      return dir !== null && resolve(join(dir, name)) === resolve(canonical);
    });
    const canonicalThrough = await linkOnTheWay(scope, canonical);
    if (canonicalThrough !== undefined && (await exists(canonical)))
      report.kept.push(
        `${canonical} was left as it was: ${canonicalThrough}, and Skillbench does not remove anything through a link in a project.`,
      );
    else if (await exists(canonical)) {
      const linkers: string[] = [];
      for (const spec of AGENTS) {
        const dir = agentSkillsDir(spec, scope, this.env);
        if (!dir) continue;
        const p = join(dir, name);
        if (resolve(p) === resolve(canonical) || !(await isLink(p))) continue;
        if (
          canonicalReal !== null &&
          (await real(p)) === canonicalReal &&
          !linkers.includes(spec.name)
        )
          linkers.push(spec.name);
      }
      const entry = await this.lockEntry(scope, name);
      // The agents it was installed for, not asked now, that read this copy where it is: removing
      // it would uninstall the skill for them too.
      const readers: string[] = [];
      for (const id of entry?.skillbench?.agents ?? []) {
        const spec = agentById(id);
        const dir = spec ? agentSkillsDir(spec, scope, this.env) : null;
        if (spec && dir !== null && !agents.includes(id) && !readers.includes(spec.name))
          if (resolve(join(dir, name)) === resolve(canonical)) readers.push(spec.name);
      }
      const wouldGo =
        readsCanonical ||
        (linkers.length === 0 &&
          moved.some((m) => m.from !== canonical) &&
          entry?.skillbench?.mode === 'link');
      if (readsCanonical && linkers.length > 0)
        report.kept.push(
          `${canonical} was kept: ${listed(linkers)} still ${linkers.length === 1 ? 'links' : 'link'} to it, and the agents that read ${dirname(canonical)} will still load it.`,
        );
      else if (wouldGo && readers.length > 0)
        report.kept.push(
          `${canonical} was kept: it was installed for ${listed(readers)} too, which ${readers.length === 1 ? 'reads' : 'read'} it from there. Uninstall it for ${readers.length === 1 ? readers[0] : 'them'} as well to remove it.`,
        );
      else if (wouldGo) {
        try {
          const to = await moveToTrash(canonical, this.options.trashDir);
          moved.push({ from: canonical, to, scope });
          report.removed.push({ agent: 'shared', path: canonical, trashedTo: to });
        } catch (error) {
          report.kept.push(`${canonical} could not be moved to the trash: ${why(error)}.`);
        }
      }
    }
    if (moved.length > 0) {
      const left = (await this.anyCopyLeft(scope, name))
        ? await this.agentsHolding(scope, name)
        : undefined;
      try {
        await updateLockFile(
          scope.kind === 'global' ? 'global' : 'project',
          lockPath(scope, this.env),
          (lock) => {
            const found = entryFor(lock, name);
            if (!found) return;
            // Why: the entry goes with the last copy; until then it names the agents still holding one.
            if (left === undefined) delete lock.skills[found[0]];
            else if (found[1].skillbench?.agents)
              found[1].skillbench.agents = found[1].skillbench.agents.filter((id) => left.has(id));
          },
        );
      } catch (error) {
        report.lockNotes.push(error instanceof LockRefusedError ? error.message : why(error));
      }
    }
    // Why: an entry whose copies were all deleted by hand would otherwise stay forever, reported
    // by `outdated` with no way to act on it; asking to uninstall the skill settles it.
    if (
      moved.length === 0 &&
      report.kept.length === 0 &&
      (await this.lockEntry(scope, name)) !== undefined &&
      !(await this.anyCopyLeft(scope, name))
    ) {
      const file = lockPath(scope, this.env);
      try {
        let found = false;
        await updateLockFile(scope.kind === 'global' ? 'global' : 'project', file, (lock) => {
          const entry = entryFor(lock, name);
          if (entry) delete lock.skills[entry[0]];
          found = entry !== undefined;
        });
        if (found) report.forgotten = file;
      } catch (error) {
        report.lockNotes.push(error instanceof LockRefusedError ? error.message : why(error));
      }
    }
    if (moved.length > 0) {
      const token = randomBytes(8).toString('hex');
      this.undo.set(token, moved);
      report.undoToken = token;
    }
    return report;
  }

  /** The lock entry of a skill in a scope, if any. */
  private async lockEntry(scope: Scope, name: string): Promise<LockEntry | undefined> {
    const stored = await readLockFile(
      scope.kind === 'global' ? 'global' : 'project',
      lockPath(scope, this.env),
    );
    return entryFor(stored.lock, name)?.[1];
  }

  /** The agents (ids) whose folder in the scope holds `name`. */
  private async agentsHolding(scope: Scope, name: string): Promise<Set<string>> {
    const out = new Set<string>();
    for (const spec of AGENTS) {
      const dir = agentSkillsDir(spec, scope, this.env);
      if (dir && (await exists(join(dir, name)))) out.add(spec.id);
    }
    return out;
  }

  /** Whether any agent folder of the scope still holds `name`. */
  private async anyCopyLeft(scope: Scope, name: string): Promise<boolean> {
    const dirs = new Set([canonicalDir(scope, this.env)]);
    for (const spec of AGENTS) {
      const dir = agentSkillsDir(spec, scope, this.env);
      if (dir) dirs.add(dir);
    }
    for (const dir of dirs) if (await exists(join(dir, name))) return true;
    return false;
  }

  /** Put back what a removal moved to the trash. Refuses a path that is taken again. */
  async restore(token: string): Promise<{ restored: string[]; refused: string[] }> {
    const moved = this.undo.get(token);
    if (!moved) return { restored: [], refused: ['That removal can no longer be undone.'] };
    const restored: string[] = [];
    const refused: string[] = [];
    // Why in reverse: the canonical copy comes back before the links to it.
    for (const m of [...moved].reverse()) {
      if (await exists(m.from)) {
        refused.push(`${m.from} exists again, so the removed copy stays in ${m.to}.`);
        continue;
      }
      const through = await linkOnTheWay(m.scope, m.from);
      if (through !== undefined) {
        refused.push(
          `${m.from} was not put back: ${through} now, and Skillbench does not write through a link in a project; the removed copy stays in ${m.to}.`,
        );
        continue;
      }
      try {
        await mkdir(dirname(m.from), { recursive: true });
        await moveAcrossDevices(m.to, m.from);
        restored.push(m.from);
      } catch (error) {
        refused.push(`${m.from} could not be put back: ${why(error)}; it is in ${m.to}.`);
      }
    }
    this.undo.delete(token);
    return { restored, refused };
  }

  /** Every installed copy of `name` in a scope that holds files (links resolved to their copies). */
  private async copiesOf(scope: Scope, name: string): Promise<string[]> {
    const dirs = new Set([canonicalDir(scope, this.env)]);
    for (const spec of AGENTS) {
      const dir = agentSkillsDir(spec, scope, this.env);
      if (dir) dirs.add(dir);
    }
    const out: string[] = [];
    for (const dir of dirs) {
      const p = join(dir, name);
      if ((await exists(p)) && !(await isLink(p)) && !out.includes(p)) out.push(p);
    }
    return out;
  }

  /**
   * Read a source's current files: a folder, a git repository at its newest commit, an archive
   * through the import reader, a server's skill read and verified again.
   */
  private async sourceNow(
    name: string,
    entry: LockEntry,
    lockDir: string,
    /** The installed copies: never their own source, even inside the folder the source names. */
    copies: readonly string[],
  ): Promise<{ loaded: LoadedSource; cleanup?: () => Promise<void> } | { missing: string }> {
    const record = entrySource(entry, lockDir);
    if (!record)
      return {
        missing: `Skillbench cannot read a ${entry.sourceType} source (${entry.source}); use the tool that installed it.`,
      };
    if (record.kind === 'library' || record.kind === 'folder') {
      if (!(await exists(record.path)))
        return { missing: `The source folder ${record.path} no longer exists.` };
      let dir = record.path;
      // Why: the skills CLI records the folder given to `skills add`, and finds the skill in it by name.
      if ((await skillFileAt(dir)) === undefined) {
        const found = await skillFolderNamed(dir, name, copies);
        if (found === undefined)
          return { missing: `The source folder ${record.path} holds no skill named ${name} now.` };
        dir = found;
      }
      try {
        return { loaded: await loadSource(dir, record) };
      } catch (error) {
        return { missing: `The source ${record.path} could not be read: ${why(error)}.` };
      }
    }
    if (record.kind === 'git') {
      // Why: the path comes from a lock file; "../.." would read a folder outside the clone.
      if (record.skillPath !== '' && !isPlainRelativePath(record.skillPath))
        return {
          missing: `The lock file gives the skill's place in ${record.url} as "${record.skillPath}", which is not a path inside the repository.`,
        };
      try {
        const head = await remoteHead(record.url);
        const clone = await cloneAt(record.url, head);
        const dir =
          record.skillPath === '' ? clone.dir : join(clone.dir, ...record.skillPath.split('/'));
        if (!(await exists(dir))) {
          await clone.cleanup();
          return {
            missing: `${record.url} no longer has ${record.skillPath} at its newest commit.`,
          };
        }
        const loaded = await loadSource(dir, { ...record, commit: head });
        return { loaded, cleanup: clone.cleanup };
      } catch (error) {
        return { missing: `${record.url} could not be read: ${why(error)}.` };
      }
    }
    if (record.kind === 'archive') {
      if (!(await exists(record.path)))
        return { missing: `The archive ${record.path} no longer exists.` };
      try {
        // Why read whole: loadSource holds every file in memory, so the temp folder can go at once.
        const r = await this.readArchive(record.path, record.root, (dir, source) =>
          loadSource(dir, source),
        );
        return 'refused' in r ? { missing: r.refused } : { loaded: r };
      } catch (error) {
        return { missing: `The archive ${record.path} could not be read: ${why(error)}.` };
      }
    }
    const remote = this.options.remote;
    if (!remote)
      return {
        missing: `${describeSource(entry, record)} cannot be checked from here; open it in the Inspector to compare.`,
      };
    const fetched = await remote.remoteFiles(record);
    if ('missing' in fetched) return fetched;
    try {
      return {
        loaded: await this.staged(fetched, (dir) => loadSource(dir, fetched.source)),
      };
    } catch (error) {
      return { missing: `${record.uri} could not be read: ${why(error)}.` };
    }
  }

  /**
   * Compare a skill installed from a server with the server's listing now: the digests listed
   * against the digests recorded at install, file by file; nothing of the skill is read.
   */
  private async remoteChanges(
    source: McpSource,
  ): Promise<
    | { fileChanges: NonNullable<OutdatedEntry['fileChanges']>; version: string }
    | { missing: string }
  > {
    const remote = this.options.remote;
    if (!remote)
      return {
        missing: `${source.uri} from the server ${source.server} cannot be checked from here; open it in the Inspector to compare.`,
      };
    const listing = await remote.remoteListing(source);
    if ('missing' in listing) return listing;
    const fileChanges: NonNullable<OutdatedEntry['fileChanges']> = [];
    for (const [path, digest] of Object.entries(source.digests)) {
      const now = listing.digests[path];
      if (now === undefined) fileChanges.push({ path, change: 'removed' });
      else if (now !== digest) fileChanges.push({ path, change: 'changed' });
    }
    for (const path of Object.keys(listing.digests))
      if (source.digests[path] === undefined) fileChanges.push({ path, change: 'added' });
    // The listing's fingerprint: its files and digests, in path order.
    const version = createHash('sha256')
      .update(
        JSON.stringify(
          Object.entries(listing.digests).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        ),
      )
      .digest('hex');
    return { fileChanges, version };
  }

  /** Compare every recorded skill of every scope with its source. */
  async outdated(names?: string[], only?: ScopeRef): Promise<OutdatedEntry[]> {
    const scopes: Scope[] = [
      { kind: 'global' as const },
      ...(await this.projects()).map((dir) => ({ kind: 'project' as const, dir })),
    ].filter((s) => only === undefined || sameScope(scopeRef(s), only));
    const out: OutdatedEntry[] = [];
    for (const scope of scopes) {
      const stored = await readLockFile(
        scope.kind === 'global' ? 'global' : 'project',
        lockPath(scope, this.env),
      );
      const lockDir = dirname(lockPath(scope, this.env));
      for (const [key, entry] of Object.entries(stored.lock.skills)) {
        if (names && names.length > 0 && !names.includes(key)) continue;
        const source = describeSource(entry, entrySource(entry, lockDir));
        /** An entry nothing can be done with, and why. */
        const unknown = (message: string): OutdatedEntry => ({
          name: key,
          scope: scopeRef(scope),
          copies: [],
          source,
          status: 'unknown',
          locallyEdited: false,
          canMerge: false,
          message,
        });
        if (!isOneFolderName(key)) {
          out.push(
            unknown(
              `${lockPath(scope, this.env)} names a skill "${key}", which ${NOT_ONE_FOLDER}. Skillbench does not act on that entry.`,
            ),
          );
          continue;
        }
        const copies = await this.copiesOf(scope, key);
        // Why said, not skipped: the lock says it is installed; a copy deleted by hand, or a link
        // left pointing at nothing, would otherwise pass for up to date.
        if (copies.length === 0) {
          out.push(
            unknown(
              `${lockPath(scope, this.env)} records ${key}, but no agent's folder ${scope.kind === 'global' ? 'in your home folder' : 'in the project'} holds a copy of it now (a link there that points at nothing does not count). Install it again, or uninstall it for the agent it was installed for to remove the entry.`,
            ),
          );
          continue;
        }
        const recorded =
          entry.skillbench?.installedHash ??
          (scope.kind === 'project' ? entry.computedHash : entry.skillFolderHash);
        const hashes = await Promise.all(copies.map((c) => hashFolder(c).catch(() => '')));
        const locallyEdited = recorded !== undefined && hashes.some((h) => h !== recorded);
        const base: OutdatedEntry = {
          name: key,
          scope: scopeRef(scope),
          copies,
          source,
          status: 'unknown',
          locallyEdited,
          message: '',
          canMerge: recorded !== undefined && (await this.hasBase(recorded)),
        };
        const record = entry.skillbench?.source;
        if (record?.kind === 'mcp') {
          const changes = await this.remoteChanges(record);
          if ('missing' in changes)
            out.push({ ...base, status: 'source-missing', message: changes.missing });
          else if (changes.fileChanges.length === 0)
            out.push({
              ...base,
              status: 'up-to-date',
              // Why two sentences: an edited copy does not match; what did not change is the source.
              message: locallyEdited
                ? `${record.server} lists ${key} as it was when you installed it; only your installed copy was edited since.`
                : `${key} matches what ${record.server} lists now.`,
            });
          else {
            const kept = locallyEdited && entry.skillbench?.keptOver === changes.version;
            out.push({
              ...base,
              status: kept ? 'up-to-date' : 'outdated',
              message: kept
                ? keptMessage(key)
                : `${record.server} lists a newer version of ${key}${locallyEdited ? ', and your installed copy was edited since install' : ''}. Updating reads and verifies every file again.`,
              fileChanges: changes.fileChanges,
              sourceVersion: changes.version,
              ...(kept ? { kept } : {}),
            });
          }
          continue;
        }
        const now = await this.sourceNow(key, entry, lockDir, copies);
        if ('missing' in now) {
          out.push({ ...base, status: 'source-missing', message: now.missing });
          continue;
        }
        try {
          if (recorded !== undefined && now.loaded.hash === recorded) {
            out.push({
              ...base,
              status: 'up-to-date',
              message: locallyEdited
                ? `The source of ${key} has not changed since you installed it; only your installed copy was edited since.`
                : `${key} matches its source.`,
            });
            continue;
          }
          const first = copies[0] ?? '';
          const skillFile = await skillFileAt(first);
          let installedText = '';
          if (skillFile !== undefined)
            try {
              installedText = readBoundedSync(join(first, skillFile), SKILL_MD_MAX_BYTES).toString(
                'utf8',
              );
            } catch {
              // Why: shown against an empty text when it cannot be read (too large, gone).
            }
          const fileChanges: NonNullable<OutdatedEntry['fileChanges']> = await folderChanges(
            first,
            new Map(now.loaded.files.map((f) => [f.path, f.data])),
          );
          const status =
            recorded === undefined && fileChanges.length === 0 ? 'up-to-date' : 'outdated';
          const sides =
            status === 'outdated' && locallyEdited && recorded !== undefined
              ? await this.threeWay(recorded, copies, hashes, now.loaded).catch(
                  (error: unknown) => {
                    // Why not an error: a file too large to read leaves the two-way view, and
                    // the merge itself says which file it cannot read.
                    if (error instanceof FileTooLargeError) return undefined;
                    throw error;
                  },
                )
              : undefined;
          const kept =
            status === 'outdated' &&
            locallyEdited &&
            entry.skillbench?.keptOver === now.loaded.hash;
          out.push({
            ...base,
            status: kept ? 'up-to-date' : status,
            message: kept
              ? keptMessage(key)
              : locallyEdited
                ? `${key} has a newer version at its source, and your installed copy was edited since install.`
                : `${key} has a newer version at its source.`,
            diff: lineDiff(installedText, now.loaded.skillText),
            fileChanges,
            ...sides,
            sourceVersion: now.loaded.hash,
            ...(kept ? { kept } : {}),
          });
        } finally {
          await now.cleanup?.();
        }
      }
    }
    return out;
  }

  /**
   * Update skills from their sources. A copy edited since install is left as it is unless the
   * user chose: `keep-local` (leave it, nothing written), `take-theirs` (the edited copy goes
   * to the trash, the source's files replace it), `merge` (file by file against the recorded
   * base, {@link mergeFolders}; while a conflict is open nothing is written, and `resolved`
   * settles them by path).
   */
  async update(
    names: string[] | undefined,
    choice?: UpdateChoice,
    resolved?: MergeResolution,
    trust?: TrustRequest,
    /** Only this scope. Why: one name can be installed globally and in a project, edited apart. */
    only?: ScopeRef,
  ): Promise<UpdateOutcome[]> {
    const outcomes: UpdateOutcome[] = [];
    for (const item of await this.outdated(names, only)) {
      const scope: Scope =
        item.scope.kind === 'global'
          ? { kind: 'global' }
          : { kind: 'project', dir: item.scope.dir };
      const base = { name: item.name, scope: item.scope };
      // A version the user kept their copy over is taken after all only when named with a choice.
      const reconsidered =
        item.kept === true &&
        names?.includes(item.name) === true &&
        (choice === 'take-theirs' || choice === 'merge');
      if (item.status === 'up-to-date' && !reconsidered) {
        outcomes.push({ ...base, status: 'up-to-date', message: item.message });
        continue;
      }
      if (item.status !== 'outdated' && !reconsidered) {
        outcomes.push({
          ...base,
          status: 'failed',
          message: `${item.name} was not updated: ${item.message}${item.copies.length > 0 ? ' The installed copy was left as it was.' : ''}`,
        });
        continue;
      }
      if (item.locallyEdited && choice === undefined) {
        outcomes.push({
          ...base,
          status: 'needs-choice',
          message: `${item.name} was edited since install, so it was left as it is. Choose: keep mine (--keep-local), take theirs (--take-theirs; your copy goes to the trash)${item.canMerge ? ', or merge your edits with theirs (--merge)' : ''}.`,
        });
        continue;
      }
      if (item.locallyEdited && choice === 'keep-local') {
        const remembered =
          item.sourceVersion !== undefined &&
          (await this.rememberKept(scope, item.name, item.sourceVersion));
        outcomes.push({
          ...base,
          status: 'kept',
          message: remembered
            ? `${item.name}: your edited copy was kept; nothing was written to it. This version of its source is not offered again; a newer one will be.`
            : `${item.name}: your edited copy was kept; nothing was written.`,
        });
        continue;
      }
      outcomes.push(
        await this.applyUpdate(
          scope,
          item,
          item.locallyEdited ? choice : 'take-theirs',
          resolved?.name === item.name ? resolved.files : [],
          trust,
        ),
      );
    }
    return outcomes;
  }

  /**
   * The files a merge writes into `copy`, or the conflicts still open (nothing written then).
   * Why the copy is read here, just before writing: an edit made while the user settled the
   * conflicts is merged too, never overwritten.
   */
  /**
   * An edited copy seen three ways, when the installed version was kept: what the source changed
   * since install, what the user changed, and which files a merge would ask about. Undefined
   * when only the legacy base (SKILL.md alone) is kept: the other files' history is not known.
   */
  private async threeWay(
    recorded: string,
    copies: readonly string[],
    hashes: readonly string[],
    theirs: LoadedSource,
  ): Promise<Pick<OutdatedEntry, 'diff' | 'fileChanges' | 'yourEdits' | 'mergeAsks'> | undefined> {
    if (!isFolderHash(recorded) || !(await exists(this.baseDir(recorded)))) return undefined;
    const baseFiles = await this.readBase(recorded);
    if (baseFiles === null) return undefined;
    const edited = copies[hashes.findIndex((h) => h !== recorded)] ?? copies[0];
    if (edited === undefined) return undefined;
    const mine = new Map((await folderFiles(edited)).map((f) => [f.path, f.data] as const));
    const source = new Map(theirs.files.map((f) => [f.path, f.data] as const));
    const baseText = skillTextOf(baseFiles);
    const asks = new Set<string>();
    for (const copy of copies) {
      const plan = await this.planMerge(copy, baseFiles, theirs.files, []);
      if ('conflicts' in plan) for (const c of plan.conflicts) asks.add(c.path);
    }
    return {
      diff: lineDiff(baseText, theirs.skillText),
      fileChanges: filesChanged(baseFiles, source),
      yourEdits: {
        diff: lineDiff(baseText, skillTextOf(mine)),
        files: filesChanged(baseFiles, mine),
      },
      mergeAsks: [...asks].sort(),
    };
  }

  private async planMerge(
    copy: string,
    baseFiles: ReadonlyMap<string, Uint8Array>,
    theirs: readonly FolderFile[],
    resolutions: readonly FileResolution[],
  ): Promise<{ files: FolderFile[] } | { conflicts: FileConflict[]; refused: string[] }> {
    const mine = await filesWithModes(copy);
    const sides = new Map<string, FileSides>();
    const side = (path: string): FileSides => {
      let s = sides.get(path);
      if (!s) sides.set(path, (s = {}));
      return s;
    };
    for (const [path, data] of baseFiles) side(path).base = mergeFile(data);
    for (const f of mine) side(f.path).mine = mergeFile(f.data);
    for (const f of theirs) side(f.path).theirs = mergeFile(f.data);
    const merged = mergeFolders(sides, resolutions);
    if (merged.conflicts.length > 0)
      return { conflicts: merged.conflicts, refused: merged.refused };
    const modes = new Map<string, number>();
    for (const f of theirs) modes.set(f.path, f.mode);
    for (const f of mine) if (!modes.has(f.path)) modes.set(f.path, f.mode);
    const files: FolderFile[] = [];
    for (const a of merged.actions) {
      if (a.take === 'removed') continue;
      const mode =
        a.take === 'mine'
          ? (mine.find((f) => f.path === a.path)?.mode ?? 0o644)
          : (modes.get(a.path) ?? 0o644);
      files.push({
        path: a.path,
        data: a.take === 'merged' ? Buffer.from(a.text, 'utf8') : Buffer.from(a.data),
        mode,
      });
    }
    return { files };
  }

  private async applyUpdate(
    scope: Scope,
    item: OutdatedEntry,
    choice: UpdateChoice | undefined,
    resolutions: readonly FileResolution[],
    trust?: TrustRequest,
  ): Promise<UpdateOutcome> {
    const base = { name: item.name, scope: item.scope };
    const stored = await readLockFile(
      scope.kind === 'global' ? 'global' : 'project',
      lockPath(scope, this.env),
    );
    const entry = stored.lock.skills[item.name];
    if (!entry)
      return {
        ...base,
        status: 'failed',
        message: `${item.name} is no longer in the lock file; nothing was changed.`,
      };
    if (stored.lock.problem !== undefined)
      return {
        ...base,
        status: 'failed',
        message: `${item.name} was not updated: ${lockPath(scope, this.env)} ${stored.lock.problem}, so it cannot record the update. Nothing was changed.`,
      };
    const now = await this.sourceNow(
      item.name,
      entry,
      dirname(lockPath(scope, this.env)),
      item.copies,
    );
    if ('missing' in now)
      return {
        ...base,
        status: 'failed',
        message: `${item.name} was not updated: ${now.missing} Nothing was changed.`,
      };
    try {
      let loaded = now.loaded;
      if (loaded.name !== item.name) loaded = { ...loaded, name: item.name };
      const recorded =
        entry.skillbench?.installedHash ?? entry.computedHash ?? entry.skillFolderHash;
      for (const copy of item.copies) {
        const through = await linkOnTheWay(scope, copy);
        if (through !== undefined)
          return {
            ...base,
            status: 'failed',
            message: `${item.name} was not updated: ${through}, and Skillbench does not write through a link in a project. Nothing was changed.`,
          };
      }
      // Every copy is planned before any is written: one open conflict writes nothing at all.
      const plans: { copy: string; files: FolderFile[] }[] = [];
      if (choice === 'merge') {
        const baseFiles = recorded ? await this.readBase(recorded) : null;
        if (baseFiles === null)
          return {
            ...base,
            status: 'failed',
            message: `${item.name} cannot be merged: the version that was installed is not known to Skillbench. Nothing was changed.`,
          };
        for (const copy of item.copies) {
          const plan = await this.planMerge(copy, baseFiles, loaded.files, resolutions);
          if ('conflicts' in plan)
            return {
              ...base,
              status: 'conflicts',
              conflicts: plan.conflicts,
              message: `${item.name}: ${plan.conflicts.length === 1 ? 'a file' : `${plan.conflicts.length} files`} of ${copy} changed on both sides and need${plan.conflicts.length === 1 ? 's' : ''} your choice.${plan.refused.map((r) => ` ${r}`).join('')} Nothing was written.`,
            };
          plans.push({ copy, files: plan.files });
        }
      } else for (const copy of item.copies) plans.push({ copy, files: loaded.files });
      // The point of trust, as at install: what would be written (the source's version, or the
      // merge) reaches no agent while the safety review says not to trust it.
      let earlier: BytesReview | undefined;
      for (const plan of plans) {
        const files = new Map(plan.files.map((f) => [f.path, f.data] as const));
        const reviewed = await reviewSkillBytes(plan.copy, files, this.options.dataDir, earlier);
        earlier = { files, hash: reviewed.hash, report: reviewed.report };
        const gate = await passGate(reviewed, this.options.dataDir, 'updated', trust);
        if (!gate.allowed)
          return {
            ...base,
            status: 'refused',
            message: `${gate.message ?? ''} The installed copy was left as it was.`,
            safety: {
              headline: reviewed.report.headline,
              findings: reviewed.report.findings.filter((f) => f.severity !== 'low').length,
            },
          };
      }
      const trashed: string[] = [];
      for (const plan of plans) {
        const written = await writeFolder(plan.copy, plan.files, {
          replace: true,
          trashDir: this.options.trashDir,
        });
        if (written.trashedTo) trashed.push(written.trashedTo);
      }
      // Why the source's version is recorded even after a merge: it is the base of the next
      // merge, so edits merged in now still count as the user's next time.
      const notes: string[] = [];
      await this.record(scope, loaded, entry.skillbench?.mode ?? 'copy', notes);
      const kept = notes.length > 0 ? ` ${notes.join(' ')}` : '';
      return {
        ...base,
        status: 'updated',
        message:
          choice === 'merge'
            ? `${item.name} was updated with your edits merged in. The copy before the merge is in the trash (${trashed.join(', ')}).${kept}`
            : `${item.name} was updated from ${describeSource(entry, loaded.source)}.${trashed.length > 0 ? ` The old copy is in the trash (${trashed.join(', ')}).` : ''}${kept}`,
        trashedTo: trashed,
      };
    } catch (error) {
      return {
        ...base,
        status: 'failed',
        message: `${item.name} was not updated: ${why(error)}. The copies that were not yet replaced were left as they were.`,
      };
    } finally {
      await now.cleanup?.();
    }
  }
}

/** A file for the folder merge: its bytes, and its text when it is UTF-8 without a NUL byte. */
/** What `outdated` says of a copy kept over the source's current version. */
function keptMessage(name: string): string {
  return `You kept your edited copy of ${name} over the version its source has now; that version is not offered again, a newer one will be. To take it after all, choose Take theirs or Merge (skillbench update ${name} --take-theirs, or --merge).`;
}

/** The text of the skill file among a folder's files by path; empty when there is none. */
function skillTextOf(files: ReadonlyMap<string, Uint8Array>): string {
  const name = skillFileNameIn([...files.keys()].map((path) => ({ name: path, kind: 'file' })));
  const data = name === undefined ? undefined : files.get(name);
  return data === undefined ? '' : Buffer.from(data).toString('utf8');
}

function mergeFile(data: Uint8Array): MergeFile {
  if (data.includes(0)) return { data, text: null };
  try {
    return { data, text: UTF8.decode(data) };
  } catch {
    return { data, text: null };
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Every regular file of an installed copy with its bytes and mode (executable or not). */
async function filesWithModes(dir: string): Promise<FolderFile[]> {
  const files = await folderFiles(dir);
  return Promise.all(
    files.map(async (f) => ({
      path: f.path,
      data: Buffer.from(f.data),
      mode: (await stat(join(dir, ...f.path.split('/')))).mode & 0o111 ? 0o755 : 0o644,
    })),
  );
}

/** sha256 (hex) of a file's bytes, read as a stream. */
function sha256File(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });
}
