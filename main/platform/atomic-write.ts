import { randomBytes } from 'node:crypto';
import { open, rename, unlink, stat, chmod } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Write a file atomically: write a temp file beside it, fsync, rename over the target, fsync
 * the folder. A crash leaves either the old or the new file, never half of one. The file keeps
 * the mode of the file it replaces unless `options.mode` says otherwise (0644 for a new one).
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let mode: number | undefined = options.mode;
  if (mode === undefined) {
    try {
      mode = (await stat(target)).mode & 0o777;
    } catch {
      mode = undefined;
    }
  }
  const handle = await open(temp, 'wx', mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dir);
}

/**
 * Flush a folder's entries to disk. Why: a rename or a new file is only durable once its
 * directory entry is flushed (POSIX); Windows cannot open folders, so there it is a no-op.
 */
export async function syncFolder(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
