import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ok, type Result } from '../../shared/ipc/contract';
import { describeFsError } from '../platform/fs-errors';

/**
 * Keep a file dropped on the browser-shell window (sent as bytes) so an import can read it like
 * any other path: in a private random folder under the user-data folder. Why a random folder and
 * a cleaned name: the dropped file's name is untrusted and must not choose the path (no
 * separators, no dot-names, nothing but letters, digits, `.`, `_` and `-`).
 */
export async function receiveUpload(
  userDataDir: string,
  name: string,
  bytes: Uint8Array,
): Promise<Result<{ source: string }>> {
  const cleaned = basename(name).replace(/[^A-Za-z0-9._-]/g, '_');
  const safeName = /^\.*$/.test(cleaned) ? 'upload' : cleaned;
  const dir = join(userDataDir, 'incoming', randomBytes(8).toString('hex'));
  try {
    await mkdir(dir, { recursive: true });
    const path = join(dir, safeName);
    await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
    return ok({ source: path });
  } catch (error) {
    return { ok: false, error: describeFsError(error, dir, 'write') };
  }
}
