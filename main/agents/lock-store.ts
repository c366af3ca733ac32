/**
 * Reading and writing the lock files on disk. A missing file is an empty lock; a malformed one,
 * or one from a newer version, is read as far as it can be and is never written back: the
 * change is refused with a sentence that says why and that the file was left as it was.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  emptyLock,
  parseLock,
  serializeLock,
  type LockFile,
  type LockKind,
} from '../../shared/agents/lock';
import { writeFileAtomic } from '../platform/atomic-write';

/** A lock file and where it lives. */
export interface StoredLock {
  path: string;
  lock: LockFile;
  /** The file exists on disk. */
  exists: boolean;
}

/** Read the lock at `path` (see the file comment). */
export async function readLockFile(kind: LockKind, path: string): Promise<StoredLock> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { path, lock: emptyLock(kind), exists: false };
    const lock = emptyLock(kind);
    lock.problem = `it could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return { path, lock, exists: true };
  }
  return { path, lock: parseLock(kind, text), exists: true };
}

/** Why a lock change was not written, for people. */
export class LockRefusedError extends Error {}

/**
 * Change a lock file: read it, apply `change`, write it atomically. Refuses (throws
 * {@link LockRefusedError}, writing nothing) when the file is malformed or newer.
 */
export async function updateLockFile(
  kind: LockKind,
  path: string,
  change: (lock: LockFile) => void,
): Promise<void> {
  const stored = await readLockFile(kind, path);
  if (stored.lock.problem !== undefined)
    throw new LockRefusedError(
      `${path} was left as it was: ${stored.lock.problem}. Fix or move it, then try again.`,
    );
  change(stored.lock);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, serializeLock(stored.lock));
}
