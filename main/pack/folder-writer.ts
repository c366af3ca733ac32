import { createHash, randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FolderDiff } from '../../shared/projection';
import { mapLimit } from './map-limit';
import { moveToTrash } from './trash';

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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Every file under `dir` (links listed, never followed), `/`-separated, sorted. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

/** sha256 of bytes, hex. */
function digest(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Compare an existing folder with the files that would replace it. */
export async function diffFolder(dest: string, files: readonly FolderFile[]): Promise<FolderDiff> {
  const existing = new Set(await listFiles(dest));
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
      digest(await readFile(abs)) !== digest(file.data)
    )
      diff.changed.push(file.path);
    else diff.unchanged++;
  }
  diff.removed = [...existing].sort();
  return diff;
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
  const stage = join(parent, `.skillbench-stage-${randomBytes(6).toString('hex')}`);
  await mkdir(stage, { mode: 0o755 });
  try {
    const folders = new Set<string>(dirs);
    for (const file of files)
      if (file.path.includes('/')) folders.add(file.path.slice(0, file.path.lastIndexOf('/')));
    for (const dir of [...folders].sort())
      await mkdir(join(stage, dir), { recursive: true, mode: 0o755 });
    // Why a few writes at a time: thousands of small files are written much faster in parallel.
    await mapLimit(files, 16, async (file) => {
      const abs = join(stage, file.path);
      const mode = file.mode & 0o111 ? 0o755 : 0o644;
      await writeFile(abs, file.data, { flag: 'wx', mode });
      // Why chmod: the umask may have removed bits; the mode must be exactly 0644/0755.
      await chmod(abs, mode);
    });
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
    return trashedTo ? { trashedTo } : {};
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
}
