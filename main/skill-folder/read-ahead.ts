/**
 * Reading a library ahead of the thread that needs it. Why: a start of the embedded server
 * (`skillbench serve`) spent a third of its main-thread time in system calls (a readdir per
 * folder, an lstat and an open/fstat/read/close per file) while the same thread also loads the
 * modules the first answer needs. A worker thread runs the same walk (the one walker,
 * with the file set's list of what is never entered) and the same reads (`readRegularFileSync`:
 * links never followed, the bytes of one version of the file) on the other core, and hands over
 * the listings and the bytes. Nothing is decided on the worker: every verdict, digest and check
 * is still made on the calling thread, from exactly these bytes.
 *
 * When no worker can run (no built worker bundle, one core, a worker that fails), the callers
 * walk and read on their own thread, as before; the answer is the same either way.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { sha256Digest } from '../platform/digest';
import { joinWalked } from '../platform/paths';
import { PartClaims } from '../platform/part-claims';
import { readRegularFileSync, type RegularFile } from '../platform/read-file';
import { walkFolder, type WalkedEntry, type WalkedTree } from '../platform/walk';
import { NEVER_ENTERED } from '../../shared/skill/file-set';
import { sideWorker, type WorkerPool } from '../platform/worker-pool';
import { skillEntries, skillFileNameIn, skillsIn, walkSkillsSync } from './index';

/** One job for the worker: walk the parts of `root` in order and read every skill's files. */
export interface ReadAheadJob {
  /** Absolute library (or skill) folder. */
  root: string;
  /** Subfolders of `root` ('' = the whole tree), in parts, each walked with everything under it. */
  parts: string[][];
  /**
   * The parts' claims, shared with the calling thread (a {@link PartClaims} buffer): the worker
   * takes parts from the front, the caller from the back, so no part is read twice.
   */
  claims: SharedArrayBuffer;
  /** Files larger than this are not read (the caller reads or refuses them itself). */
  maxFileBytes: number;
  /** Bytes this job reads at most; past it, the caller reads the rest itself. */
  budgetBytes: number;
}

/** A file read on the worker: where its bytes sit in the part's buffer and what fstat said. */
interface PreReadFile {
  /** `/`-separated, relative to the root. */
  path: string;
  start: number;
  end: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  executable: boolean;
  /** The SEP-2640 digest of exactly these bytes. */
  digest: string;
}

/** What the worker reports for each part it read. */
export interface ReadAheadReport {
  /** The part's index in the job. */
  part: number;
  /** The listings of every folder walked under the part's folders, in walk order. */
  children: [string, WalkedEntry[]][];
  files: PreReadFile[];
  /** Every file's bytes, one after another (one copy across threads instead of one per file). */
  bytes: Uint8Array;
}

declare module '../platform/worker-pool' {
  interface WorkerJobKinds {
    /** Walk and read parts of a library ahead of the calling thread (see {@link ReadAheadJob}). */
    'read-ahead': { input: ReadAheadJob; output: { read: number }; progress: ReadAheadReport };
  }
}

/** The worker's side: each part not taken by the caller is walked, read and reported at once. */
export function runReadAheadJob(
  job: ReadAheadJob,
  report: (part: ReadAheadReport) => void,
): { read: number } {
  const claims = new PartClaims(job.claims);
  let budget = job.budgetBytes;
  let read = 0;
  for (let i = claims.takeFront(); i !== undefined; i = claims.takeFront()) {
    const out = readPart(job, job.parts[i] ?? [], budget);
    budget -= out.bytes.byteLength;
    report({ part: i, ...out });
    read++;
  }
  return { read };
}

function readPart(
  job: ReadAheadJob,
  dirs: readonly string[],
  budgetBytes: number,
): Omit<ReadAheadReport, 'part'> {
  const children = new Map<string, WalkedEntry[]>();
  const files: PreReadFile[] = [];
  const chunks: Buffer[] = [];
  const seen = new Set<string>();
  let total = 0;
  walkSkillsSync(job.root, dirs, children);
  // realRoot is only used for where links lead, which nothing here looks at.
  const tree: WalkedTree = { root: job.root, realRoot: job.root, children };
  for (const skill of skillsIn(children)) {
    for (const e of skillEntries(tree, skill.relDir)) {
      if (e.kind !== 'file' || e.leftOut) continue;
      const path = skill.relDir === '' ? e.path : `${skill.relDir}/${e.path}`;
      // Why: a skill inside another skill's folder lists the same files twice.
      if (seen.has(path)) continue;
      seen.add(path);
      if (e.size > job.maxFileBytes || total + e.size > budgetBytes) continue;
      let file: RegularFile;
      try {
        file = readRegularFileSync(joinWalked(job.root, path), job.maxFileBytes, e);
      } catch {
        continue; // Why: the caller reads it again and says why it cannot, in its own words.
      }
      if (!file.bytes) continue;
      files.push({
        path,
        start: total,
        end: total + file.bytes.length,
        size: file.size,
        mtimeMs: file.mtimeMs,
        ctimeMs: file.ctimeMs,
        ino: file.ino,
        executable: file.executable,
        digest: sha256Digest(file.bytes),
      });
      chunks.push(file.bytes);
      total += file.bytes.length;
    }
  }
  // Why a buffer of its own: a view into Node's shared pool would carry the whole pool across.
  const bytes = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const c of chunks) at += c.copy(bytes, at);
  return { children: [...children], files, bytes };
}

/** A file read ahead: as `readRegularFileSync` returned it, with the digest of its bytes. */
export type PreRead = RegularFile & { bytes: Buffer; digest: string };

/** What the calling thread gets for one part. */
export interface ReadAhead {
  /** The listings of every folder walked for the part. */
  children: Map<string, WalkedEntry[]>;
  /** Root-relative path → the file as `readRegularFileSync` returned it on the worker. */
  files: Map<string, PreRead>;
}

function received(out: ReadAheadReport): ReadAhead {
  const bytes = Buffer.from(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength);
  const files = new Map<string, PreRead>();
  for (const f of out.files)
    files.set(f.path, {
      digest: f.digest,
      bytes: bytes.subarray(f.start, f.end),
      size: f.size,
      mtimeMs: f.mtimeMs,
      ctimeMs: f.ctimeMs,
      ino: f.ino,
      executable: f.executable,
    });
  return { children: new Map(out.children), files };
}

/**
 * The file at `path` (relative to the root) as it was read ahead, only when it is the file the
 * walk listed (same size and modification time); otherwise the caller reads it itself.
 */
export function readAheadFile(
  ahead: ReadAhead | undefined,
  path: string,
  listed: { size: number; mtimeMs?: number },
): PreRead | undefined {
  const file = ahead?.files.get(path);
  return file?.bytes && file.size === listed.size && file.mtimeMs === listed.mtimeMs
    ? file
    : undefined;
}

/** At most this much is read ahead for one queue; past it, the caller reads the rest itself. */
const DEFAULT_BUDGET = 256 * 1024 * 1024;

/** One part of a queue: some folders, and what the worker read of them (none: walk them yourself). */
export interface ReadAheadPart {
  dirs: string[];
  ahead?: ReadAhead;
}

/**
 * Some folders of `root` cut into parts of `batch` folders. The side worker walks and reads parts
 * from the front and reports each as it is done; the calling thread takes parts from the back for
 * itself whenever none read by the worker is waiting, so neither thread waits for the other.
 * Parts come out in no fixed order (callers that list results sort them). Without a worker, or
 * when it fails, every part not reported comes out unread.
 */
export class ReadAheadQueue {
  readonly #parts: string[][] = [];
  readonly #claims: PartClaims;
  readonly #ready: ReadAheadPart[] = [];
  readonly #reported = new Set<number>();
  #running: boolean;
  readonly #callerTakes: boolean;
  #wake: (() => void) | undefined;

  constructor(
    readonly root: string,
    dirs: readonly string[],
    options: {
      batch: number;
      maxFileBytes: number;
      budgetBytes?: number;
      pool?: WorkerPool | null;
      /** Whether the calling thread takes parts from the back itself (default); false: it waits for the worker. */
      callerTakes?: boolean;
    },
  ) {
    this.#callerTakes = options.callerTakes ?? true;
    const size = Math.max(1, options.batch);
    for (let at = 0; at < dirs.length; at += size) this.#parts.push(dirs.slice(at, at + size));
    this.#claims = new PartClaims(this.#parts.length);
    const pool = options.pool === undefined ? sideWorker() : options.pool;
    this.#running = pool !== null && this.#parts.length > 0;
    if (!pool || !this.#running) return;
    const job: ReadAheadJob = {
      root,
      parts: this.#parts,
      claims: this.#claims.buffer,
      maxFileBytes: options.maxFileBytes,
      budgetBytes: options.budgetBytes ?? DEFAULT_BUDGET,
    };
    const ended = (): void => {
      this.#running = false;
      this.#wake?.();
    };
    pool
      .run('read-ahead', job, (report) => {
        this.#reported.add(report.part);
        this.#ready.push({ dirs: this.#parts[report.part] ?? [], ahead: received(report) });
        this.#wake?.();
      })
      // Why not an error: a worker that failed leaves its parts to the calling thread.
      .then(ended, ended);
  }

  /** Take the last free part for the calling thread, if any. */
  #take(): string[] | undefined {
    const i = this.#claims.takeBack();
    return i === undefined ? undefined : this.#parts[i];
  }

  /** Every part once: read by the worker when one is waiting, else one taken from the back, unread. */
  async *parts(): AsyncGenerator<ReadAheadPart> {
    for (;;) {
      const ready = this.#ready.shift();
      if (ready) {
        yield ready;
        continue;
      }
      const mine = this.#callerTakes || !this.#running ? this.#take() : undefined;
      if (mine) {
        yield { dirs: mine };
        continue;
      }
      if (this.#running) {
        await new Promise<void>((wake) => (this.#wake = wake));
        this.#wake = undefined;
        continue;
      }
      // The worker ended: parts it took but never reported (it failed) are walked here.
      for (let i = 0; i < this.#parts.length; i++)
        if (this.#claims.takenFromFront(i) && !this.#reported.has(i)) {
          this.#reported.add(i);
          yield { dirs: this.#parts[i] ?? [] };
        }
      return;
    }
  }
}

/** A library (or skill) folder being read ahead in parts, for {@link libraryParts}. */
export interface LibraryReadAhead {
  /** The absolute folder. */
  root: string;
  /** Its own listing, made on the calling thread (undefined: it could not be read). */
  rootEntries: WalkedEntry[] | undefined;
  queue: ReadAheadQueue | undefined;
}

/**
 * Start reading the library at `root` ahead, `batch` subfolders per part. Its own listing is made
 * here (one readdir, with the walker and the file set's list of what is never entered); a folder
 * that is itself a skill is one part.
 */
export function readAheadLibrary(
  root: string,
  options: ConstructorParameters<typeof ReadAheadQueue>[2],
): LibraryReadAhead {
  const abs = resolve(root);
  const children = new Map<string, WalkedEntry[]>();
  const tops: string[] = [];
  if (!walkFolder(abs, '', children, tops, NEVER_ENTERED))
    return { root: abs, rootEntries: undefined, queue: undefined };
  const rootEntries = children.get('') ?? [];
  const dirs = skillFileNameIn(rootEntries) !== undefined ? [''] : tops;
  return { root: abs, rootEntries, queue: new ReadAheadQueue(abs, dirs, options) };
}

/**
 * The parts of a library read ahead, as walked trees (each holding the root's listing and its
 * part's folders) with the files read; a part nobody read ahead is walked here. Nothing when the
 * root could not be listed (the caller's own walk then fails with the system's error).
 */
export async function* libraryParts(
  lib: LibraryReadAhead,
): AsyncGenerator<{ tree: WalkedTree; ahead?: ReadAhead }> {
  if (!lib.rootEntries || !lib.queue) return;
  const realRoot = realpathSync(lib.root);
  for await (const part of lib.queue.parts()) {
    const children = new Map<string, WalkedEntry[]>();
    if (part.dirs[0] !== '') children.set('', lib.rootEntries);
    if (part.ahead) for (const [dir, entries] of part.ahead.children) children.set(dir, entries);
    else walkSkillsSync(lib.root, part.dirs, children);
    yield {
      tree: { root: lib.root, realRoot, children },
      ...(part.ahead ? { ahead: part.ahead } : {}),
    };
  }
}
