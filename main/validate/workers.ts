import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LibraryJob, LibraryJobResult } from './library-job';

/** Deflate work for a worker: raw-deflate each buffer with the zip encoder's settings (main/pack/deflate.ts). */
export interface DeflateJob {
  kind: 'deflate';
  level: number;
  buffers: Uint8Array[];
}

/** What a worker is asked to do: a share of a library, or deflate work for a zip export. */
export type WorkerJob = LibraryJob | DeflateJob;

/** A message from a worker: the job's result or why it failed. */
export type WorkerReply =
  | { ok: true; result: LibraryJobResult | { deflated: Uint8Array[] } }
  | { ok: false; error: string };

interface Task {
  job: WorkerJob;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

/** How long idle workers stay loaded, so the next listing (a watcher event, a reload) does not pay their start-up again. */
const IDLE_MS = 60_000;

/**
 * Worker threads that walk and validate shares of a large library in parallel. Why threads: a
 * library walk is thousands of small readdir/lstat calls plus a YAML parse per skill, all
 * synchronous; on one thread a 1,000-skill library costs ~150 ms of CPU, which threads spread
 * over the machine's cores, keeping the main thread (IPC, the browser-shell host) free
 * meanwhile. Workers start on first use (or {@link warm}), hold no reference that keeps the
 * process alive while idle, and end after {@link IDLE_MS} without work.
 */
export class ValidationPool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  /** Jobs the workers finished (for tests and diagnostics). */
  completed = 0;
  /** Set once a worker failed to start or crashed: the pool then refuses work and callers validate on their own thread. */
  private broken: Error | null = null;

  constructor(
    private readonly script: string,
    readonly size: number = defaultPoolSize(),
  ) {}

  /** Whether workers are running now (started, not ended by the idle timeout, not failed). */
  get live(): boolean {
    return this.broken === null && this.slots.length > 0;
  }

  /** Whether the pool can take work (it has not failed). */
  get usable(): boolean {
    return this.broken === null;
  }

  /** Start the workers now (at app start), so the first listing does not wait for them to load. */
  warm(): void {
    while (this.broken === null && this.slots.length < this.size) this.spawn();
  }

  /** Run one library job on the next free worker. */
  run(job: LibraryJob): Promise<LibraryJobResult> {
    return this.submit(job) as Promise<LibraryJobResult>;
  }

  /**
   * Raw-deflate `buffers` on the next free worker, with the zip encoder's settings. Why: a zip
   * export of many files spends most of its time deflating; a second core halves that while
   * the calling thread deflates the other half (main/pack/archive-writer.ts).
   */
  async deflate(buffers: Uint8Array[], level: number): Promise<Buffer[]> {
    const { deflated } = (await this.submit({ kind: 'deflate', level, buffers })) as {
      deflated: Uint8Array[];
    };
    return deflated.map((d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength));
  }

  private submit(job: WorkerJob): Promise<unknown> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    return new Promise<unknown>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.warm();
      this.dispatch();
    });
  }

  /** End every worker; queued jobs fail. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const slots = this.slots;
    this.slots = [];
    for (const task of this.queue.splice(0))
      task.reject(new Error('The validation workers were stopped.'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private spawn(): void {
    const worker = new Worker(this.script);
    const slot: Slot = { worker, task: null };
    // Why unref: an idle pool must not keep a CLI run or a test alive; a busy worker is ref'd (see dispatch).
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const task = slot.task;
      slot.task = null;
      worker.unref();
      if (task) {
        this.completed++;
        if (reply.ok) task.resolve(reply.result);
        else task.reject(new Error(reply.error));
      }
      this.dispatch();
    });
    const fail = (error: Error): void => {
      this.broken ??= error;
      this.slots = this.slots.filter((s) => s !== slot);
      slot.task?.reject(error);
      slot.task = null;
      // Why fail the queue too: with a broken pool nothing would ever take those jobs.
      if (this.slots.length === 0) for (const task of this.queue.splice(0)) task.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot))
        fail(new Error(`A validation worker stopped unexpectedly (exit code ${code}).`));
    });
    this.slots.push(slot);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (slot.task) continue;
      const task = this.queue.shift();
      if (!task) break;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage(task.job);
    }
    if (
      this.queue.length === 0 &&
      this.slots.every((s) => !s.task) &&
      !this.idleTimer &&
      this.slots.length > 0
    ) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        void this.close();
      }, IDLE_MS);
      this.idleTimer.unref();
    }
  }
}

/** One worker per core, at most four (past that the disk, not the CPU, sets the pace). */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(availableParallelism(), 4));
}

let shared: ValidationPool | null = null;

/**
 * Name the built worker script (out/main/validate-worker.mjs) so large libraries are validated
 * in parallel; entry points call this once (the CLI, the Electron main process). Without it,
 * and on a one-core machine, validation runs on the calling thread.
 */
export function useValidationWorkers(
  script: string | null,
  options: { warm?: boolean } = {},
): ValidationPool | null {
  void shared?.close();
  shared = script !== null && defaultPoolSize() > 1 ? new ValidationPool(script) : null;
  if (options.warm) shared?.warm();
  return shared;
}

/** The pool named by {@link useValidationWorkers}, when it can take work. */
export function sharedValidationPool(): ValidationPool | null {
  return shared?.usable ? shared : null;
}

/** The worker bundle's file name beside the other bundles in out/main (scripts/build.mjs). */
export const WORKER_BUNDLE = 'validate-worker.mjs';

/**
 * Use the worker bundle in `bundleDir` (out/main) when it is there; when running from source
 * (tests, `tsx`) it is not, and validation stays on the calling thread.
 */
export function useBuiltValidationWorkers(
  bundleDir: string,
  options: { warm?: boolean } = {},
): ValidationPool | null {
  const script = join(bundleDir, WORKER_BUNDLE);
  return useValidationWorkers(existsSync(script) ? script : null, options);
}
