/** Reading a regular file without ever following a link. */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { realpath } from 'node:fs/promises';
import { formatBytesAgainst } from '../../shared/text/bytes';

/**
 * Flags for opening a file a listing called regular. Why: O_NOFOLLOW refuses a link swapped in
 * since the listing (links are never followed), O_NONBLOCK keeps a pipe swapped in from
 * blocking the open. Windows has neither flag (0 here) and no pipes in folders.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A regular file read in one go: the bytes and what fstat said of the descriptor they came from. */
export interface RegularFile {
  /** The bytes, or undefined when the file is larger than the limit asked for. */
  bytes?: Buffer;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  executable: boolean;
}

/** Thrown when the path is not a regular file any more (a link, a folder, a pipe swapped in). */
export class NotARegularFileError extends Error {
  readonly code = 'ENOTREG';
}

/**
 * Thrown when the file at a path is not the one a walk listed there (another inode): it was
 * replaced since, or a folder on its way became a link. The walk that comes next sees which.
 */
export class NotTheListedFileError extends Error {
  readonly code = 'ECHANGED';
}

/** Thrown when a file is larger than the caller reads; the file is not read. */
export class FileTooLargeError extends Error {
  readonly code = 'EFBIG';
  constructor(
    path: string,
    /** The file's size. */
    readonly size: number,
    /** The most the caller reads. */
    readonly max: number,
  ) {
    const [found, most] = formatBytesAgainst(size, max);
    super(`${path} is ${found}; Skillbench reads files of up to ${most}.`);
  }
}

/** Read `size` bytes from the start of an open file (fewer if it shrank meanwhile). */
function readAll(fd: number, size: number): Buffer {
  const data = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const got = readSync(fd, data, at, size - at, at);
    if (got === 0) break;
    at += got;
  }
  return at < size ? data.subarray(0, at) : data;
}

/** What a folder listing (lstat) said of a file: the version the caller expects to read. */
export interface ListedFile {
  size: number;
  mtimeMs?: number;
  /** Its identity as the walk's lstat saw it; when given, a file of another identity is refused. */
  ino?: number;
  dev?: number;
}

/**
 * Open `path` without following a link, check with fstat that it is a regular file, and read it
 * whole when it is at most `maxBytes`. The bytes are those of the file described: the same
 * descriptor is checked and read. When the file changed while it was read (size or time differ
 * after the read), it is read again, a few times at most, so the bytes belong to one version.
 *
 * With `listed` (what the walk's lstat said of it), one fstat after the read does both checks:
 * the descriptor is a regular file and still the size and time the walk listed, so the bytes
 * belong to that one version; any difference (or an error while reading something that is not a
 * regular file any more) falls back to the careful read above. Why: a library of thousands of
 * small files pays for every stat (bench/pack: ~3 ms for one stat of each of 2,000 files).
 *
 * Synchronous: callers slice long runs (see TimeSlicer).
 */
export function readRegularFileSync(
  path: string,
  maxBytes: number,
  listed?: ListedFile,
): RegularFile {
  if (listed !== undefined && listed.mtimeMs !== undefined && listed.size <= maxBytes) {
    const read = readAsListed(path, listed);
    if (read) return read;
  }
  for (let attempt = 0; ; attempt++) {
    const fd = openSync(path, OPEN_FLAGS);
    try {
      const before = fstatSync(fd);
      if (!before.isFile()) throw new NotARegularFileError(`${path} is not a regular file.`);
      // Why: O_NOFOLLOW guards only the last name; a folder on the way swapped for a link since
      // the walk would lead to a file elsewhere, which has another identity.
      if (!isListedFile(before, listed))
        throw new NotTheListedFileError(
          `${path} is not the file that was listed there: it was replaced, or a folder on its way became a link.`,
        );
      const base = describe(before);
      if (before.size > maxBytes) return base;
      const bytes = readAll(fd, before.size);
      const after = fstatSync(fd);
      const steady =
        after.size === before.size &&
        after.mtimeMs === before.mtimeMs &&
        bytes.length === before.size;
      // Why re-read: a file rewritten in place while we read it would give bytes of neither version.
      if (steady || attempt >= 3) return { ...base, size: bytes.length, bytes };
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The bytes of a regular file, read as {@link readRegularFileSync} reads them (never through a
 * link, never blocking on a pipe); a file larger than `maxBytes` throws {@link FileTooLargeError}
 * without being read. Why: a file of a library or a folder of an agent can be a link to
 * `/dev/zero`, a pipe, or gigabytes; reading it whole would hang or exhaust memory.
 */
export function readBoundedSync(path: string, maxBytes: number, listed?: ListedFile): Buffer {
  const read = readRegularFileSync(path, maxBytes, listed);
  if (!read.bytes) throw new FileTooLargeError(path, read.size, maxBytes);
  return read.bytes;
}

/**
 * Hand the bytes of a regular file to `onChunk` a piece at a time, opened as
 * {@link readRegularFileSync} opens it (never through a link, never blocking on a pipe). Why: a
 * digest of a file of any size, in constant memory. The piece is reused for the next one, so
 * `onChunk` must use it before it returns (a hash's `update` does).
 */
export function readChunksSync(
  path: string,
  onChunk: (chunk: Buffer) => void,
  chunkBytes = 1024 * 1024,
): void {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) throw new NotARegularFileError(`${path} is not a regular file.`);
    const piece = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const got = readSync(fd, piece, 0, chunkBytes, null);
      if (got === 0) return;
      onChunk(piece.subarray(0, got));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readBoundedSync} for a path a person may have linked on purpose (a lock file kept with
 * their dotfiles, a library file linked to another): the link is resolved first, then the file
 * it names is read the careful way, so a link to a pipe or to `/dev/zero` is still refused.
 */
export async function readResolvedBounded(path: string, maxBytes: number): Promise<Buffer> {
  return readBoundedSync(await realpath(path), maxBytes);
}

/** {@link readResolvedBounded}, synchronously. */
export function readResolvedBoundedSync(path: string, maxBytes: number): Buffer {
  return readBoundedSync(realpathSync(path), maxBytes);
}

/** What fstat says of a file, in the reader's terms. */
function describe(info: Stats): RegularFile {
  return {
    size: info.size,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    ino: info.ino,
    executable: (info.mode & 0o111) !== 0,
  };
}

/** Whether `info` is the file the walk listed (same inode and device), when the walk said which. */
function isListedFile(info: Stats, listed: ListedFile | undefined): boolean {
  return listed?.ino === undefined || (info.ino === listed.ino && info.dev === listed.dev);
}

/**
 * Read a file expected to be `size` bytes last modified at `mtimeMs` (and, when the walk said,
 * that very inode), then fstat the descriptor: a file that grew, shrank or was written since the
 * listing shows another size or time. Undefined when it is not exactly that file (the caller
 * reads it the careful way, which also says why it cannot).
 */
function readAsListed(path: string, listed: ListedFile): RegularFile | undefined {
  const size = listed.size;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const bytes = readAll(fd, size);
    const after = fstatSync(fd);
    if (
      !after.isFile() ||
      bytes.length !== size ||
      after.size !== size ||
      after.mtimeMs !== listed.mtimeMs ||
      !isListedFile(after, listed)
    )
      return undefined;
    return { ...describe(after), bytes };
  } catch {
    // Why no error here: a folder or pipe swapped in fails the read; the careful read names it.
    return undefined;
  } finally {
    closeSync(fd);
  }
}
