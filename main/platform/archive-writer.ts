/**
 * The one archive writer: reproducible zip and tar.gz bytes from a list of entries, used by
 * export, by the embedded server's legacy archives, and by anything else that packs a skill.
 * Same entries, same bytes, same sha256 (sorted by the caller, fixed dates and modes).
 */
import { TarArchive, type Archiver } from 'archiver';
import { isAscii } from 'node:buffer';
import { sha256Hex } from './digest';
import { writeFileAtomic } from './atomic-write';
import { deflateAll } from './deflate';
import { sharedWorkers, type WorkerPool } from './worker-pool';
import { ZipFormatArchive } from './zip-format';

declare module './worker-pool' {
  interface WorkerJobKinds {
    /** Raw-deflate each buffer with the zip encoder's settings (see ./deflate). */
    deflate: { input: { level: number; buffers: Uint8Array[] }; output: Uint8Array[] };
  }
}

/** The worker side of a `deflate` job. */
export function runDeflateJob(input: { level: number; buffers: Uint8Array[] }): Uint8Array[] {
  return deflateAll(input.buffers, input.level);
}

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
 * timestamp can hold; a fixed date makes the same input give the same bytes (docs/skill-format.md §3).
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
  const counts = byteCounts(sample);
  let entropy = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const p = count / sample.length;
    entropy -= p * Math.log2(p);
  }
  return entropy < 7.5;
}

/**
 * How often each byte value occurs in `bytes`. Why four tables fed a 32-bit word at a time: one
 * table makes every increment wait for the one before when bytes repeat, and reading bytes one
 * by one costs more than the shifts; this took 11 ms instead of 20 for the 100 random blobs of
 * bench/pack's 25 MB export. The sums are the same counts.
 */
export function byteCounts(bytes: Uint8Array): Uint32Array {
  const c0 = new Uint32Array(256);
  const c1 = new Uint32Array(256);
  const c2 = new Uint32Array(256);
  const c3 = new Uint32Array(256);
  // Why: a Uint32Array view must start on a multiple of 4; the bytes before that are counted one by one.
  const head = Math.min(bytes.length, (4 - (bytes.byteOffset % 4)) % 4);
  for (let i = 0; i < head; i++) c0[bytes[i]]++;
  // Why a count of words first: a view may not start before the alignment, even an empty one.
  const count = (bytes.length - head) >>> 2;
  const words =
    count > 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + head, count) : new Uint32Array(0);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    c0[w & 0xff]++;
    c1[(w >>> 8) & 0xff]++;
    c2[(w >>> 16) & 0xff]++;
    c3[w >>> 24]++;
  }
  for (let i = head + words.length * 4; i < bytes.length; i++) c1[bytes[i]]++;
  for (let k = 0; k < 256; k++) c0[k] = c0[k] + c1[k] + c2[k] + c3[k];
  return c0;
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
function sendToWorker(pool: WorkerPool, buffers: Buffer[]): EarlyDeflate {
  const remote = pool.run('deflate', { level: LEVEL, buffers }).then(
    (done) =>
      new Map(
        buffers.map((b, k) => {
          const d = done[k];
          return [
            b,
            d
              ? Buffer.from(d.buffer, d.byteOffset, d.byteLength)
              : (deflateAll([b], LEVEL)[0] ?? Buffer.alloc(0)),
          ];
        }),
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
  pool: WorkerPool | null = sharedWorkers(),
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
  pool: WorkerPool | null,
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

/** Options of {@link encodeArchive} and {@link writeArchive}. */
export interface ArchiveOptions {
  /** Workers that share a large zip's deflating; default the app's shared pool, null: this thread only. */
  pool?: WorkerPool | null;
  /** Deflating already started on a worker (see {@link startDeflate}). */
  early?: EarlyDeflate | null;
}

/**
 * The bytes of a reproducible zip or tar.gz of `items` (in the order given; callers sort):
 * fixed dates (1980-01-01 UTC), modes 0644/0755 only, UTF-8 names.
 */
export async function encodeArchive(
  format: 'zip' | 'tar.gz',
  items: readonly ArchiveItem[],
  options: ArchiveOptions = {},
): Promise<Buffer> {
  const deflated =
    format === 'zip'
      ? await deflateAhead(
          items,
          options.pool === undefined ? sharedWorkers() : options.pool,
          options.early ?? null,
        )
      : new Map<Buffer, Buffer>();
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
  return Buffer.concat(chunks);
}

/**
 * Write a reproducible zip or tar.gz to `target` atomically (see writeFileAtomic): a crash never
 * leaves half an archive under the final name.
 */
export async function writeArchive(
  format: 'zip' | 'tar.gz',
  items: readonly ArchiveItem[],
  target: string,
  options: ArchiveOptions = {},
): Promise<WrittenArchive> {
  const data = await encodeArchive(format, items, options);
  const writing = writeFileAtomic(target, data, { mode: 0o644 });
  // Why between the write and its await: the hash runs on this thread while the thread pool
  // writes and syncs (a 25 MB archive's sha256 is tens of milliseconds).
  const sha256 = sha256Hex(data);
  await writing;
  return { path: target, bytes: data.length, sha256 };
}
