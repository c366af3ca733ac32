import { TarArchive, type Archiver } from 'archiver';
import { isAscii } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { sharedValidationPool, type ValidationPool } from '../validate/workers';
import { deflateAll } from './deflate';
import { ZipFormatArchive } from './zip-format';

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
 * Store instead of deflate when the bytes look already compressed (Shannon entropy of a sample
 * above 7.5 bits per byte: images, archives, random data). Why: deflating them only grows them
 * and costs time; `zip` stores such files too. Deterministic: it depends only on the bytes.
 */
export function worthDeflating(data: Buffer): boolean {
  if (data.length < 64) return false;
  const sample = data.length > SAMPLE_BYTES ? data.subarray(0, SAMPLE_BYTES) : data;
  // Why the ASCII shortcut gives the same answer: 128 symbols carry at most log2(128) = 7 bits
  // per byte, below the threshold. It is a vectorised scan, far cheaper than counting bytes, and
  // most skill files (Markdown, scripts) are ASCII.
  if (isAscii(sample)) return true;
  const counts = new Uint32Array(256);
  // Why an index loop rather than for…of: the iterator cost ~1.5× as much (bench/pack).
  for (let i = 0; i < sample.length; i++) counts[sample[i]]++;
  let entropy = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const p = count / sample.length;
    entropy -= p * Math.log2(p);
  }
  return entropy < 7.5;
}

/** Append items in the order given (callers sort) with fixed dates and modes. */
function appendAll(
  archive: Archiver,
  items: readonly ArchiveItem[],
  zip: boolean,
  deflated: ReadonlyMap<Buffer, Buffer>,
): void {
  for (const item of items) {
    if (item.kind === 'directory') {
      archive.append(Buffer.alloc(0), {
        name: item.name,
        type: 'directory',
        date: FIXED_DATE,
        mode: 0o755,
      });
    } else {
      const data = item.data ?? Buffer.alloc(0);
      // Why only 0o644/0o755: permissions of the author's machine (group-writable, setuid) must not travel.
      const mode = item.mode & 0o111 ? 0o755 : 0o644;
      const ahead = deflated.get(data);
      archive.append(data, {
        name: item.name,
        date: FIXED_DATE,
        mode,
        ...(zip ? (ahead ? { deflated: ahead } : { store: !worthDeflating(data) }) : {}),
      });
    }
  }
}

/** Fewest files worth sharing the deflating with a worker thread (below, a job's round trip costs more than it saves). */
const SHARED_DEFLATE_MIN_FILES = 64;

/** Deflating started on a worker thread before the archive is written (see {@link startDeflate}). */
export interface EarlyDeflate {
  /** The raw deflate of each buffer sent, by buffer. */
  remote: Promise<Map<Buffer, Buffer>>;
  sent: ReadonlySet<Buffer>;
}

/** The files worth deflating among `buffers`, when there are enough to share with a worker. */
function shareable(buffers: readonly Buffer[]): Buffer[] {
  const files = buffers.filter((b) => b.length > 0 && worthDeflating(b));
  return files.length < SHARED_DEFLATE_MIN_FILES ? [] : files;
}

/** Send `buffers` to a worker for deflating with the encoder's settings. */
function sendToWorker(pool: ValidationPool, buffers: Buffer[]): EarlyDeflate {
  const remote = pool
    .deflate(buffers, LEVEL)
    .then(
      (done) =>
        new Map(
          buffers.map((b, k) => [b, done[k] ?? deflateAll([b], LEVEL)[0] ?? Buffer.alloc(0)]),
        ),
    );
  // Why a caught copy: when the export stops before the archive (blocked), nobody awaits this.
  remote.catch(() => undefined);
  return { remote, sent: new Set(buffers) };
}

/**
 * Start deflating about two thirds of a large export's files on a running worker thread now,
 * while this thread plans the export; {@link writeArchive} deflates the rest here and takes the
 * worker's results. Returns null when no worker is running (a one-off CLI `pack` does not start
 * one: that costs about what it saves) or there are too few files.
 */
export function startDeflate(
  buffers: readonly Buffer[],
  pool: ValidationPool | null = sharedValidationPool(),
): EarlyDeflate | null {
  if (!pool?.live) return null;
  const files = shareable(buffers);
  if (files.length === 0) return null;
  // Why two thirds, every third file kept: the worker starts before the plan is made, this thread after it.
  return sendToWorker(
    pool,
    files.filter((_, k) => k % 3 !== 0),
  );
}

/**
 * Deflate the files of a large zip ahead with the zip encoder's own settings (so the bytes are
 * the same as without): those sent early are the worker's, the rest deflated here meanwhile;
 * without an early start, half go to a running worker now. Returns nothing to add when no
 * worker is running or there are too few files; a failed worker leaves the work to the encoder.
 */
async function deflateAhead(
  items: readonly ArchiveItem[],
  pool: ValidationPool | null,
  early: EarlyDeflate | null,
): Promise<Map<Buffer, Buffer>> {
  const out = new Map<Buffer, Buffer>();
  const files = shareable(items.flatMap((i) => (i.kind === 'file' && i.data ? [i.data] : [])));
  if (files.length === 0) return out;
  let shared = early;
  if (!shared) {
    if (!pool?.live) return out;
    // Why every other file: sizes in a folder vary, alternation splits the bytes about evenly.
    shared = sendToWorker(
      pool,
      files.filter((_, k) => k % 2 === 1),
    );
  }
  const mine = files.filter((b) => !shared.sent.has(b));
  const local = deflateAll(mine, LEVEL);
  mine.forEach((b, k) => out.set(b, local[k] ?? Buffer.alloc(0)));
  try {
    for (const [b, d] of await shared.remote) out.set(b, d);
  } catch {
    // Why carry on: the encoder deflates what the worker did not.
  }
  return out;
}

/**
 * Write a reproducible zip or tar.gz to `target`: written to a temp file beside it, fsynced,
 * then renamed, so a crash never leaves half an archive under the final name.
 */
export async function writeArchive(
  format: 'zip' | 'tar.gz',
  items: readonly ArchiveItem[],
  target: string,
  options: { pool?: ValidationPool | null; early?: EarlyDeflate | null } = {},
): Promise<WrittenArchive> {
  const deflated =
    format === 'zip'
      ? await deflateAhead(
          items,
          options.pool === undefined ? sharedValidationPool() : options.pool,
          options.early ?? null,
        )
      : new Map<Buffer, Buffer>();
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const archive: Archiver =
    format === 'zip'
      ? // Why our zip encoder under archiver's core: see zip-format.ts (per-entry stream cost).
        new ZipFormatArchive({ level: LEVEL })
      : // Why gzip level 9 and no name: node:zlib writes mtime 0 and no file name in the gzip header, so the bytes stay fixed.
        new TarArchive({ gzip: true, gzipOptions: { level: 9 } });
  // Why collect in memory: archiver's tar format emits thousands of tiny chunks (one per header field);
  // writing them one by one costs more than the compression. Archives are capped at 30 MB.
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  archive.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
  });
  appendAll(archive, items, format === 'zip', deflated);
  await Promise.all([archive.finalize(), done]);
  const data = Buffer.concat(chunks);
  const handle = await open(temp, 'wx', 0o644);
  let sha256: string;
  try {
    try {
      const written = handle.writeFile(data).then(() => handle.sync());
      // Why between the write and its await: the hash runs on this thread while the thread pool writes and syncs.
      sha256 = createHash('sha256').update(data).digest('hex');
      await written;
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return { path: target, bytes: data.length, sha256 };
}
