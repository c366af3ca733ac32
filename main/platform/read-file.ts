/** Reading a regular file without ever following a link. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

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

/**
 * Open `path` without following a link, check with fstat that it is a regular file, and read it
 * whole when it is at most `maxBytes`. The bytes are those of the file described: the same
 * descriptor is checked and read. When the file changed while it was read (size or time differ
 * after the read), it is read again, a few times at most, so the bytes belong to one version.
 * Synchronous: callers slice long runs (see TimeSlicer).
 */
export function readRegularFileSync(path: string, maxBytes: number): RegularFile {
  for (let attempt = 0; ; attempt++) {
    const fd = openSync(path, OPEN_FLAGS);
    try {
      const before = fstatSync(fd);
      if (!before.isFile()) throw new NotARegularFileError(`${path} is not a regular file.`);
      const base = {
        size: before.size,
        mtimeMs: before.mtimeMs,
        ctimeMs: before.ctimeMs,
        ino: before.ino,
        executable: (before.mode & 0o111) !== 0,
      };
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
