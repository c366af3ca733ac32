/**
 * The one folder walker: readdir with file types, lstat for sizes and times, realpath for link
 * targets; links are described, never followed. Synchronous calls (see TimeSlicer for why),
 * sliced by callers on a thread that must stay responsive and run straight through on workers.
 * What a walk does not enter is the caller's choice (`notEntered`); skill folders use the file
 * set's list (main/skill-folder), other folders may enter everything.
 */
import type { Dirent } from 'node:fs';
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { TimeSlicer } from './concurrency';

/** What a walked path is, as lstat sees it (links are never followed). */
export type WalkedKind = 'file' | 'directory' | 'symlink' | 'other';

/** One path found by a walk, relative to the walk root. */
export interface WalkedEntry {
  /** `/`-separated path relative to the walk root. */
  path: string;
  name: string;
  kind: WalkedKind;
  size: number;
  /** Last modification time (files and links), so callers can tell whether anything changed since the last walk. */
  mtimeMs?: number;
  /** Whether any execute bit is set (files). */
  executable?: boolean;
  /**
   * The file's identity (inode and device, regular files): a reader checks that what it opened
   * is this very file, so a folder on the way swapped for a link after the walk is not followed.
   */
  ino?: number;
  dev?: number;
  /** For symlinks: the real path the link resolves to, or null when it dangles or loops. */
  target?: string | null;
  /** A folder the walk listed but did not enter (see `notEntered`). */
  notEntered?: boolean;
}

/** A folder tree read once: every folder's children, by relative folder path ('' = root). */
export interface WalkedTree {
  root: string;
  realRoot: string;
  children: Map<string, WalkedEntry[]>;
  /** The walk stopped at `maxEntries` (see {@link walkTree}): there is more than `children` holds. */
  truncated?: boolean;
}

/** Folder names a walk lists but does not enter. */
export type NotEntered = ReadonlySet<string>;

const ENTER_ALL: NotEntered = new Set();

function kindOf(d: Dirent): WalkedKind {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  return 'other'; // sockets, FIFOs, devices: listed so callers can say why they are left out.
}

/** Option objects made once: fs copies or checks a fresh literal on every call. */
const WITH_TYPES = { withFileTypes: true } as const;
const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * Read one folder of a walk into `children` and queue its subfolders on `pending` (except those
 * named in `notEntered`). Returns false when the folder cannot be read.
 */
export function walkFolder(
  abs: string,
  relDir: string,
  children: Map<string, WalkedEntry[]>,
  pending: string[],
  notEntered: NotEntered = ENTER_ALL,
  /**
   * Describe each entry with lstat (sizes, times, link targets); false: names and kinds only, for
   * a first glance; 'links': links described, regular files by name and kind only (for callers
   * that read every file next and take its size and time from that read).
   */
  describe: boolean | 'links' = true,
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
    const path = relDir === '' ? d.name : `${relDir}/${d.name}`;
    const entry: WalkedEntry = { path, name: d.name, kind, size: 0 };
    entries.push(entry);
    if (kind === 'directory') {
      if (notEntered.has(d.name)) entry.notEntered = true;
      else pending.push(path);
      continue;
    }
    if (kind === 'other' || !describe || (kind === 'file' && describe === 'links')) continue;
    const full = prefix + d.name;
    try {
      // Why throwIfNoEntry: a file removed since readdir keeps size 0 without an exception's cost.
      const info = lstatSync(full, NO_THROW);
      entry.size = info?.size ?? 0;
      entry.mtimeMs = info?.mtimeMs ?? 0;
      if (info && (info.mode & 0o111) !== 0) entry.executable = true;
      if (info && kind === 'file') {
        entry.ino = info.ino;
        entry.dev = info.dev;
      }
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

/** Walk the subtrees at `starts` (relative folders) of `abs` into `children`, without pausing (worker threads). */
export function walkSubtreesSync(
  abs: string,
  starts: readonly string[],
  children: Map<string, WalkedEntry[]>,
  notEntered: NotEntered = ENTER_ALL,
): void {
  const pending = [...starts];
  // Why: one unreadable subfolder must not hide the rest of the skill or library.
  for (let head = 0; head < pending.length; head++)
    walkFolder(abs, pending[head] ?? '', children, pending, notEntered);
}

/**
 * Walk `root` once (see {@link walkFolder}) in time slices. Unreadable subfolders are skipped;
 * an unreadable root fails the walk with the system's own error.
 */
export async function walkTree(
  root: string,
  options: {
    notEntered?: NotEntered;
    slicer?: TimeSlicer;
    maxEntries?: number;
    /** See {@link walkFolder}'s `describe`. */
    describe?: true | 'links';
  } = {},
): Promise<WalkedTree> {
  const abs = resolve(root);
  const realRoot = realpathSync(abs);
  const slicer = options.slicer ?? new TimeSlicer();
  const children = new Map<string, WalkedEntry[]>();
  const pending: string[] = [''];
  const max = options.maxEntries ?? Infinity;
  let seen = 0;
  for (let head = 0; head < pending.length; head++) {
    if (slicer.due()) await slicer.pause();
    const relDir = pending[head] ?? '';
    const read = walkFolder(abs, relDir, children, pending, options.notEntered, options.describe);
    // Why read the root again on failure: an unreadable root must fail the walk with the system's own error.
    if (!read && head === 0) readdirSync(abs);
    seen += children.get(relDir)?.length ?? 0;
    // Why a cap: a hostile folder (an import) may hold millions of entries; callers that refuse past a count stop here.
    if (seen > max) return { root: abs, realRoot, children, truncated: true };
  }
  return { root: abs, realRoot, children };
}

/** Every entry of a walked tree under `relDir` (itself excluded), depth first in readdir order. */
export function entriesUnder(tree: WalkedTree, relDir: string): WalkedEntry[] {
  const out: WalkedEntry[] = [];
  const gather = (dir: string): void => {
    for (const e of tree.children.get(dir) ?? []) {
      out.push(e);
      if (e.kind === 'directory' && !e.notEntered) gather(e.path);
    }
  };
  gather(relDir);
  return out;
}
