import { ZipArchive, TarArchive, type Archiver } from 'archiver';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';

/** One entry to write, already in archive order and form. */
export interface ArchiveItem {
  /** `/`-separated archive path; directories end with `/`. */
  name: string;
  kind: 'file' | 'directory';
  /** 0o644 or 0o755. */
  mode: number;
  /** File bytes (files only). */
  data?: Buffer;
}

/** What was written. */
export interface WrittenArchive {
  path: string;
  bytes: number;
  /** Lowercase hex sha256 of the archive bytes. */
  sha256: string;
}

/**
 * The one timestamp every entry carries. Why 1980-01-01 UTC: the earliest date a zip (DOS)
 * timestamp can hold; a fixed date makes the same input give the same bytes (spec §3).
 */
export const FIXED_DATE = new Date(Date.UTC(1980, 0, 1, 0, 0, 0));

/** Deflate level: zlib's default, the same as `zip`'s, so sizes compare fairly. */
const LEVEL = 6;

/** Bytes sampled to decide whether deflating a file is worth it. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * Store instead of deflate when a sample does not shrink by 3 %. Why: already-compressed data
 * (images, archives) only grows and costs time when deflated; `zip` stores such files too.
 * Deterministic: it depends only on the bytes.
 */
export function worthDeflating(data: Buffer): boolean {
  if (data.length < 64) return false;
  const sample = data.length > SAMPLE_BYTES ? data.subarray(0, SAMPLE_BYTES) : data;
  return deflateRawSync(sample, { level: 1 }).length < sample.length * 0.97;
}

/** Append items in the order given (callers sort) with fixed dates and modes. */
function appendAll(archive: Archiver, items: readonly ArchiveItem[], zip: boolean): void {
  for (const item of items) {
    if (item.kind === 'directory') {
      archive.append(Buffer.alloc(0), { name: item.name, type: 'directory', date: FIXED_DATE, mode: 0o755 });
    } else {
      const data = item.data ?? Buffer.alloc(0);
      // Why only 0o644/0o755: permissions of the author's machine (group-writable, setuid) must not travel.
      const mode = item.mode & 0o111 ? 0o755 : 0o644;
      archive.append(data, { name: item.name, date: FIXED_DATE, mode, ...(zip ? { store: !worthDeflating(data) } : {}) });
    }
  }
}

/**
 * Write a reproducible zip or tar.gz to `target`: written to a temp file beside it, fsynced,
 * then renamed, so a crash never leaves half an archive under the final name.
 */
export async function writeArchive(format: 'zip' | 'tar.gz', items: readonly ArchiveItem[], target: string): Promise<WrittenArchive> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const archive: Archiver =
    format === 'zip'
      ? new ZipArchive({ zlib: { level: LEVEL } })
      : // Why gzip level 9 and no name: node:zlib writes mtime 0 and no file name in the gzip header, so the bytes stay fixed.
        new TarArchive({ gzip: true, gzipOptions: { level: 9 } });
  const hash = createHash('sha256');
  let bytes = 0;
  const out = createWriteStream(temp, { flags: 'wx', mode: 0o644 });
  const done = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  archive.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  archive.pipe(out);
  try {
    appendAll(archive, items, format === 'zip');
    await Promise.all([archive.finalize(), done]);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    archive.abort();
    out.destroy();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return { path: target, bytes, sha256: hash.digest('hex') };
}
