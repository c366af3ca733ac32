import { randomBytes } from 'node:crypto';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { defaultUserDataDir } from '../library/user-data';

/**
 * The default trash folder. Why outside the library and outside `.claude/skills`: a trashed
 * copy inside a scanned folder would show up again as a skill.
 */
export function defaultTrashDir(): string {
  // Why the user-data folder: the app's own deletes go there too, so there is one trash to look in.
  return join(defaultUserDataDir(), 'trash');
}

/**
 * Move a folder into the trash (`<trash>/<name>-<timestamp>-<random>`) and return where it went.
 * Across file systems rename fails (EXDEV): copy, then remove.
 */
export async function moveToTrash(
  path: string,
  trashDir: string = defaultTrashDir(),
): Promise<string> {
  await mkdir(trashDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = join(trashDir, `${basename(path)}-${stamp}-${randomBytes(3).toString('hex')}`);
  try {
    await rename(path, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(path, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
    await rm(path, { recursive: true, force: true });
  }
  return target;
}
