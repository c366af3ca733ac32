import { isUtf8 } from 'node:buffer';
import { readdirSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { applyEdits, parseSkill, SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { chooseProfiles, countFindings, fixAllSafe, validateSkill } from '../../shared/validation';
import type { FindingLike } from '../../shared/validation/findings';
import type { Diagnostic, ProfileId, ValidationResult } from '../../shared/validation';
import { writeFileAtomic } from '../platform/atomic-write';
import { sameMaps } from '../platform/maps';
import { FolderExistsError, renameFolderNoReplace } from '../platform/rename-folder';
import { describeFsError, folderProblem } from '../platform/fs-errors';
import { readResolvedBounded } from '../platform/read-file';
import { NEVER_ENTERED } from '../../shared/skill/file-set';
import { TimeSlicer } from '../platform/concurrency';
import { PartClaims } from '../platform/part-claims';
import { slashRelative } from '../platform/paths';
import { walkFolder } from '../platform/walk';
import {
  fileViewFromTree,
  notASkillFolder,
  readViewTextsSync,
  skillFileNameIn,
  skillsIn,
  walkSkillTree,
} from '../skill-folder';
import type { WalkedEntry } from '../skill-folder';
import { validateInTree } from './in-tree';
import type { LibraryValidation, SeverityCounts, SkillValidation } from './types';

export type { LibraryValidation, SeverityCounts, SkillValidation } from './types';
import type { Validated } from './in-tree';
import { RACY_STAMP, runLibraryJob, sameStamp } from './library-job';
import type { LibraryJob, SharedLibraryJob, UnitResult } from './library-job';
import { sharedWorkers } from '../platform/worker-pool';
import type { WorkerPool } from '../platform/worker-pool';
import { checkLibrary } from './library-checks';

/** Thrown when a path cannot be validated at all (missing, not a skill, unreadable); the message is for people. */
export class ValidateInputError extends Error {}

/** Options of {@link validateSkillFolder}. */
export interface ValidateFolderOptions {
  /** Profiles to check; default: the skill's own format (`chooseProfiles`) plus `extraProfiles`. */
  profiles?: ProfileId[];
  /** Targets checked on top of the skill's own format (the app's Settings) when `profiles` is not given. */
  extraProfiles?: ProfileId[];
  /** Library root for `relativePath` (mcp-serve compares its last segment); default: the skill's parent. */
  libraryRoot?: string;
  /**
   * The last listing of `libraryRoot` (its memo): the library-wide checks (two skills with one
   * name, `depends_on`) are run again with this skill as it is now among the others as listed.
   * Why: the app checks the open skill alone after each save; without them its row and panel
   * lost the library's findings the listing had shown.
   */
  library?: LibraryMemo;
}

/** Options of {@link validateLibrary}. */
export interface ValidateLibraryOptions {
  profiles?: ProfileId[];
  /** Targets checked on top of each skill's own format when `profiles` is not given. */
  extraProfiles?: ProfileId[];
  /** Resolve `depends_on` against the library (default true). */
  checkDependencies?: boolean;
  /** Findings kept from the last run over the same root (see {@link LibraryMemo}); updated by this run. */
  memo?: LibraryMemo;
  /** Workers to share a large library with; default the pool named by `useValidationWorkers`, null: this thread only. */
  pool?: WorkerPool | null;
  /**
   * Fewest root subfolders for which the work is shared with the workers (default
   * {@link SHARED_MIN_FOLDERS}). A one-shot process passes more: it pays the workers' start-up
   * on every run, where the app keeps them warm.
   */
  sharedFrom?: number;
  /**
   * Whether this thread checks parts of the library too while the workers do (it takes them from
   * the back, they from the front). For a one-shot command line, whose thread has nothing else to
   * do; the app leaves its thread free for the user (default false).
   */
  callerHelps?: boolean;
  /**
   * Called on this thread as the library's root folders are done, with how many are done so far
   * in this pass over them: this thread's at once, the workers' as their reports arrive. A
   * library checked again after a fingerprint pass (a memo) counts from zero in each pass.
   */
  onFoldersDone?: (done: number) => void;
}

/** Each problem once (the same finding of several profiles is one), as the Problems panel lists them. */
function countsOf(diagnostics: readonly FindingLike[]): SeverityCounts {
  return countFindings(diagnostics);
}

/** Per profile verdict over every finding (core verdicts do not see disk and library findings). */
function verdictsOf(
  profiles: readonly ProfileId[],
  diagnostics: readonly Diagnostic[],
): ValidationResult['verdicts'] {
  const v: ValidationResult['verdicts'] = {};
  for (const p of profiles) {
    const mine = diagnostics.filter((d) => d.profile === p);
    v[p] = mine.some((d) => d.severity === 'error')
      ? 'error'
      : mine.some((d) => d.severity === 'warning')
        ? 'warning'
        : 'valid';
  }
  return v;
}

function finish(result: SkillValidation): void {
  result.diagnostics.sort((a, b) => (a.range?.start.offset ?? -1) - (b.range?.start.offset ?? -1));
  result.verdicts = verdictsOf(result.profiles, result.diagnostics);
  result.counts = countsOf(result.diagnostics);
}

/** stat a path, turning failures into a plain sentence. */
async function statOrExplain(path: string): Promise<import('node:fs').Stats> {
  try {
    return await stat(path);
  } catch (error) {
    throw new ValidateInputError(describeFsError(error, path, 'open').message);
  }
}

/**
 * Validate one skill folder (or its SKILL.md path) on disk: the core rules with a file view,
 * Markdown links, package limits per target. Library-wide checks need {@link validateLibrary}.
 */
export async function validateSkillFolder(
  dirOrFile: string,
  options: ValidateFolderOptions = {},
): Promise<SkillValidation> {
  let dir = resolve(dirOrFile);
  if (!(await statOrExplain(dir)).isDirectory()) dir = dirname(dir);
  const tree = await walkSkillTree(dir);
  const fileName = skillFileNameIn(tree.children.get('') ?? []);
  if (fileName === undefined) throw new ValidateInputError(notASkillFolder(dir));
  const rel =
    options.libraryRoot !== undefined
      ? slashRelative(resolve(options.libraryRoot), dir)
      : basename(dir);
  const { result, member } = validateInTree(
    tree,
    '',
    rel === '' ? basename(dir) : rel,
    fileName,
    options.profiles,
    options.extraProfiles,
  );
  const memo = options.library;
  if (memo && options.libraryRoot !== undefined && memo.root === resolve(options.libraryRoot)) {
    // Why copies with empty findings for the others: only this skill's findings are wanted.
    const others = [...memo.units.values()]
      .flatMap((u) => u.validated)
      .filter((v) => v.member.relativePath !== member.relativePath)
      .map((v) => ({ ...v.member, diagnostics: [] }));
    const mine = { ...member, diagnostics: [...result.diagnostics] };
    const members = [...others, mine].sort((a, b) =>
      a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0,
    );
    checkLibrary(members);
    result.diagnostics = mine.diagnostics;
  }
  finish(result);
  return result;
}

/**
 * What a listing keeps between runs of {@link validateLibrary}: the findings of each root
 * subfolder with the fingerprint of everything under it, so a folder in which nothing changed
 * (no path, size, modification time or link target) is not checked again.
 */
export class LibraryMemo {
  root = '';
  /** The profiles the kept findings were made for. */
  key = '';
  units = new Map<string, UnitResult>();
  /** Root subfolders the last run checked again (the rest were reused). */
  rechecked = 0;
}

/**
 * Whether a memo's units after a run (`after`) hold what they held before it (`before`): the
 * same root subfolders, each reused, or checked again only because its fingerprint was "racy"
 * (files written in the two seconds before, which a modification time may not tell apart) and
 * found with the same findings. Why the findings for those: a racy folder is checked again on
 * every run whether or not anything changed, so its fingerprint says nothing.
 */
export function sameUnits(
  before: Map<string, UnitResult>,
  after: Map<string, UnitResult>,
): boolean {
  return sameMaps(
    before,
    after,
    (was, now) =>
      was === now ||
      (was.stamp === RACY_STAMP && JSON.stringify(was.validated) === JSON.stringify(now.validated)),
  );
}

/**
 * Validate every skill under a library folder (the same skills as main/library/scan.ts
 * `findSkills`), then run the library-wide checks (duplicate names, `depends_on`, description
 * budget). The root's subfolders are walked and checked as units: by worker threads when the
 * library is large (see ./workers), else on this thread in time slices; with a `memo`, only
 * units that changed since the last run are checked again.
 */
export async function validateLibrary(
  root: string,
  options: ValidateLibraryOptions = {},
): Promise<LibraryValidation> {
  const abs = resolve(root);
  const problem = await folderProblem(abs, 'library');
  if (problem) throw new ValidateInputError(problem.message);
  const rootChildren = new Map<string, WalkedEntry[]>();
  const tops: string[] = [];
  // Why read the root again on failure: an unreadable root must fail with the system's own error.
  if (!walkFolder(abs, '', rootChildren, tops, NEVER_ENTERED)) readdirSync(abs);
  const validated =
    skillFileNameIn(rootChildren.get('') ?? []) !== undefined
      ? // Why a skill at the root is checked as one piece: its file view spans the whole tree.
        await validateWholeTree(abs, options.profiles, options.extraProfiles)
      : await validateUnits(abs, tops, options);
  // Why copies: the findings kept in a memo must not collect this run's library findings.
  const copies = validated.map((v) => {
    const diagnostics = [...v.result.diagnostics];
    return { result: { ...v.result, diagnostics }, member: { ...v.member, diagnostics } };
  });
  const { budget, findings } = checkLibrary(
    copies.map((v) => v.member),
    { dependencies: options.checkDependencies ?? true },
  );
  const skills = copies.map((v) => v.result);
  for (const s of skills) finish(s);
  const counts = countsOf([...skills.flatMap((s) => s.diagnostics), ...findings]);
  return { root: abs, skills, findings, budget, counts };
}

/** Walk and validate a library whose root is itself a skill, on this thread in time slices. */
async function validateWholeTree(
  abs: string,
  profiles: ProfileId[] | undefined,
  extra: ProfileId[] | undefined,
): Promise<Validated[]> {
  const slicer = new TimeSlicer();
  const tree = await walkSkillTree(abs, slicer);
  const found = skillsIn(tree.children);
  // Why: the root skill's relative path is its folder name (mcp-serve compares the last segment with `name`).
  const relOf = (relDir: string): string =>
    relDir === '' ? basename(abs) : `${basename(abs)}/${relDir}`;
  const validated: Validated[] = [];
  for (const f of found) {
    if (slicer.due()) await slicer.pause();
    validated.push(validateInTree(tree, f.relDir, relOf(f.relDir), f.fileName, profiles, extra));
  }
  return validated;
}

/** Validate the root's subfolders, reusing the memo's findings for those in which nothing changed. */
async function validateUnits(
  abs: string,
  tops: string[],
  options: ValidateLibraryOptions,
): Promise<Validated[]> {
  const pool = options.pool === undefined ? sharedWorkers() : options.pool;
  const realRoot = realpathSync(abs);
  const key = JSON.stringify([options.profiles ?? null, options.extraProfiles ?? []]);
  const memo = options.memo;
  const known =
    memo && memo.root === abs && memo.key === key ? memo.units : new Map<string, UnitResult>();
  const base = {
    root: abs,
    realRoot,
    ...(options.profiles ? { profiles: options.profiles } : {}),
    ...(options.extraProfiles ? { extraProfiles: options.extraProfiles } : {}),
  };
  let changed = tops;
  if (known.size > 0) {
    // Why fingerprint first: walking is a fraction of checking, and usually few folders changed.
    const stamped = await runUnits(
      pool,
      { ...base, dirs: tops, stamp: true, validate: false },
      options,
    );
    changed = stamped.filter((u) => !sameStamp(known.get(u.dir)?.stamp, u.stamp)).map((u) => u.dir);
  }
  const fresh = new Map(
    (changed.length > 0
      ? await runUnits(
          pool,
          { ...base, dirs: changed, stamp: memo !== undefined, validate: true },
          options,
        )
      : []
    ).map((u) => [u.dir, u]),
  );
  const units = new Map<string, UnitResult>();
  const validated: Validated[] = [];
  for (const dir of tops) {
    const unit = fresh.get(dir) ?? known.get(dir);
    if (!unit) continue;
    units.set(dir, unit);
    for (const v of unit.validated) validated.push(v);
  }
  if (memo) {
    memo.root = abs;
    memo.key = key;
    memo.units = units;
    memo.rechecked = changed.length;
  }
  // Why sort: a root folder name may sort between the nested paths of another ("a" < "a-b" < "a/x").
  return validated.sort((a, b) => byPath(a.result.relativePath, b.result.relativePath));
}

/** Code-unit order of relative paths (the order every listing uses). */
const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Fewest root subfolders for which the work is shared with workers. Why a floor: a job's
 * round trip and the copy of its results cost more than checking a few dozen skills here.
 */
export const SHARED_MIN_FOLDERS = 48;

/** Root subfolders per part of a shared job: small, so the threads finish close together. */
const PART_FOLDERS = 16;

/** A job cut into the parts threads share, with fresh claims (see {@link SharedLibraryJob}). */
export function shareLibraryJob(job: LibraryJob): SharedLibraryJob {
  const { dirs, ...rest } = job;
  const parts: string[][] = [];
  for (let i = 0; i < dirs.length; i += PART_FOLDERS) parts.push(dirs.slice(i, i + PART_FOLDERS));
  return { job: rest, parts, claims: new PartClaims(parts.length).buffer };
}

/**
 * Run a job's units: shared among the pool's workers part by part when there are enough (this
 * thread taking parts too when `callerHelps`), else on this thread in time slices. A part a
 * worker took but could not finish (it failed to start or crashed) is done here, so the outcome
 * never depends on the workers.
 */
async function runUnits(
  pool: WorkerPool | null,
  job: LibraryJob,
  options: Pick<ValidateLibraryOptions, 'sharedFrom' | 'callerHelps' | 'onFoldersDone'>,
): Promise<UnitResult[]> {
  const slicer = new TimeSlicer();
  let foldersDone = 0;
  const counted = (folders: number): void => {
    foldersDone += folders;
    options.onFoldersDone?.(foldersDone);
  };
  const here = async (dirs: readonly string[], units: UnitResult[]): Promise<void> => {
    for (const dir of dirs) {
      if (slicer.due()) await slicer.pause();
      units.push(...runLibraryJob({ ...job, dirs: [dir] }).units);
      counted(1);
    }
  };
  if (!pool || job.dirs.length < Math.max(1, options.sharedFrom ?? SHARED_MIN_FOLDERS)) {
    const units: UnitResult[] = [];
    await here(job.dirs, units);
    return units;
  }
  const shared = shareLibraryJob(job);
  const claims = new PartClaims(shared.claims);
  const done = new Map<number, UnitResult[]>();
  // One job per worker: each takes parts until none is left. Why settled at once: a worker that
  // fails while this thread works must not surface as an unhandled rejection.
  const runs = Promise.allSettled(
    Array.from({ length: pool.size }, () =>
      pool.run('validate', shared, (r) => {
        done.set(r.part, r.units);
        counted(shared.parts[r.part]?.length ?? 0);
      }),
    ),
  );
  if (options.callerHelps)
    for (let part = claims.takeBack(); part !== undefined; part = claims.takeBack()) {
      const units: UnitResult[] = [];
      await here(shared.parts[part] ?? [], units);
      done.set(part, units);
    }
  await runs;
  // Why every part is looked at: a worker that failed leaves the parts it took, and a pool that
  // failed before any worker started leaves them all.
  const units: UnitResult[] = [];
  for (let part = 0; part < shared.parts.length; part++) {
    const mine = done.get(part);
    if (mine) units.push(...mine);
    else await here(shared.parts[part] ?? [], units);
  }
  return units;
}

/** One safe fix that was applied. */
export interface AppliedFix {
  ruleId: string;
  profile: ProfileId;
  /** The fix's title ("Quote the value"). */
  title: string;
  /** The finding it fixed. */
  message: string;
}

/** What {@link applySafeFixes} changed. */
export interface FixOutcome {
  /** The SKILL.md path after the fixes (differs when the folder was renamed). */
  file: string;
  /** True when anything on disk changed. */
  changed: boolean;
  applied: AppliedFix[];
  renamedFolder?: { from: string; to: string };
  /** Safe fixes not applied, with the reason. */
  skipped: { title: string; reason: string }[];
}

/** Resolve a skill folder or SKILL.md path to the SKILL.md file. */
async function skillFileOf(path: string): Promise<string> {
  const abs = resolve(path);
  if (!(await statOrExplain(abs)).isDirectory()) return abs;
  const tree = await walkSkillTree(abs);
  const name = skillFileNameIn(tree.children.get('') ?? []);
  if (name === undefined) throw new ValidateInputError(notASkillFolder(abs));
  return join(abs, name);
}

/** A folder name a rename may use: one plain path segment. */
function isPlainSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[\\/\0]/.test(name);
}

/**
 * Apply every safe fix of the chosen profiles (default: the core's suggestion): text edits are
 * written atomically (temp file + rename); a safe `rename-folder` operation (with the name it
 * carries) runs only when no file or folder of the new name exists. Reports what changed.
 */
export async function applySafeFixes(
  skillFile: string,
  options: { profiles?: ProfileId[] } = {},
): Promise<FixOutcome> {
  const file = await skillFileOf(skillFile);
  const dir = dirname(file);
  const tree = await walkSkillTree(dir);
  const view = fileViewFromTree(tree, '', basename(dir));
  let original: string;
  let bytes: Buffer;
  try {
    // Why resolved first: a SKILL.md given by path may be a link; the file it names is bounded.
    bytes = await readResolvedBounded(file, SKILL_MD_MAX_BYTES);
    original = bytes.toString('utf8');
    readViewTextsSync(dir, view);
  } catch (error) {
    throw new ValidateInputError(describeFsError(error, file, 'read').message);
  }
  // Why nothing is written: the text was decoded with "�" for each byte that is not UTF-8, so
  // writing any fix back would replace those bytes for good (the check says where they are).
  if (!isUtf8(bytes))
    return {
      file,
      changed: false,
      applied: [],
      skipped: [
        {
          title: 'Every fix',
          reason:
            'SKILL.md is not UTF-8 text, and writing it back would replace the bytes that are not with "�". Save it as UTF-8 first; nothing was written.',
        },
      ],
    };
  const { profiles, own } = chooseProfiles(parseSkill(original), options.profiles);
  const fixed = fixAllSafe(original, { profiles, ownProfiles: own, fileView: view });
  const applied: AppliedFix[] = fixed.applied.map((d) => ({
    ruleId: d.ruleId,
    profile: d.profile,
    title: d.fixes?.find((f) => f.safe && !f.fileOperations?.length)?.title ?? d.ruleId,
    message: d.message,
  }));
  const outcome: FixOutcome = { file, changed: false, applied, skipped: [] };
  if (fixed.text !== original) {
    await writeFileAtomic(file, fixed.text);
    outcome.changed = true;
  }
  const after = validateSkill(fixed.text, { profiles, ownProfiles: own, fileView: view });
  for (const d of after.diagnostics) {
    const fix = d.fixes?.find(
      (f) => f.safe && f.fileOperations?.some((o) => o.kind === 'rename-folder'),
    );
    const op = fix?.fileOperations?.find((o) => o.kind === 'rename-folder');
    if (!fix || !op || outcome.renamedFolder) continue;
    if (!isPlainSegment(op.newName)) {
      outcome.skipped.push({
        title: fix.title,
        reason: `"${op.newName}" is not a plain folder name.`,
      });
      continue;
    }
    let target: string;
    try {
      target = await renameFolderNoReplace(dir, op.newName);
    } catch (error) {
      if (!(error instanceof FolderExistsError)) throw error;
      outcome.skipped.push({ title: fix.title, reason: error.message });
      continue;
    }
    outcome.renamedFolder = { from: dir, to: target };
    outcome.file = join(target, basename(file));
    outcome.changed = true;
    // The fix's text edits (the name itself) go with the folder's new name.
    if (fix.edits.length > 0)
      await writeFileAtomic(outcome.file, applyEdits(fixed.text, fix.edits));
    applied.push({ ruleId: d.ruleId, profile: d.profile, title: fix.title, message: d.message });
  }
  return outcome;
}
