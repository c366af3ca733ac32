import { readFileSync } from 'node:fs';
import { lstat, rename, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseSkill } from '../../shared/skill';
import type { ParsedSkill } from '../../shared/skill';
import { fixAllSafe, suggestProfiles, validateSkill } from '../../shared/validation';
import type { DescriptionBudget, Diagnostic, FileView, ProfileId, ValidationResult } from '../../shared/validation';
import { writeFileAtomic } from '../library/atomic-write';
import { describeFsError } from '../library/fs-errors';
import { diskDiagnostic, linkDiagnostics, packageDiagnostics, packageSize, targetFits } from './disk-rules';
import type { TargetFit } from './disk-rules';
import { fileViewFromTree, readText, readViewTexts, readViewTextsSync, skillFileNameIn, slashRelative, TimeSlicer, walkTree } from './file-view';
import type { WalkedTree } from './file-view';
import { checkLibrary, memberFacts } from './library-checks';
import type { LibraryFinding, LibraryMember } from './library-checks';

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
}

interface Validated {
  result: SkillValidation;
  member: LibraryMember;
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

/** The profiles to check: the caller's, else the core's suggestion. */
function chooseProfiles(parsed: ParsedSkill, given: readonly ProfileId[] | undefined): { profiles: ProfileId[]; source: 'given' | 'suggested' } {
  if (given && given.length > 0) return { profiles: [...new Set(given)], source: 'given' };
  const suggested = suggestProfiles(parsed);
  return { profiles: suggested.length > 0 ? suggested : ['agentskills'], source: 'suggested' };
}

/** Validate the skill at `relDir` of a walked tree: read SKILL.md (+ comparison files), run the core and the disk checks. */
function validateInTree(tree: WalkedTree, relDir: string, relativePath: string, fileName: string, given: readonly ProfileId[] | undefined): Validated {
  const dir = relDir === '' ? tree.root : join(tree.root, ...relDir.split('/'));
  const file = join(dir, fileName);
  const view = fileViewFromTree(tree, relDir, relativePath);
  let parsed: ParsedSkill;
  try {
    // Why synchronous reads: see TimeSlicer in ./file-view; callers slice the work.
    const text = readFileSync(file, 'utf8');
    readViewTextsSync(dir, view);
    parsed = parseSkill(text);
  } catch (error) {
    return unreadable(dir, file, relativePath, view, given, error);
  }
  const { profiles, source } = chooseProfiles(parsed, given);
  const core = validateSkill(parsed, { profiles, fileView: view });
  const size = packageSize(view);
  const diagnostics = [...core.diagnostics, ...linkDiagnostics(parsed, view, profiles), ...packageDiagnostics(size, profiles)];
  const facts = memberFacts(parsed, profiles);
  const result: SkillValidation = {
    file,
    dir,
    relativePath,
    name: facts.name,
    profiles,
    profilesSource: source,
    diagnostics,
    verdicts: core.verdicts,
    counts: { error: 0, warning: 0, info: 0 },
    size,
    targets: targetFits(size),
    suggestedProfiles: source === 'suggested' ? [...profiles] : suggestProfiles(parsed),
  };
  if (facts.description !== undefined) result.description = facts.description;
  return { result, member: { relativePath, filePath: relativePath === '' ? fileName : `${relativePath}/${fileName}`, facts, profiles, diagnostics } };
}

function unreadable(dir: string, file: string, relativePath: string, view: FileView, given: readonly ProfileId[] | undefined, error: unknown): Validated {
  const profiles: ProfileId[] = given && given.length > 0 ? [...new Set(given)] : ['agentskills'];
  const why = describeFsError(error, file, 'read');
  const diagnostics = profiles.flatMap((p) => diskDiagnostic('file/unreadable', p, { message: why.message, detail: why.detail ?? why.code }) ?? []);
  const size = packageSize(view);
  return {
    result: { file, dir, relativePath, name: null, profiles, profilesSource: given?.length ? 'given' : 'suggested', diagnostics, verdicts: {}, counts: { error: 0, warning: 0, info: 0 }, size, targets: targetFits(size), suggestedProfiles: ['agentskills'] },
    member: { relativePath, filePath: `${relativePath}/${basename(file)}`, facts: { name: null, dependencies: [] }, profiles, diagnostics },
  };
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
  const slicer = new TimeSlicer();
  const tree = options.tree && options.tree.root === abs ? options.tree : await walkTree(abs, slicer);
  const found: { relDir: string; fileName: string }[] = [];
  for (const [relDir, entries] of tree.children) {
    const fileName = skillFileNameIn(entries);
    if (fileName !== undefined) found.push({ relDir, fileName });
  }
  found.sort((a, b) => (a.relDir < b.relDir ? -1 : a.relDir > b.relDir ? 1 : 0));
  // Why: when the root is itself a skill, its relative path is its folder name (mcp-serve compares the last segment with `name`).
  const rootIsSkill = found.some((f) => f.relDir === '');
  const relOf = (relDir: string): string => (rootIsSkill ? (relDir === '' ? basename(abs) : `${basename(abs)}/${relDir}`) : relDir);
  const validated: Validated[] = [];
  for (const f of found) {
    if (slicer.due()) await slicer.pause();
    validated.push(validateInTree(tree, f.relDir, relOf(f.relDir), f.fileName, options.profiles));
  }
  const members = validated.map((v) => v.member);
  const { budget, findings } = checkLibrary(members, { dependencies: options.checkDependencies ?? true });
  const skills = validated.map((v) => v.result);
  for (const s of skills) finish(s);
  const counts = countsOf([...skills.flatMap((s) => s.diagnostics), ...findings]);
  return { root: abs, skills, findings, budget, counts };
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
