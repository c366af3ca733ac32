/**
 * The one skill-folder reader. Every part of the app that looks at a skill's files reads them
 * here: validation and the library listing, the file tree, the embedded server's catalog,
 * export, import from a folder. It walks with the one walker (main/platform/walk.ts), leaves
 * out what the file set says a skill never holds (shared/skill/file-set.ts: version control,
 * OS litter, dependencies, caches are never entered), marks what is withheld when the skill is
 * shared (secret-looking files, the root `evals/`), and applies the one link policy: links are
 * described, never followed, and a link leaving the skill is reported.
 *
 * Per-destination differences sit on top of this in one place each: an export's plan
 * (shared/projection/plan.ts) may keep a withheld secret the user chose; the server publishes
 * exactly the entries this reader does not withhold (see {@link publishedEntries}).
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { leftOutByPath, NEVER_ENTERED, type LeftOut } from '../../shared/skill/file-set';
import type { FileView, FileViewEntry } from '../../shared/validation';
import { TimeSlicer } from '../platform/concurrency';
import { isInside, joinWalked, slashRelative } from '../platform/paths';
import { readBoundedSync } from '../platform/read-file';
import {
  walkSubtreesSync,
  walkTree,
  type WalkedEntry,
  type WalkedKind,
  type WalkedTree,
} from '../platform/walk';

export type { WalkedEntry, WalkedTree } from '../platform/walk';

/** Small files whose contents rules compare; read into `FileView.texts` (universal-2.1: tools.json). */
export const TEXT_FILES: readonly string[] = ['tools.json'];

/** Largest file read into `FileView.texts`; a bigger tools.json is reported by size, not read. */
export const TEXT_MAX_BYTES = 1024 * 1024;

/** Walk the subtrees at `starts` of a library or skill folder (synchronous: worker threads). */
export function walkSkillsSync(
  abs: string,
  starts: readonly string[],
  children: Map<string, WalkedEntry[]>,
): void {
  walkSubtreesSync(abs, starts, children, NEVER_ENTERED);
}

/** Walk a library or skill folder in time slices, never entering the folders a skill never holds. */
export function walkSkillTree(
  root: string,
  slicer?: TimeSlicer,
  maxEntries?: number,
  /** 'links': regular files listed by name only (size 0, no time), for callers that read each one next. */
  describe?: 'links',
): Promise<WalkedTree> {
  return walkTree(root, {
    notEntered: NEVER_ENTERED,
    ...(slicer ? { slicer } : {}),
    ...(maxEntries !== undefined ? { maxEntries } : {}),
    ...(describe ? { describe } : {}),
  });
}

/** The SKILL.md file name among a folder's entries: `SKILL.md` first, else any case of `skill.md`. */
export function skillFileNameIn(
  entries: readonly { name: string; kind: string }[],
): string | undefined {
  let fallback: string | undefined;
  for (const e of entries) {
    if (e.kind !== 'file') continue;
    if (e.name === 'SKILL.md') return e.name;
    if (fallback === undefined && e.name.toLowerCase() === 'skill.md') fallback = e.name;
  }
  return fallback;
}

/**
 * The skill file name at the top of `dir` from its one listing, nothing below it walked, or
 * undefined (also when it cannot be read). Why: whether a folder is itself a skill or a library
 * of skills is decided by its own listing; walking a 1,000-skill library for it took longer
 * than checking the skills.
 */
export async function skillFileAt(dir: string): Promise<string | undefined> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return skillFileNameIn(
      entries.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : 'other' })),
    );
  } catch {
    return undefined;
  }
}

/** Every skill folder among walked listings, with its SKILL.md file name, in path order. */
export function skillsIn(
  children: ReadonlyMap<string, readonly WalkedEntry[]>,
): { relDir: string; fileName: string }[] {
  const found: { relDir: string; fileName: string }[] = [];
  for (const [relDir, entries] of children) {
    const fileName = skillFileNameIn(entries);
    if (fileName !== undefined) found.push({ relDir, fileName });
  }
  return found.sort((a, b) => (a.relDir < b.relDir ? -1 : a.relDir > b.relDir ? 1 : 0));
}

/** What a link inside a skill points to, seen without following it for content. */
export interface LinkInfo {
  /** The link text as written (readlink). */
  text: string;
  /** The real path it resolves to, or null when it dangles or loops. */
  real: string | null;
  /** The target lies inside the skill folder. */
  inside: boolean;
  targetKind: 'file' | 'directory' | 'missing' | 'other';
  /** Size of the target when it is a file. */
  targetSize: number;
}

/** One path of a skill folder, relative to the skill, with the file set's verdict. */
export interface SkillEntry {
  /** `/`-separated, relative to the skill folder. */
  path: string;
  kind: WalkedKind;
  size: number;
  mtimeMs?: number;
  executable?: boolean;
  /** The walked file's identity (see WalkedEntry): what a read checks it opened. */
  ino?: number;
  dev?: number;
  /** Left out of the skill's file set (`never`) or withheld when shared (`private`), and why. */
  leftOut?: LeftOut;
  /** For symlinks: the target leaves the skill folder or dangles. */
  escapes?: boolean;
  /** For a symlink that stays in the skill: what it resolves to, relative to the skill. */
  target?: string;
  /** For symlinks, when read with {@link readSkillFolder}: what the link points to. */
  link?: LinkInfo;
}

/**
 * The entries of the skill at `relDir` of a walked tree, relative to the skill, each with the
 * file set's verdict (a folder's verdict covers everything under it). Folders the walk did not
 * enter are listed, their contents are not. No disk access.
 */
export function skillEntries(tree: WalkedTree, relDir: string): SkillEntry[] {
  const realDir = joinWalked(tree.realRoot, relDir);
  const cut = relDir === '' ? 0 : relDir.length + 1;
  const out: SkillEntry[] = [];
  const gather = (dir: string, inherited: LeftOut | undefined): void => {
    for (const e of tree.children.get(dir) ?? []) {
      const path = e.path.slice(cut);
      const entry: SkillEntry = { path, kind: e.kind, size: e.size };
      if (e.mtimeMs !== undefined) entry.mtimeMs = e.mtimeMs;
      if (e.executable) entry.executable = true;
      if (e.ino !== undefined) {
        entry.ino = e.ino;
        entry.dev = e.dev;
      }
      const leftOut = inherited ?? leftOutByPath(path, e.kind === 'directory');
      if (leftOut) entry.leftOut = leftOut;
      if (e.kind === 'symlink') {
        entry.escapes = e.target == null || !isInside(realDir, e.target);
        if (!entry.escapes && e.target != null) entry.target = slashRelative(realDir, e.target);
      }
      out.push(entry);
      if (e.kind === 'directory' && !e.notEntered) gather(e.path, leftOut);
    }
  };
  gather(relDir, undefined);
  return out;
}

/**
 * The file view the validation core reads (no disk access): every entry of the skill's file
 * set, with what is withheld when shared marked as such; what a skill never holds (and pipes,
 * sockets, devices) is not in it.
 */
export function fileViewOf(
  entries: readonly SkillEntry[],
  folderName: string,
  relativePath: string,
  fileName: string | undefined,
): FileView {
  const viewEntries: FileViewEntry[] = [];
  for (const e of entries) {
    if (e.kind === 'other' || e.leftOut?.scope === 'never') continue;
    const v: FileViewEntry = { path: e.path, kind: e.kind, size: e.size };
    if (e.kind === 'symlink') {
      v.escapes = e.escapes ?? true;
      if (!v.escapes && e.target !== undefined) v.target = e.target;
    }
    if (e.leftOut) v.withheld = e.leftOut.reason;
    viewEntries.push(v);
  }
  const view: FileView = { folderName, relativePath, entries: viewEntries };
  if (fileName !== undefined) view.fileName = fileName;
  return view;
}

/** Build the FileView of the skill at `relDir` of a walked tree (no disk access). */
export function fileViewFromTree(tree: WalkedTree, relDir: string, relativePath: string): FileView {
  const folderName = relDir === '' ? basename(tree.root) : (relDir.split('/').pop() ?? relDir);
  return fileViewOf(
    skillEntries(tree, relDir),
    folderName,
    relativePath,
    skillFileNameIn(tree.children.get(relDir) ?? []),
  );
}

/** Read the small comparison files (TEXT_FILES) present at the top of the skill into `view.texts`. */
export function readViewTextsSync(skillDir: string, view: FileView): void {
  for (const name of TEXT_FILES) {
    const entry = view.entries.find((e) => e.path === name);
    if (!entry || entry.kind !== 'file' || entry.size > TEXT_MAX_BYTES) continue;
    try {
      // Why bounded and not through a link: the file may have been swapped since the walk.
      const text = readBoundedSync(join(skillDir, name), TEXT_MAX_BYTES).toString('utf8');
      view.texts = { ...view.texts, [name]: text };
    } catch {
      // Why: a file that vanished or cannot be read between the walk and now is simply absent.
    }
  }
}

/** Describe a link without following it for content: its text, where it resolves, what is there. */
export function describeLink(abs: string, realDir: string): LinkInfo {
  let text = '?';
  try {
    text = readlinkSync(abs);
  } catch {
    // Why: a link removed since the walk is described as dangling.
  }
  try {
    // Why realpath of the link: it resolves every link on the way, as a reader following it would.
    const real = realpathSync(abs);
    const st = statSync(real);
    return {
      text,
      real,
      inside: isInside(realDir, real),
      targetKind: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other',
      targetSize: st.isFile() ? st.size : 0,
    };
  } catch {
    return { text, real: null, inside: false, targetKind: 'missing', targetSize: 0 };
  }
}

/** Thrown when a folder is not a skill (no SKILL.md); the message is for people. */
export class NotASkillError extends Error {}

/** A skill folder as read from disk: its entries with the file set's verdicts and links described. */
export interface SkillFolder {
  /** Absolute path of the skill folder. */
  dir: string;
  /** The folder's real path (links resolved), against which links are judged. */
  realDir: string;
  folderName: string;
  /** `SKILL.md` or `skill.md` as found. */
  skillFileName: string;
  /** Every path (sorted by path), never-folders listed but not entered. */
  entries: SkillEntry[];
}

/**
 * Read one skill folder: walk it (in time slices), judge every path with the file set, describe
 * every link. Refuses a folder without SKILL.md with {@link NotASkillError}.
 */
export async function readSkillFolder(
  folder: string,
  slicer: TimeSlicer = new TimeSlicer(),
  /**
   * 'links': regular files are listed without lstat (size 0, no time). Why: a caller that reads
   * every file next (export) gets size and time from the descriptor it reads, and one stat per
   * file fewer (bench/pack, 2,000 small files).
   */
  describe?: 'links',
): Promise<SkillFolder> {
  const dir = resolve(folder);
  if (!statSync(dir).isDirectory())
    throw new NotASkillError(
      `${dir} is not a folder. Give the skill's folder (the one that holds SKILL.md).`,
    );
  const noSkillFile = () => new NotASkillError(notASkillFolder(dir));
  // Why its own listing first: a folder given by mistake (a home folder, /usr) was walked whole
  // before this was found out, seconds to minutes.
  if ((await skillFileAt(dir)) === undefined) throw noSkillFile();
  const tree = await walkSkillTree(dir, slicer, undefined, describe);
  const skillFileName = skillFileNameIn(tree.children.get('') ?? []);
  if (skillFileName === undefined) throw noSkillFile();
  return skillFolderIn(tree, '', skillFileName);
}

/**
 * The skill folder at `relDir` of a tree already walked (a library's, by the embedded server),
 * exactly as {@link readSkillFolder} reads it from disk: the walk of a library and of one of its
 * skill folders list the same entries.
 */
export function skillFolderIn(
  tree: WalkedTree,
  relDir: string,
  skillFileName: string,
): SkillFolder {
  const dir = joinWalked(tree.root, relDir);
  const realDir = joinWalked(tree.realRoot, relDir);
  const entries = skillEntries(tree, relDir).sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  for (const e of entries)
    if (e.kind === 'symlink') e.link = describeLink(joinWalked(dir, e.path), realDir);
  return { dir, realDir, folderName: basename(dir), skillFileName, entries };
}

/**
 * The entries a shared copy of the skill holds: regular files and folders of the file set that
 * are not withheld. Links, pipes and devices are never published (a link's file is published
 * under its own path when it lives inside the skill).
 */
export function publishedEntries(folder: SkillFolder): SkillEntry[] {
  return folder.entries.filter((e) => !e.leftOut && (e.kind === 'file' || e.kind === 'directory'));
}

/** Build the file view of one skill folder from the disk (see {@link fileViewOf}). */
export async function buildFileView(
  skillDir: string,
  libraryRoot?: string,
  options: { takenNames?: boolean } = {},
): Promise<FileView> {
  const dir = resolve(skillDir);
  const tree = await walkSkillTree(dir);
  const rel = libraryRoot !== undefined ? slashRelative(resolve(libraryRoot), dir) : basename(dir);
  const view = fileViewFromTree(tree, '', rel === '' ? basename(dir) : rel);
  readViewTextsSync(dir, view);
  // Why not for a library root that is itself a skill: its folder is the one the user opened,
  // which no fix renames, and the folder above it is none of the library's business.
  if (options.takenNames && rel !== '') {
    // Why at most a few thousand: one folder's names, for one skill open in the editor; a folder
    // that cannot be read leaves the list out (the rename itself still refuses a taken name).
    const names = await readdir(dirname(dir)).catch(() => undefined);
    if (names && names.length <= TAKEN_NAMES_MAX)
      view.takenNames = names.filter((n) => n !== basename(dir));
  }
  return view;
}

/** Most names {@link buildFileView} lists beside a skill folder. */
const TAKEN_NAMES_MAX = 20_000;

/** A SKILL.md found under a library root. */
export interface FoundSkill {
  /** Absolute path of the skill folder. */
  dir: string;
  /** Absolute path of the SKILL.md file. */
  file: string;
  /** The folder relative to the root, `/` separated ('' when the root itself is a skill). */
  relativeDir: string;
  /** The file name as found on disk: `SKILL.md`, or `skill.md` (reported by the validator). */
  fileName: string;
  /** With `views`: the folder's file view from the same walk (what the server's check reads). */
  view?: FileView;
  /**
   * With `folders`: the skill folder from the same walk, as {@link readSkillFolder} would read it
   * (what the safety review reads; the embedded server hands it the same).
   */
  folder?: SkillFolder;
}

/** What to say about a library folder with no skill in it (validate, catalog and select say it). */
export function noSkillsFound(root: string): string {
  const linked = linkedSkillFile(root);
  if (linked) return `No skills found in ${root}: ${linked}`;
  return `No skills found in ${root}: neither it nor its subfolders hold a SKILL.md.`;
}

/** Why `dir`, given as one skill's folder, is none: no SKILL.md, or one that is a link. */
export function notASkillFolder(dir: string): string {
  const linked = linkedSkillFile(dir);
  return linked
    ? `${dir} is not a skill folder: ${linked}`
    : `${dir} has no SKILL.md file, so it is not a skill folder.`;
}

/** Why a skill's file that is a link makes no skill, in the words every command uses. */
export function linkedSkillFileSentence(fileName: string, target: string): string {
  return `its ${fileName} is a link (to ${target}), and Skillbench never follows a link in place of a skill's file, so the folder is not read as a skill. Put the file itself in the folder.`;
}

/** The sentence for `dir` when its SKILL.md is a link, else undefined (nothing is followed). */
function linkedSkillFile(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (name.toLowerCase() !== 'skill.md') continue;
    try {
      if (!lstatSync(join(dir, name)).isSymbolicLink()) continue;
      return linkedSkillFileSentence(name, readlinkSync(join(dir, name)));
    } catch {
      continue;
    }
  }
  return undefined;
}

/**
 * Every skill folder under `root` (nested skills too: a skill may contain another), in path
 * order, found by the same walk the listing uses. Linked folders are not entered.
 */
export async function findSkillFolders(
  root: string,
  options: { limit?: number; views?: boolean; folders?: boolean } = {},
): Promise<FoundSkill[]> {
  const tree = await walkSkillTree(root);
  const found = skillsIn(tree.children).slice(0, options.limit ?? 100_000);
  return found.map((f) => {
    const dir = joinWalked(tree.root, f.relDir);
    const skill: FoundSkill = {
      dir,
      file: joinWalked(dir, f.fileName),
      relativeDir: f.relDir,
      fileName: f.fileName,
    };
    if (options.views)
      skill.view = fileViewFromTree(tree, f.relDir, f.relDir === '' ? basename(dir) : f.relDir);
    if (options.folders) skill.folder = skillFolderIn(tree, f.relDir, f.fileName);
    return skill;
  });
}

/**
 * What a skill folder that is itself a link points to, judged by the link policy for skill
 * folders (SECURITY.md, "Linked skill folders"): it is followed only when its target is a skill
 * folder (it holds SKILL.md) inside one of `allowedRoots`, the skills folders of the known
 * agents and the library roots, never the root itself. Anything else is reported, not followed.
 */
export type SkillLinkVerdict =
  | { state: 'followed'; link: string; text: string; target: string; fileName: string }
  | { state: 'broken'; link: string; text: string; reason: string }
  | { state: 'refused'; link: string; text: string; target: string; reason: string };

/** The real path of each allowed root that exists and is not itself a link (see {@link judgeSkillLink}). */
export function realAllowedRoots(allowedRoots: readonly string[]): string[] {
  const out = new Set<string>();
  for (const root of allowedRoots) {
    try {
      // Why not a root that is a link: a skills folder linked to /etc would make every link into /etc "inside".
      if (lstatSync(root).isSymbolicLink()) continue;
      out.add(realpathSync(root));
    } catch {
      // Why: a root that does not exist allows nothing.
    }
  }
  return [...out];
}

/** Judge the link at `linkPath` (absolute) against the link policy for skill folders. */
export function judgeSkillLink(
  linkPath: string,
  allowedRoots: readonly string[],
): SkillLinkVerdict {
  const link = resolve(linkPath);
  let text = '?';
  try {
    text = readlinkSync(link);
  } catch {
    // Why: a link removed since it was listed is described as broken below.
  }
  let target: string;
  try {
    target = realpathSync(link);
  } catch {
    return {
      state: 'broken',
      link,
      text,
      reason: `${basename(link)} is a link to ${text}, which does not exist (a broken link).`,
    };
  }
  let isDir = false;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    // Why: gone between realpath and stat: reported as not a folder.
  }
  if (!isDir)
    return {
      state: 'refused',
      link,
      text,
      target,
      reason:
        skillFileNameIn([{ name: basename(link), kind: 'file' }]) !== undefined
          ? `${dirname(link)}: ${linkedSkillFileSentence(basename(link), text)}`
          : `${basename(link)} is a link to ${target}, which is not a folder, so it is not a skill.`,
    };
  let entries: { name: string; kind: string }[] = [];
  try {
    entries = readdirSync(target, { withFileTypes: true }).map((d) => ({
      name: d.name,
      kind: d.isFile() ? 'file' : 'other',
    }));
  } catch {
    // Why: an unreadable target is judged as holding no SKILL.md.
  }
  const fileName = skillFileNameIn(entries);
  if (fileName === undefined)
    return {
      state: 'refused',
      link,
      text,
      target,
      reason: `${basename(link)} is a link to ${target}, which has no SKILL.md, so it is not a skill folder.`,
    };
  const roots = realAllowedRoots(allowedRoots);
  if (!roots.some((root) => target !== root && isInside(root, target)))
    return {
      state: 'refused',
      link,
      text,
      target,
      reason: `${basename(link)} is a link to ${target}, which is outside the skills folders of your agents and your library, so Skillbench does not follow it.`,
    };
  return { state: 'followed', link, text, target, fileName };
}

/** Every entry at the top of `root` that is a link, judged by {@link judgeSkillLink}, in name order. */
export function linkedSkillFolders(
  root: string,
  allowedRoots: readonly string[],
): SkillLinkVerdict[] {
  let names: string[];
  try {
    names = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isSymbolicLink() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  return names.map((name) => judgeSkillLink(join(root, name), allowedRoots));
}
