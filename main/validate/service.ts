import { realpathSync } from 'node:fs';
import { lstat, rename, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseSkill } from '../../shared/skill';
import { fixAllSafe, validateSkill } from '../../shared/validation';
import type { DescriptionBudget, Diagnostic, ProfileId, ValidationResult } from '../../shared/validation';
import { writeFileAtomic } from '../library/atomic-write';
import { describeFsError } from '../library/fs-errors';
import type { TargetFit } from './disk-rules';
import { fileViewFromTree, readText, readViewTexts, skillFileNameIn, slashRelative, TimeSlicer, UNWALKED_FOLDERS, walkFolder, walkTree } from './file-view';
import type { WalkedEntry, WalkedTree } from './file-view';
import { chooseProfiles, validateInTree } from './in-tree';
import type { Validated } from './in-tree';
import type { LibraryJob } from './library-job';
import { sharedValidationPool } from './workers';
import type { ValidationPool } from './workers';
import { checkLibrary } from './library-checks';
import type { LibraryFinding } from './library-checks';

/** Thrown when a path cannot be validated at all (missing, not a skill, unreadable); the message is for people. */
export class ValidateInputError extends Error {}

/** How many findings of each severity. */
export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

/** The validation of one skill folder, disk checks included. */
export interface SkillValidation {
  /** Absolute path of the SKILL.md (or skill.md). */
  file: string;
  /** Absolute path of the skill folder. */
  dir: string;
  /** The folder relative to the library root, `/` separated (the folder name for a lone skill). */
  relativePath: string;
  /** The frontmatter `name` (NFKC), or null when absent or not text. */
  name: string | null;
  profiles: ProfileId[];
  /** `given` by the caller, or `suggested` by the core from the frontmatter. */
  profilesSource: 'given' | 'suggested';
  /** Core, disk and library findings; ranges are always in the SKILL.md text, `file` names what the finding is about. */
  diagnostics: Diagnostic[];
  verdicts: ValidationResult['verdicts'];
  counts: SeverityCounts;
  /** Files and bytes as a package would contain them. */
  size: { files: number; bytes: number };
  /** Whether the skill fits each export target with limits. */
  targets: TargetFit[];
  /** The frontmatter `description` when it is text (the library list shows it without reading the file again). */
  description?: string;
  /** The core's profile suggestion for this skill, whatever `profiles` were checked. */
  suggestedProfiles: ProfileId[];
}

/** The validation of a library folder: every skill under it plus library-wide findings. */
export interface LibraryValidation {
  root: string;
  skills: SkillValidation[];
  /** Findings about the library as a whole (the description budget). */
  findings: LibraryFinding[];
  budget: DescriptionBudget;
  counts: SeverityCounts;
}

/** Options of {@link validateSkillFolder}. */
export interface ValidateFolderOptions {
  /** Profiles to check; default: the core's suggestion for the skill (`suggestProfiles`), which always includes one. */
  profiles?: ProfileId[];
  /** Library root for `relativePath` (mcp-serve compares its last segment); default: the skill's parent. */
  libraryRoot?: string;
}

/** Options of {@link validateLibrary}. */
export interface ValidateLibraryOptions {
  profiles?: ProfileId[];
  /** Resolve `depends_on` against the library (default true). */
  checkDependencies?: boolean;
  /** A walk of `root` the caller already made (the app walks first to see whether anything changed). */
  tree?: WalkedTree;
  /** Workers to share a large library with; default the pool named by `useValidationWorkers`, null: this thread only. */
  pool?: ValidationPool | null;
}

function countsOf(diagnostics: readonly { severity: string }[]): SeverityCounts {
  const c: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') c.error++;
    else if (d.severity === 'warning') c.warning++;
    else c.info++;
  }
  return c;
}

/** Per profile verdict over every finding (core verdicts do not see disk and library findings). */
function verdictsOf(profiles: readonly ProfileId[], diagnostics: readonly Diagnostic[]): ValidationResult['verdicts'] {
  const v: ValidationResult['verdicts'] = {};
  for (const p of profiles) {
    const mine = diagnostics.filter((d) => d.profile === p);
    v[p] = mine.some((d) => d.severity === 'error') ? 'error' : mine.some((d) => d.severity === 'warning') ? 'warning' : 'valid';
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
export async function validateSkillFolder(dirOrFile: string, options: ValidateFolderOptions = {}): Promise<SkillValidation> {
  let dir = resolve(dirOrFile);
  if (!(await statOrExplain(dir)).isDirectory()) dir = dirname(dir);
  const tree = await walkTree(dir);
  const fileName = skillFileNameIn(tree.children.get('') ?? []);
  if (fileName === undefined) throw new ValidateInputError(`${dir} has no SKILL.md file, so it is not a skill folder.`);
  const rel = options.libraryRoot !== undefined ? slashRelative(resolve(options.libraryRoot), dir) : basename(dir);
  const { result } = validateInTree(tree, '', rel === '' ? basename(dir) : rel, fileName, options.profiles);
  finish(result);
  return result;
}

/**
 * Validate every skill under a library folder: one walk of the tree (the same skills as
 * main/library/scan.ts `findSkills`), skills read and checked in time slices, then the
 * library-wide checks (duplicate names, `depends_on`, description budget).
 */
export async function validateLibrary(root: string, options: ValidateLibraryOptions = {}): Promise<LibraryValidation> {
  const abs = resolve(root);
  if (!(await statOrExplain(abs)).isDirectory()) throw new ValidateInputError(`${abs} is a file, not a folder. Give the folder that holds your skills.`);
  const given = options.tree && options.tree.root === abs ? options.tree : undefined;
  const pool = options.pool === undefined ? sharedValidationPool() : options.pool;
  let validated: Validated[] | null = null;
  if (pool) {
    try {
      validated = (await runShared(pool, abs, { validate: true, profiles: options.profiles, tree: given }))?.validated ?? null;
    } catch {
      // Why carry on: a worker that cannot start or crashed must not cost the user the listing; this thread does the work.
      validated = null;
    }
  }
  validated ??= await validateOnThisThread(abs, given, options.profiles);
  const members = validated.map((v) => v.member);
  const { budget, findings } = checkLibrary(members, { dependencies: options.checkDependencies ?? true });
  const skills = validated.map((v) => v.result);
  for (const s of skills) finish(s);
  const counts = countsOf([...skills.flatMap((s) => s.diagnostics), ...findings]);
  return { root: abs, skills, findings, budget, counts };
}

/** Walk (unless given) and validate every skill of the library on this thread, in time slices. */
async function validateOnThisThread(abs: string, given: WalkedTree | undefined, profiles: ProfileId[] | undefined): Promise<Validated[]> {
  const slicer = new TimeSlicer();
  const tree = given ?? (await walkTree(abs, slicer));
  const found: { relDir: string; fileName: string }[] = [];
  for (const [relDir, entries] of tree.children) {
    const fileName = skillFileNameIn(entries);
    if (fileName !== undefined) found.push({ relDir, fileName });
  }
  found.sort((a, b) => byPath(a.relDir, b.relDir));
  // Why: when the root is itself a skill, its relative path is its folder name (mcp-serve compares the last segment with `name`).
  const rootIsSkill = found.some((f) => f.relDir === '');
  const relOf = (relDir: string): string => (rootIsSkill ? (relDir === '' ? basename(abs) : `${basename(abs)}/${relDir}`) : relDir);
  const validated: Validated[] = [];
  for (const f of found) {
    if (slicer.due()) await slicer.pause();
    validated.push(validateInTree(tree, f.relDir, relOf(f.relDir), f.fileName, profiles));
  }
  return validated;
}

/**
 * Walk `root` like {@link walkTree}, sharing a large library's subfolders among the validation
 * workers (see ./workers) when there are some; the result is the same tree.
 */
export async function walkLibrary(root: string, options: { pool?: ValidationPool | null } = {}): Promise<WalkedTree> {
  const abs = resolve(root);
  const pool = options.pool === undefined ? sharedValidationPool() : options.pool;
  if (pool) {
    try {
      const shared = await runShared(pool, abs, { validate: false });
      if (shared?.tree) return shared.tree;
    } catch {
      // Why: as in validateLibrary, a failed worker leaves the walk to this thread.
    }
  }
  return walkTree(abs);
}

/** Code-unit order of relative paths (the order every listing uses). */
const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Fewest root subfolders for which the work is shared with workers. Why a floor: a job's
 * round trip and the copy of its results cost more than checking a few dozen skills here.
 */
export const SHARED_MIN_FOLDERS = 48;

/**
 * Share the root's subfolders among the pool's workers: each walks (or is given) its subtrees
 * and, when asked, validates the skills in them. Returns null when the library does not qualify
 * (a skill at the root, too few subfolders), so the caller works on its own thread.
 */
async function runShared(
  pool: ValidationPool,
  abs: string,
  how: { validate: boolean; profiles?: ProfileId[] | undefined; tree?: WalkedTree | undefined },
): Promise<{ tree: WalkedTree | null; validated: Validated[] } | null> {
  let tree: WalkedTree;
  const tops: string[] = [];
  if (how.tree) {
    tree = how.tree;
    for (const e of tree.children.get('') ?? []) if (e.kind === 'directory' && !UNWALKED_FOLDERS.has(e.name)) tops.push(e.path);
  } else {
    const children = new Map<string, WalkedEntry[]>();
    if (!walkFolder(abs, '', children, tops)) return null;
    tree = { root: abs, realRoot: realpathSync(abs), children };
  }
  if (tops.length < SHARED_MIN_FOLDERS || skillFileNameIn(tree.children.get('') ?? []) !== undefined) return null;
  // Why several small jobs per worker rather than one big one: skills differ in size, and a free worker takes the next job.
  const per = Math.max(8, Math.ceil(tops.length / (pool.size * 4)));
  const jobs: LibraryJob[] = [];
  const jobOf = new Map<string, LibraryJob>();
  for (let i = 0; i < tops.length; i += per) {
    const job: LibraryJob = { root: abs, realRoot: tree.realRoot, dirs: tops.slice(i, i + per), validate: how.validate, returnTree: !how.validate };
    if (how.profiles) job.profiles = how.profiles;
    if (how.tree) job.children = [];
    jobs.push(job);
    for (const d of job.dirs) jobOf.set(d, job);
  }
  if (how.tree) {
    for (const [relDir, entries] of how.tree.children) {
      if (relDir === '') continue;
      const slash = relDir.indexOf('/');
      jobOf.get(slash === -1 ? relDir : relDir.slice(0, slash))?.children?.push([relDir, entries]);
    }
  }
  const results = await Promise.all(jobs.map((job) => pool.run(job)));
  const validated: Validated[] = [];
  for (const r of results) {
    if (r.children) for (const [relDir, entries] of r.children) tree.children.set(relDir, entries);
    for (const v of r.validated) validated.push(v);
  }
  // Why sort: jobs cover runs of root folders in order, but a root folder name may sort between nested paths of another.
  validated.sort((a, b) => byPath(a.result.relativePath, b.result.relativePath));
  return { tree: how.validate && !how.tree ? null : tree, validated };
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
  const tree = await walkTree(abs);
  const name = skillFileNameIn(tree.children.get('') ?? []);
  if (name === undefined) throw new ValidateInputError(`${abs} has no SKILL.md file, so it is not a skill folder.`);
  return join(abs, name);
}

/** A folder name a rename may use: one plain path segment. */
function isPlainSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[\\/\0]/.test(name);
}

/**
 * Apply every safe fix of the chosen profiles (default: the core's suggestion): text edits are
 * written atomically (temp file + rename); a safe `rename-folder` operation runs only when no
 * file or folder of the new name exists. Reports what changed.
 */
export async function applySafeFixes(skillFile: string, options: { profiles?: ProfileId[] } = {}): Promise<FixOutcome> {
  const file = await skillFileOf(skillFile);
  const dir = dirname(file);
  const tree = await walkTree(dir);
  const view = fileViewFromTree(tree, '', basename(dir));
  let original: string;
  try {
    [original] = await Promise.all([readText(file), readViewTexts(dir, view)]);
  } catch (error) {
    throw new ValidateInputError(describeFsError(error, file, 'read').message);
  }
  const { profiles } = chooseProfiles(parseSkill(original), options.profiles);
  const fixed = fixAllSafe(original, { profiles, fileView: view });
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
  const after = validateSkill(fixed.text, { profiles, fileView: view });
  for (const d of after.diagnostics) {
    const fix = d.fixes?.find((f) => f.safe && f.fileOperations?.some((o) => o.kind === 'rename-folder'));
    const op = fix?.fileOperations?.find((o) => o.kind === 'rename-folder');
    if (!fix || !op || outcome.renamedFolder) continue;
    if (!isPlainSegment(op.newName)) {
      outcome.skipped.push({ title: fix.title, reason: `"${op.newName}" is not a plain folder name.` });
      continue;
    }
    const target = join(dirname(dir), op.newName);
    const exists = await lstat(target).then(
      () => true,
      () => false,
    );
    if (exists) {
      outcome.skipped.push({ title: fix.title, reason: `${target} already exists, so the folder was not renamed.` });
      continue;
    }
    await rename(dir, target);
    outcome.renamedFolder = { from: dir, to: target };
    outcome.file = join(target, basename(file));
    outcome.changed = true;
    applied.push({ ruleId: d.ruleId, profile: d.profile, title: fix.title, message: d.message });
  }
  return outcome;
}
