/**
 * The hash of a skill folder that both lock files record, computed the way the `skills` CLI
 * computes it so each tool can tell whether the other's copy changed: sha256 over every regular
 * file's `/`-separated path followed by its bytes, in `localeCompare` order of the paths, not
 * entering `.git` or `node_modules`; links are not files and are left out.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { COPY_MAX_FILE_BYTES } from '../../shared/projection';
import { FileTooLargeError, readBoundedSync, readChunksSync } from '../platform/read-file';

/** One file of a skill: its path relative to the skill folder and its bytes. */
export interface HashedFile {
  path: string;
  data: Uint8Array;
}

/** The hash of a set of files (see the file comment). */
export function hashFiles(files: readonly HashedFile[]): string {
  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path));
  const hash = createHash('sha256');
  for (const f of sorted) {
    hash.update(f.path);
    hash.update(f.data);
  }
  return hash.digest('hex');
}

/** The `/`-separated paths of every regular file under `dir` the hash covers. */
async function folderPaths(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(rel === '' ? dir : join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name === '.git' || e.name === 'node_modules') continue;
        await walk(path);
      } else if (e.isFile()) out.push(path);
    }
  };
  await walk('');
  return out;
}

/**
 * Every regular file under `dir` as the hash sees it, each read whole. A file over the one bound
 * for copying a skill's files ({@link COPY_MAX_FILE_BYTES}) throws {@link FileTooLargeError}
 * unread: a merge works on files an install could have written.
 */
export async function folderFiles(dir: string): Promise<HashedFile[]> {
  // Why the careful reader: a file swapped for a pipe since the listing must not hang the read.
  return (await folderPaths(dir)).map((path) => ({
    path,
    data: readBoundedSync(join(dir, path), COPY_MAX_FILE_BYTES),
  }));
}

/**
 * The hash of the folder at `dir` (a link to a folder is followed at the top, as the CLI does):
 * the same digest as {@link hashFiles} over {@link folderFiles}, with each file read a piece at a
 * time. Why: an installed copy may hold a large file (another tool put it there), and its state
 * is checked on every listing of the agents; reading it whole each time held it all in memory.
 */
export async function hashFolder(dir: string): Promise<string> {
  const paths = (await folderPaths(dir)).sort((a, b) => a.localeCompare(b));
  const hash = createHash('sha256');
  for (const path of paths) {
    hash.update(path);
    readChunksSync(join(dir, path), (chunk) => hash.update(chunk));
  }
  return hash.digest('hex');
}

/**
 * How the files of the folder at `dir` differ from `theirs` (path → bytes): removed, changed,
 * added. Each file of the folder is read only as far as the file of the same path in `theirs`
 * goes, so a large file someone put in an installed copy is counted as changed without being
 * read into memory (the check for updates runs over every copy of every project).
 */
export async function folderChanges(
  dir: string,
  theirs: ReadonlyMap<string, Uint8Array>,
): Promise<{ path: string; change: 'removed' | 'changed' | 'added' }[]> {
  const paths = await folderPaths(dir);
  const out: { path: string; change: 'removed' | 'changed' | 'added' }[] = [];
  for (const path of paths) {
    const t = theirs.get(path);
    if (!t) {
      out.push({ path, change: 'removed' });
      continue;
    }
    let same: boolean;
    try {
      same = Buffer.compare(readBoundedSync(join(dir, path), t.length), t) === 0;
    } catch (error) {
      if (!(error instanceof FileTooLargeError)) throw error;
      same = false;
    }
    if (!same) out.push({ path, change: 'changed' });
  }
  const mine = new Set(paths);
  for (const path of theirs.keys()) if (!mine.has(path)) out.push({ path, change: 'added' });
  return out;
}
