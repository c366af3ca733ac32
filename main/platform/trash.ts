/** Skillbench's trash: where replaced and deleted folders go, so nothing is lost without asking. */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { defaultUserDataDir } from './user-data';

/**
 * The default trash folder. Why outside the library and outside `.claude/skills`: a trashed
 * copy inside a scanned folder would show up again as a skill.
 */
export function defaultTrashDir(): string {
  // Why the user-data folder: the app's own deletes go there too, so there is one trash to look in.
  return join(defaultUserDataDir(), 'trash');
}

/**
 * rename(2), falling back to copy + remove when the two paths are on different disks (EXDEV).
 * Links are copied as links (never followed); the copy never replaces anything.
 */
export async function moveAcrossDevices(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, {
      recursive: true,
      errorOnExist: true,
      force: false,
      verbatimSymlinks: true,
    });
    await rm(from, { recursive: true, force: true });
  }
}

/** A fresh place in the trash for something named `name`: `<trash>/<name>-<timestamp>-<random>`. */
async function trashSlot(trashDir: string, name: string): Promise<string> {
  await mkdir(trashDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(trashDir, `${name}-${stamp}-${randomBytes(3).toString('hex')}`);
}

/** Move a file or folder into the trash and return where it went. */
export async function moveToTrash(
  path: string,
  trashDir: string = defaultTrashDir(),
): Promise<string> {
  const target = await trashSlot(trashDir, basename(path));
  await moveAcrossDevices(path, target);
  return target;
}

/**
 * Keep `bytes`, the version of a file named `name` about to be replaced in place, in the trash
 * (readable by this user only: such files can hold other programs' tokens); where it went.
 */
export async function copyToTrash(
  name: string,
  bytes: Uint8Array,
  trashDir: string = defaultTrashDir(),
): Promise<string> {
  const target = await trashSlot(trashDir, name);
  await writeFile(target, bytes, { flag: 'wx', mode: 0o600 });
  return target;
}
