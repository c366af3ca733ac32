/**
 * Reading and writing the lock files on disk. A missing file is an empty lock; a malformed one,
 * or one from a newer version, is read as far as it can be and is never written back: the
 * change is refused with a sentence that says why and that the file was left as it was.
 */
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import {
  emptyLock,
  parseLock,
  serializeLock,
  type LockEntry,
  type LockFile,
  type LockKind,
  type SkillSource,
} from '../../shared/agents/lock';
import { writeFileAtomic } from '../platform/atomic-write';
import { formatBytesAgainst } from '../../shared/text/bytes';
import { FileTooLargeError, readResolvedBounded } from '../platform/read-file';

/**
 * The largest lock file read. A real one is about 300 bytes per skill. Why a bound: a project's
 * `skills-lock.json` comes with the project (a cloned repository), and a link to `/dev/zero` or a
 * pipe there must not hang the agents view or fill its memory.
 */
const LOCK_MAX_BYTES = 16 * 1024 * 1024;

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
    // Why resolved first: people keep the global lock with their dotfiles, as a link.
    text = (await readResolvedBounded(path, LOCK_MAX_BYTES)).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { path, lock: emptyLock(kind), exists: false };
    const lock = emptyLock(kind);
    const code = (error as NodeJS.ErrnoException).code;
    lock.problem =
      error instanceof FileTooLargeError
        ? `it is too large (${formatBytesAgainst(error.size, error.max).join('; Skillbench reads lock files of up to ')})`
        : code === 'ENOTREG'
          ? 'it is not a regular file'
          : `it could not be read (${code ?? String(error)})`;
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
  const target = kind === 'global' ? await throughDotfilesLink(path) : path;
  await mkdir(dirname(target), { recursive: true });
  await writeFileAtomic(target, serializeLock(stored.lock));
}

/**
 * Where the global lock is written: the file its link points to when it is a link. Why: people
 * keep it with their dotfiles, as a link, and the `skills` CLI writes through that link; an
 * atomic write at the link's own path would replace the link with a file, and the two tools
 * would part ways. A project's lock is never written through a link (it comes with the project,
 * and its link could point at any file): it is written in the project itself.
 */
async function throughDotfilesLink(path: string): Promise<string> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return path;
  } catch {
    return path;
  }
  try {
    return await realpath(path);
  } catch {
    throw new LockRefusedError(
      `${path} was left as it was: it is a link to a file that does not exist. Fix or remove the link, then try again.`,
    );
  }
}

/**
 * A local source as a project's lock records it, the way the `skills` CLI writes it: relative to
 * the project ("./skills/notes", "../shared/notes"), or absolute when it cannot be (another drive).
 * Why: the lock is committed with the project, and a path on one person's computer means nothing
 * on another's.
 */
export function portableLocalSource(path: string, lockDir: string): string {
  const rel = relative(lockDir, resolve(lockDir, path));
  if (isAbsolute(rel)) return path.split(sep).join('/');
  const portable = rel.split(sep).join('/');
  if (portable === '') return '.';
  return portable === '..' || portable.startsWith('../') ? portable : `./${portable}`;
}

/** Where a local source recorded in a lock is: a relative one is relative to the lock's folder. */
export function localSourcePath(source: string, lockDir: string): string {
  return resolve(lockDir, source);
}

/**
 * The source an entry's updates are read from, and the one every message names: Skillbench's
 * record, with a local folder taken from `source`, which both tools keep portable (a project's lock
 * written on another computer still finds the folder in this checkout). Why one function: the
 * folder read and the folder named must be the same, or a lock file could show one folder while
 * updates come from another. Undefined: a kind of source Skillbench cannot read (the CLI's own).
 */
export function entrySource(entry: LockEntry, lockDir: string): SkillSource | undefined {
  const record: SkillSource | undefined =
    entry.skillbench?.source ??
    (entry.sourceType === 'local' ? { kind: 'folder', path: entry.source } : undefined);
  if ((record?.kind === 'library' || record?.kind === 'folder') && entry.sourceType === 'local')
    return { ...record, path: localSourcePath(entry.source, lockDir) };
  return record;
}
