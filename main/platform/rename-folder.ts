import { lstat, mkdir, rename, rmdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** Thrown by {@link renameFolderNoReplace} when something already has the new name. */
export class FolderExistsError extends Error {
  constructor(readonly path: string) {
    super(`${path} already exists, so the folder was not renamed.`);
  }
}

async function sameEntry(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstat(a), lstat(b).catch(() => null)]);
  return y !== null && x.ino === y.ino && x.dev === y.dev;
}

/**
 * Rename a folder to a sibling name in one step, never replacing anything: the new name is
 * claimed first with mkdir (which fails when anything has it, at that very moment), then the
 * folder is renamed over that empty claim (rename(2) replaces an empty folder atomically). A
 * change of case only on a disk that ignores case goes through a temporary name.
 */
export async function renameFolderNoReplace(from: string, newName: string): Promise<string> {
  const to = join(dirname(from), newName);
  if (basename(from) === newName) return from;
  if (await sameEntry(from, to)) {
    const step = join(dirname(from), `.${newName}.renaming-${randomBytes(4).toString('hex')}`);
    await rename(from, step);
    await rename(step, to);
    return to;
  }
  try {
    await mkdir(to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new FolderExistsError(to);
    throw error;
  }
  try {
    if (process.platform === 'win32') await rmdir(to);
    await rename(from, to);
  } catch (error) {
    await rmdir(to).catch(() => undefined);
    throw error;
  }
  return to;
}
