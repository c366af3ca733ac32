import { mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { writeThroughRefusal } from '../platform/folder-links';
import { writeFileAtomic } from '../platform/atomic-write';
import { validateSkill, type ProfileId } from '../../shared/validation';
import {
  getTarget,
  planExport,
  type ExportPlan,
  type ExportResult,
  type TargetId,
  type ValidateFn,
} from '../../shared/projection';
import { startDeflate, writeArchive, type ArchiveItem } from '../platform/archive-writer';
import {
  commitFolder,
  diffFolder,
  exists,
  stageFolder,
  type FolderFile,
} from '../platform/staged-folder';
import type { TrustRequest } from '../../shared/safety';
import { passGate } from '../safety/gate';
import { reviewSkillFolder } from '../safety/service';
import { loadSkillFolder, readSourceBytes, type LoadedSkill } from './source-files';

/** Where a Claude Code install goes. */
export type ClaudeCodeScope =
  /** `~/.claude/skills/<name>/`; `home` overrides the home folder (tests, other users). */
  | { scope: 'user'; home?: string }
  /** `<project>/.claude/skills/<name>/`. */
  | { scope: 'project'; project: string };

/** Options for {@link planSkillExport} and {@link exportSkill}. */
export interface ExportOptions {
  /** Source paths the user keeps despite a warning (secret-looking files, links inside the skill). */
  keep?: readonly string[];
  /** Archive and folder targets: project the frontmatter as for an upload (uploads always are). */
  project?: boolean;
  /** Folder copy only: the profiles the pre-export check uses (default: the skill's own format). */
  profiles?: ProfileId[];
  /** The pre-upload check on the projected SKILL.md; default: the validation core (`validateSkill`). */
  validate?: ValidateFn;
  /**
   * Archives: the archive file (default `<cwd>/<name><ext>`). Folder copy: the folder in which
   * `<name>/` is created (required). Claude Code: ignored, see `claudeCode`.
   */
  out?: string;
  /** Claude Code install destination (default: the user's `~/.claude/skills/`). */
  claudeCode?: ClaudeCodeScope;
  /** Also write `<archive>.sha256` (`<hex>  <file name>`, the sha256sum format). */
  sha256File?: boolean;
  /** Replace an existing destination: a folder copy goes to the trash first; an archive is replaced. */
  overwrite?: boolean;
  /** Folder targets only: export despite errors of the pre-upload check. */
  force?: boolean;
  /** Where replaced copies go (default: Skillbench's trash in the user-data folder). */
  trashDir?: string;
  /** Base for relative paths (default process.cwd()). */
  cwd?: string;
  /**
   * The user-data folder: when given, the safety review runs on the skill and a "Don't trust"
   * verdict blocks the export unless accepted (docs/safety-review.md, "Points of trust").
   */
  dataDir?: string;
  /** Export a skill the safety review calls "Don't trust" anyway (recorded in `dataDir`). */
  trust?: TrustRequest;
}

/** A plan plus the folder it was made from. */
export interface PlannedExport {
  plan: ExportPlan;
  skill: LoadedSkill;
}

/** Read the skill folder and plan the export, without writing anything (the export dialog's view). */
export async function planSkillExport(
  skillDir: string,
  target: TargetId,
  options: ExportOptions = {},
): Promise<PlannedExport> {
  const planned = planLoaded(await loadSkillFolder(skillDir), target, options);
  await withSafety(planned.plan, skillDir, options, false);
  return planned;
}

/**
 * Add the safety review to a plan; a "Don't trust" skill blocks it (no override) unless the
 * user accepted its content. `record`: a `trust` in the options is recorded now (at export).
 */
async function withSafety(
  plan: ExportPlan,
  skillDir: string,
  options: ExportOptions,
  record: boolean,
): Promise<void> {
  if (options.dataDir === undefined) return;
  const reviewed = await reviewSkillFolder(skillDir, options.dataDir);
  const gate = await passGate(
    reviewed,
    options.dataDir,
    'exported',
    record ? options.trust : undefined,
    !record,
  );
  plan.safety = gate.reviewed;
  if (gate.allowed) return;
  plan.blocked = true;
  plan.canOverride = false;
  plan.issues.unshift({
    ruleId: 'package/safety-dont-trust',
    severity: 'error',
    profile: plan.target.packageProfile,
    message: gate.message ?? '',
    detail: gate.reviewed.report.summary,
  });
}

/** Plan the export of a skill folder already read. */
function planLoaded(skill: LoadedSkill, target: TargetId, options: ExportOptions): PlannedExport {
  const plan = planExport({
    target,
    skillText: skill.skillText,
    skillFileName: skill.skillFileName,
    folderName: skill.folderName,
    entries: skill.entries,
    ...(options.keep ? { keep: options.keep } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.profiles ? { profiles: options.profiles } : {}),
    validate: options.validate ?? validateSkill,
  });
  return { plan, skill };
}

/** The project a Claude Code copy goes into, or undefined for the user's own folder. */
function claudeCodeProject(options: ExportOptions): string | undefined {
  const scope = options.claudeCode ?? { scope: 'user' };
  return scope.scope === 'user' ? undefined : resolve(options.cwd ?? process.cwd(), scope.project);
}

/** The folder a folder-copy target writes to. */
export function folderDestination(plan: ExportPlan, options: ExportOptions): string {
  const cwd = options.cwd ?? process.cwd();
  if (plan.target.id === 'claude-code') {
    const scope = options.claudeCode ?? { scope: 'user' };
    const base = scope.scope === 'user' ? (scope.home ?? homedir()) : resolve(cwd, scope.project);
    return join(base, '.claude', 'skills', plan.skillName);
  }
  if (!options.out) throw new Error('A folder copy needs a destination folder (out).');
  return join(resolve(cwd, options.out), plan.skillName);
}

/**
 * The archive path a target writes to: `out` as given, or `<out>/<name><ext>` when `out` is a
 * folder (as `cp` would put a file into it): an existing one (or a link to one), or a path
 * written with a separator at its end (`--out dist/`, made if missing); else `<cwd>/<name><ext>`.
 */
export async function archiveDestination(
  plan: ExportPlan,
  options: ExportOptions,
): Promise<string> {
  const cwd = options.cwd ?? process.cwd();
  const file = `${plan.skillName}${plan.target.extension ?? ''}`;
  if (!options.out) return join(cwd, file);
  const out = resolve(cwd, options.out);
  if (options.out.endsWith('/') || options.out.endsWith(sep)) return join(out, file);
  const st = await stat(out).catch(() => undefined);
  return st?.isDirectory() ? join(out, file) : out;
}

/** The included files of a plan with their bytes, paths relative to the package root. */
async function planFiles(planned: PlannedExport): Promise<FolderFile[]> {
  const files: FolderFile[] = [];
  for (const entry of planned.plan.entries) {
    if (!entry.included || entry.kind === 'directory') continue;
    // Why the cache first: an await per file costs more than the lookup for thousands of small files.
    const data =
      entry.content !== undefined
        ? Buffer.from(entry.content, 'utf8')
        : ((entry.kind !== 'symlink'
            ? planned.skill.cache.get(entry.source as string)
            : undefined) ??
          (await readSourceBytes(planned.skill, entry.source as string, entry.kind === 'symlink')));
    files.push({ path: entry.output, data, mode: entry.mode });
  }
  return files;
}

/**
 * Export a skill to a target: plan, refuse on errors (folder targets may force), then write a
 * reproducible archive or a folder copy. Never overwrites a folder silently: an existing
 * destination returns its diff until `overwrite` is set.
 */
export async function exportSkill(
  skillDir: string,
  target: TargetId,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const skill = await loadSkillFolder(skillDir);
  // Why before planning: a worker thread deflates most files of a large zip while the plan is made.
  const early = getTarget(target).output === 'zip' ? startDeflate([...skill.cache.values()]) : null;
  const planned = planLoaded(skill, target, options);
  const { plan } = planned;
  await withSafety(plan, skillDir, options, true);
  // Why: the destination would reject the package anyway; only folder copies may be forced.
  if (plan.blocked && !(options.force && getTarget(target).overrideAllowed))
    return { status: 'blocked', plan };
  const files = await planFiles(planned);

  if (plan.target.output === 'folder') {
    const dest = folderDestination(plan, options);
    // A Claude Code copy is an install: the one guard of agent folders decides (a linked
    // `.claude/skills`, or a link on the way in a project, is never written through).
    const refusal =
      plan.target.id === 'claude-code'
        ? await writeThroughRefusal(claudeCodeProject(options), dirname(dest), dest)
        : undefined;
    if (refusal !== undefined) {
      plan.blocked = true;
      plan.canOverride = false;
      plan.issues.unshift({
        ruleId: 'package/destination-link',
        severity: 'error',
        profile: plan.target.packageProfile,
        message: `${refusal} Nothing was written.`,
      });
      return { status: 'blocked', plan };
    }
    if ((await exists(dest)) && !options.overwrite) {
      return { status: 'exists', plan, path: dest, diff: await diffFolder(dest, files) };
    }
    const dirs = plan.entries
      .filter((e) => e.included && e.kind === 'directory')
      .map((e) => e.output.replace(/\/$/, ''));
    const stage = await stageFolder(dest, files, dirs);
    const { trashedTo } = await commitFolder(
      stage,
      dest,
      options.overwrite === true,
      options.trashDir,
    );
    return {
      status: 'written',
      plan,
      path: dest,
      bytes: files.reduce((s, f) => s + f.data.length, 0),
      files: files.length,
      ...(trashedTo ? { trashedTo } : {}),
    };
  }

  const byPath = new Map(files.map((f) => [f.path, f]));
  const items: ArchiveItem[] = plan.entries
    .filter((e) => e.included)
    .map((e) =>
      e.kind === 'directory'
        ? { name: e.output, kind: 'directory', mode: 0o755 }
        : {
            name: e.output,
            kind: 'file',
            mode: e.mode,
            data: (byPath.get(e.output) as FolderFile).data,
          },
    );
  const dest = await archiveDestination(plan, options);
  // Why: an archive of the same name is never replaced silently; the caller asks first.
  if (!options.overwrite && (await exists(dest)))
    return { status: 'archive-exists', plan, path: dest };
  await mkdir(dirname(dest), { recursive: true });
  const written = await writeArchive(plan.target.output, items, dest, { early });
  let sha256Path: string | undefined;
  if (options.sha256File) {
    sha256Path = `${dest}.sha256`;
    // Why this format: `sha256sum -c` reads "<hex>  <name>" (GNU coreutils).
    await writeFileAtomic(sha256Path, `${written.sha256}  ${dest.split(/[\\/]/).pop() ?? dest}\n`);
  }
  return {
    status: 'written',
    plan,
    path: dest,
    bytes: written.bytes,
    sha256: written.sha256,
    files: files.length,
    ...(sha256Path ? { sha256Path } : {}),
  };
}
