/**
 * The staged folder write: a whole folder written beside its destination, every file and
 * folder flushed, then moved into place with one rename, so a crash or a refusal never leaves
 * half a skill under the final name. Export folder copies, imports, the inspector's Save and
 * new skills all write through here.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncFolder } from './atomic-write';
import { mapLimit } from './concurrency';
import type { FolderDiff } from '../../shared/projection/types';
import { sha256Hex } from './digest';
import { moveToTrash } from './trash';
import { walkTree } from './walk';

/** One file to write into a folder. */
export interface FolderFile {
  /** `/`-separated path relative to the folder. */
  path: string;
  data: Buffer;
  /** 0o644 or 0o755; other bits are never written (setuid/setgid cleared). */
  mode: number;
}

/** True when something (file, folder or link) exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    // Why ENOTDIR too: a path under a file ("notes.txt/x") names nothing, as for fs.existsSync.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}

/**
 * The first `<name>-N` (N from 2) that names nothing in `parent`: the "Keep both" name when a
 * skill folder of that name exists (import and the inspector's Save both ask here). At most
 * `maxLength` characters: the name is shortened to make room for `-N` (never ending in a
 * hyphen), since the folder name is also the skill's `name`, which may not be longer.
 */
export async function freeFolderName(
  parent: string,
  name: string,
  maxLength: number,
): Promise<string> {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const base = name.slice(0, Math.max(1, maxLength - suffix.length)).replace(/-+$/, '');
    const candidate = `${base}${suffix}`;
    if (!(await exists(join(parent, candidate)))) return candidate;
  }
}

/** The name every stage starts with; nothing else of ours or anyone's is named so. */
const STAGE_PREFIX = '.skillbench-stage-';

/**
 * Older than this, a stage belongs to no write still running (a write takes seconds): it was left
 * by a process that was killed before it could clean up.
 */
const STALE_STAGE_MS = 60 * 60 * 1000;

/**
 * Remove the stages a killed process left in `parent` (an agent's skills folder, a library).
 * Why: such a folder holds a partial skill, which some agents may list; nothing else would ever
 * remove it. Only real folders with our prefix, last changed over an hour ago; links are
 * removed as links, never followed. Best effort: a stage that cannot be removed stays.
 */
async function sweepStaleStages(parent: string): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(parent)).filter((n) => n.startsWith(STAGE_PREFIX));
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const path = join(parent, name);
    try {
      const info = await lstat(path);
      if (!info.isDirectory() || now - info.mtimeMs < STALE_STAGE_MS) continue;
      await rm(path, { recursive: true, force: true });
    } catch {
      // Why ignored: the write that needs this folder must not fail over a leftover.
    }
  }
}

/**
 * Write files into a fresh hidden folder beside `dest` and return its path. Why a sibling:
 * the final rename must stay on one file system to be atomic.
 */
export async function stageFolder(
  dest: string,
  files: readonly FolderFile[],
  dirs: readonly string[] = [],
): Promise<string> {
  const parent = dirname(dest);
  await mkdir(parent, { recursive: true });
  await sweepStaleStages(parent);
  const stage = join(parent, `${STAGE_PREFIX}${randomBytes(6).toString('hex')}`);
  await mkdir(stage, { mode: 0o755 });
  try {
    const folders = new Set<string>(dirs);
    for (const file of files)
      if (file.path.includes('/')) folders.add(file.path.slice(0, file.path.lastIndexOf('/')));
    for (const dir of [...folders].sort())
      await mkdir(join(stage, dir), { recursive: true, mode: 0o755 });
    // Why a few writes at a time: thousands of small files are written much faster in parallel,
    // and file systems batch the journal commits of fsyncs that arrive together.
    await mapLimit(files, 16, async (file) => {
      const mode = file.mode & 0o111 ? 0o755 : 0o644;
      const handle = await open(join(stage, file.path), 'wx', mode);
      try {
        await handle.writeFile(file.data);
        // Why chmod: the umask may have removed bits; the mode must be exactly 0644/0755.
        await handle.chmod(mode);
        // Why fsync before the rename: otherwise a crash can leave the renamed folder with empty files.
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
    for (const dir of ['', ...[...folders].sort()]) await syncFolder(join(stage, dir));
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
  return stage;
}

/**
 * Move a staged folder into place. When `dest` exists it is moved to the trash first, only if
 * `replace` is true; otherwise nothing changes and an error says so.
 */
export async function commitFolder(
  stage: string,
  dest: string,
  replace: boolean,
  trashDir?: string,
): Promise<{ trashedTo?: string }> {
  try {
    let trashedTo: string | undefined;
    if (await exists(dest)) {
      if (!replace) throw new Error(`${dest} already exists and was left untouched.`);
      trashedTo = await moveToTrash(dest, trashDir);
    }
    await rename(stage, dest);
    await syncFolder(dirname(dest));
    return trashedTo ? { trashedTo } : {};
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
}

/** Options of {@link writeFolder}. */
export interface WriteFolderOptions {
  /** Folders to create even when empty (`/`-separated, relative). */
  dirs?: readonly string[];
  /** Replace an existing `dest` (the old one goes to the trash); otherwise an existing one is an error. */
  replace?: boolean;
  trashDir?: string;
}

/** Stage `files` beside `dest` and move them into place in one rename (see {@link stageFolder}, {@link commitFolder}). */
export async function writeFolder(
  dest: string,
  files: readonly FolderFile[],
  options: WriteFolderOptions = {},
): Promise<{ trashedTo?: string }> {
  const stage = await stageFolder(dest, files, options.dirs ?? []);
  return commitFolder(stage, dest, options.replace === true, options.trashDir);
}

/**
 * Compare an existing destination folder with the files that would replace it. Every file of
 * the destination counts (the whole old folder goes to the trash on replace), so the walk
 * enters everything; links are listed, never followed.
 */
export async function diffFolder(dest: string, files: readonly FolderFile[]): Promise<FolderDiff> {
  const tree = await walkTree(dest);
  const existing = new Set<string>();
  for (const list of tree.children.values())
    for (const e of list) if (e.kind !== 'directory') existing.add(e.path);
  const diff: FolderDiff = { added: [], changed: [], removed: [], unchanged: 0 };
  for (const file of files) {
    if (!existing.has(file.path)) {
      diff.added.push(file.path);
      continue;
    }
    existing.delete(file.path);
    const abs = join(dest, file.path);
    const st = await lstat(abs);
    if (
      !st.isFile() ||
      st.size !== file.data.length ||
      sha256Hex(await readFile(abs)) !== sha256Hex(file.data)
    )
      diff.changed.push(file.path);
    else diff.unchanged++;
  }
  diff.removed = [...existing].sort();
  return diff;
}
