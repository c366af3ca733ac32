import type { Dirent } from 'node:fs';
import { lstatSync, readdirSync, readFile, readFileSync, realpathSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { FileView, FileViewEntry } from '../../shared/validation';
import { isInside } from '../library/paths';

/**
 * Folders listed in a file view but never entered: version control and dependency trees are
 * never part of a skill package (spec §3 "Always on export": `.git/`, `node_modules/`,
 * `__pycache__/`, `__MACOSX/`) and may hold thousands of files. Same set as main/library/scan.ts.
 */
export const UNWALKED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '__MACOSX',
]);

/** Small files whose contents rules compare; read into `FileView.texts` (spec §2 universal-2.1: tools.json). */
export const TEXT_FILES: readonly string[] = ['tools.json'];

/** Largest file read into `FileView.texts`; a bigger tools.json is reported by size, not read. */
export const TEXT_MAX_BYTES = 1024 * 1024;

/** One path found by a walk, relative to the walk root. */
export interface WalkedEntry {
  /** `/`-separated path relative to the walk root. */
  path: string;
  name: string;
  kind: FileViewEntry['kind'];
  size: number;
  /** Last modification time (files and links), so callers can tell whether anything changed since the last walk. */
  mtimeMs?: number;
  /** For symlinks: the real path the link resolves to, or null when it dangles or loops. */
  target?: string | null;
}

/** A folder tree read once with lstat semantics: every folder's children, by relative folder path ('' = root). */
export interface WalkedTree {
  root: string;
  realRoot: string;
  children: Map<string, WalkedEntry[]>;
}

// Why callback fs wrapped in a promise rather than node:fs/promises: for small files the
// promise API's FileHandle machinery costs up to twice as much (bench/validate).
/** Read a file as UTF-8. */
export const readText = (path: string): Promise<string> =>
  new Promise((ok, fail) => readFile(path, 'utf8', (e, d) => (e ? fail(e) : ok(d))));

function kindOf(d: Dirent): FileViewEntry['kind'] | null {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  return null; // sockets, FIFOs, devices: nothing a skill can ship.
}

/** Longest stretch of synchronous file-system and parsing work before the event loop gets a turn. */
export const SLICE_MS = 8;

/**
 * Splits long synchronous work into slices of {@link SLICE_MS}: call `due()` between steps and
 * `await pause()` when it says so. Why synchronous work in slices rather than async calls: a
 * library walk is thousands of tiny readdir/lstat calls, and each async call's round trip
 * through libuv's thread pool costs more than the system call itself (bench/validate: the
 * async walk of 1,000 skills took ~2× the synchronous one on the same disk). Slicing keeps the
 * event loop (IPC, the browser-shell host, timers) responsive meanwhile.
 */
export class TimeSlicer {
  private start = performance.now();

  /** Whether this slice is used up. */
  due(): boolean {
    return performance.now() - this.start >= SLICE_MS;
  }

  /** Let the event loop run, then start a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((ok) => setImmediate(ok));
    this.start = performance.now();
  }
}

/** Option objects made once: fs copies or checks a fresh literal on every call. */
const WITH_TYPES = { withFileTypes: true } as const;
const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * Read one folder of a walk into `children` and queue its subfolders on `pending`: readdir with
 * file types, lstat for sizes and times, realpath for symlink targets. Returns false when the
 * folder cannot be read. Synchronous: callers on the main thread slice it (see {@link TimeSlicer}),
 * validation workers run it straight through.
 */
export function walkFolder(
  abs: string,
  relDir: string,
  children: Map<string, WalkedEntry[]>,
  pending: string[],
): boolean {
  // Why concatenation instead of path.join: relDir comes from readdir names joined with `/`
  // (which every platform's file calls accept), so nothing needs normalising; join showed up in the profile.
  const base = abs.endsWith(sep) ? abs : abs + sep;
  const dirPath = relDir === '' ? abs : base + relDir;
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dirPath, WITH_TYPES);
  } catch {
    return false;
  }
  const prefix = relDir === '' ? base : dirPath + '/';
  const entries: WalkedEntry[] = [];
  for (const d of dirents) {
    const kind = kindOf(d);
    if (!kind) continue;
    const path = relDir === '' ? d.name : `${relDir}/${d.name}`;
    const entry: WalkedEntry = { path, name: d.name, kind, size: 0 };
    entries.push(entry);
    if (kind === 'directory') {
      if (!UNWALKED_FOLDERS.has(d.name)) pending.push(path);
      continue;
    }
    const full = prefix + d.name;
    try {
      // Why throwIfNoEntry: a file removed since readdir keeps size 0 without an exception's cost.
      const info = lstatSync(full, NO_THROW);
      entry.size = info?.size ?? 0;
      entry.mtimeMs = info?.mtimeMs ?? 0;
    } catch {
      // Why: an entry that cannot be examined keeps size 0 rather than failing the walk.
    }
    if (kind === 'symlink') {
      try {
        entry.target = realpathSync(full);
      } catch {
        entry.target = null;
      }
    }
  }
  children.set(relDir, entries);
  return true;
}

/** Walk the subtrees at `starts` (relative folders) of `abs` into `children`, without pausing (validation workers). */
export function walkSubtreesSync(
  abs: string,
  starts: readonly string[],
  children: Map<string, WalkedEntry[]>,
): void {
  const pending = [...starts];
  // Why: one unreadable subfolder must not hide the rest of the skill or library.
  for (let head = 0; head < pending.length; head++)
    walkFolder(abs, pending[head] ?? '', children, pending);
}

/**
 * Walk `root` once (see {@link walkFolder}). Symlinks are never followed (spec §3 "never follow
 * a symlink silently"); folders in {@link UNWALKED_FOLDERS} are listed but not entered.
 * Unreadable subfolders are skipped; an unreadable root fails the walk. Synchronous calls in
 * time slices (see {@link TimeSlicer}).
 */
export async function walkTree(
  root: string,
  slicer: TimeSlicer = new TimeSlicer(),
): Promise<WalkedTree> {
  const abs = resolve(root);
  const realRoot = realpathSync(abs);
  const children = new Map<string, WalkedEntry[]>();
  const pending: string[] = [''];
  for (let head = 0; head < pending.length; head++) {
    if (slicer.due()) await slicer.pause();
    const read = walkFolder(abs, pending[head] ?? '', children, pending);
    // Why read the root again on failure: an unreadable root must fail the walk with the system's own error.
    if (!read && head === 0) readdirSync(abs);
  }
  return { root: abs, realRoot, children };
}

/** The real path of a folder inside the tree (the walk never follows links, so it is realRoot + rel). */
function realDirOf(tree: WalkedTree, relDir: string): string {
  return relDir === '' ? tree.realRoot : join(tree.realRoot, ...relDir.split('/'));
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

/** Build the FileView of the skill at `relDir` of a walked tree (no disk access). */
export function fileViewFromTree(tree: WalkedTree, relDir: string, relativePath: string): FileView {
  const realDir = realDirOf(tree, relDir);
  const prefix = relDir === '' ? 0 : relDir.length + 1;
  const entries: FileViewEntry[] = [];
  const gather = (dir: string): void => {
    for (const e of tree.children.get(dir) ?? []) {
      const out: FileViewEntry = { path: e.path.slice(prefix), kind: e.kind, size: e.size };
      if (e.kind === 'symlink') out.escapes = e.target == null || !isInside(realDir, e.target);
      entries.push(out);
      if (e.kind === 'directory') gather(e.path);
    }
  };
  gather(relDir);
  const top = tree.children.get(relDir) ?? [];
  const view: FileView = {
    folderName: relDir === '' ? basename(tree.root) : (relDir.split('/').pop() ?? relDir),
    relativePath,
    entries,
  };
  const fileName = skillFileNameIn(top);
  if (fileName !== undefined) view.fileName = fileName;
  return view;
}

/** Read the small comparison files (TEXT_FILES) present at the top of the skill into `view.texts` (synchronously: they are few and small). */
export function readViewTextsSync(skillDir: string, view: FileView): void {
  for (const name of TEXT_FILES) {
    const entry = view.entries.find((e) => e.path === name);
    if (!entry || entry.kind !== 'file' || entry.size > TEXT_MAX_BYTES) continue;
    try {
      const text = readFileSync(join(skillDir, name), 'utf8');
      view.texts = { ...view.texts, [name]: text };
    } catch {
      // Why: a file that vanished or cannot be read between the walk and now is simply absent.
    }
  }
}

/** Read the small comparison files (TEXT_FILES) present at the top of the skill into `view.texts`. */
export async function readViewTexts(skillDir: string, view: FileView): Promise<void> {
  for (const name of TEXT_FILES) {
    const entry = view.entries.find((e) => e.path === name);
    if (!entry || entry.kind !== 'file' || entry.size > TEXT_MAX_BYTES) continue;
    try {
      const text = await readText(join(skillDir, name));
      view.texts = { ...view.texts, [name]: text };
    } catch {
      // Why: a file that vanished or cannot be read between the walk and now is simply absent.
    }
  }
}

/** `path` relative to `from`, `/`-separated. */
export function slashRelative(from: string, path: string): string {
  return relative(from, path).split(sep).join('/');
}

/**
 * Build the file view of one skill folder from the disk: every path with lstat (symlinks not
 * followed; those leaving the folder or dangling are marked `escapes`), sizes, kinds, the
 * folder name, the path relative to `libraryRoot` (default: the parent folder), the SKILL.md
 * file name, and the contents of small comparison files such as `tools.json`.
 */
export async function buildFileView(skillDir: string, libraryRoot?: string): Promise<FileView> {
  const dir = resolve(skillDir);
  const tree = await walkTree(dir);
  const rel = libraryRoot !== undefined ? slashRelative(resolve(libraryRoot), dir) : basename(dir);
  const view = fileViewFromTree(tree, '', rel === '' ? basename(dir) : rel);
  await readViewTexts(dir, view);
  return view;
}
