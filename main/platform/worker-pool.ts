/**
 * Worker threads for the app's CPU-bound work: one generic pool, job kinds registered by the
 * modules that own them (validation registers `validate`, the archive writer `deflate`).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * The job kinds the app's workers run: each module that adds one declares it here by
 * declaration merging (`declare module '…/platform/worker-pool' { interface WorkerJobKinds {
 * kind: { input: …; output: … } } }`), so a job is a discriminated union over every kind and
 * a worker that lacks a kind's handler does not compile (see {@link serveWorkerJobs}).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WorkerJobKinds {}

/** A registered job kind's name. */
export type WorkerJobKind = keyof WorkerJobKinds & string;

/** What a kind takes and gives back. */
type InputOf<K extends WorkerJobKind> = WorkerJobKinds[K] extends { input: infer I } ? I : never;
type OutputOf<K extends WorkerJobKind> = WorkerJobKinds[K] extends { output: infer O } ? O : never;
/** What a kind reports while it runs (kinds that declare `progress`), before its output. */
type ProgressOf<K extends WorkerJobKind> = WorkerJobKinds[K] extends { progress: infer P }
  ? P
  : never;

/** A job as it crosses to a worker: one of the registered kinds with its input. */
export type WorkerJob = { [K in WorkerJobKind]: { kind: K; input: InputOf<K> } }[WorkerJobKind];

/**
 * A message from a worker: the job's output or why it failed, a report while it runs, or that
 * it has loaded what it was asked to load as it started ({@link announcePreloaded}).
 */
export type WorkerReply =
  | { ok: true; output: unknown }
  | { ok: false; error: string }
  | { progress: unknown }
  | { preloaded: true };

/**
 * One handler per registered kind: what a worker script passes to {@link serveWorkerJobs}. A
 * handler may answer later (a promise), e.g. after loading its modules on first use.
 */
export type WorkerHandlers = {
  [K in WorkerJobKind]: (
    input: InputOf<K>,
    /** Send a report to the job's caller now (kinds that declare `progress`). */
    progress: (report: ProgressOf<K>) => void,
  ) => OutputOf<K> | Promise<OutputOf<K>>;
};

/**
 * The body of a worker script: answer each job posted to this thread with its handler's output,
 * one at a time. A handler that throws answers with its message; the worker stays up.
 */
export function serveWorkerJobs(handlers: WorkerHandlers): void {
  const port = parentPort;
  if (!port) return;
  // Why one at a time holds with promises too: the pool posts a worker its next job only after
  // this one's reply.
  const answer = async (job: { kind: WorkerJobKind; input: unknown }): Promise<void> => {
    let reply: WorkerReply;
    try {
      const handler = handlers[job.kind] as
        ((input: unknown, progress: (report: unknown) => void) => unknown) | undefined;
      if (!handler) throw new Error(`This worker has no handler for "${String(job.kind)}" jobs.`);
      const progress = (report: unknown): void => port.postMessage({ progress: report });
      reply = { ok: true, output: await handler(job.input, progress) };
    } catch (error) {
      reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  };
  port.on('message', (job: { kind: WorkerJobKind; input: unknown }) => void answer(job));
}

interface Task {
  job: WorkerJob;
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
  progress?: (report: unknown) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  /** Whether the worker said it has loaded its `preload` kinds' modules. */
  preloaded: boolean;
}

/** How long idle workers stay loaded, so the next listing (a watcher event, a reload) does not pay their start-up again. */
const IDLE_MS = 60_000;

/**
 * Worker threads that run registered jobs in parallel (validation of a large library's shares,
 * deflating a large zip export's files). Why threads: a library walk is thousands of small
 * readdir/lstat calls plus a YAML parse per skill, all synchronous; on one thread a 1,000-skill
 * library costs ~150 ms of CPU, which threads spread over the machine's cores, keeping the main
 * thread (IPC, the browser-shell host) free meanwhile. Workers start on first use (or
 * {@link warm}), hold no reference that keeps the process alive while idle, and end after
 * {@link IDLE_MS} without work.
 */
export class WorkerPool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  /** Jobs the workers finished (for tests and diagnostics). */
  completed = 0;
  /** Set once a worker failed to start or crashed: the pool then refuses work and callers work on their own thread. */
  private broken: Error | null = null;
  /** Callers of {@link preloaded} still waiting. */
  private preloadWaiters: (() => void)[] = [];

  constructor(
    readonly script: string,
    readonly size: number = defaultPoolSize(),
    /**
     * Job kinds whose modules each worker loads as soon as it starts (see {@link workerPreload}),
     * for a pool started ahead of work it knows it will get.
     */
    readonly preload: readonly WorkerJobKind[] = [],
  ) {}

  /** Whether workers are running now (started, not ended by the idle timeout, not failed). */
  get live(): boolean {
    return this.broken === null && this.slots.length > 0;
  }

  /** Whether the pool can take work (it has not failed). */
  get usable(): boolean {
    return this.broken === null;
  }

  /** Start the workers now (at app start), so the first job does not wait for them to load. */
  warm(): void {
    while (this.broken === null && this.slots.length < this.size) this.spawn();
  }

  /**
   * Settles once every running worker has loaded the modules of its `preload` kinds (or could
   * not, or stopped), and at once when no worker runs. Why a caller waits for this: a V8 flag
   * changed while a worker loads its code makes V8 refuse that code's cache (see
   * main/platform/optimizer-pause.ts), so the command line pauses the optimizer after this.
   */
  preloaded(): Promise<void> {
    if (this.slots.every((s) => s.preloaded)) return Promise.resolve();
    return new Promise<void>((resolve) => this.preloadWaiters.push(resolve));
  }

  private settlePreloaded(): void {
    if (this.preloadWaiters.length === 0 || !this.slots.every((s) => s.preloaded)) return;
    for (const resolve of this.preloadWaiters.splice(0)) resolve();
  }

  /** Run one job of a registered kind on the next free worker. */
  run<K extends WorkerJobKind>(
    kind: K,
    input: InputOf<K>,
    /** Called with each report the job sends while it runs, in order, before it resolves. */
    progress?: (report: ProgressOf<K>) => void,
  ): Promise<OutputOf<K>> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    return new Promise<OutputOf<K>>((resolve, reject) => {
      this.queue.push({
        job: { kind, input } as WorkerJob,
        resolve: resolve as (output: unknown) => void,
        reject,
        ...(progress ? { progress: progress as (report: unknown) => void } : {}),
      });
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
    for (const task of this.queue.splice(0)) task.reject(new Error('The workers were stopped.'));
    this.settlePreloaded();
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private spawn(): void {
    const worker = new Worker(this.script, { workerData: { preload: this.preload } });
    const slot: Slot = { worker, task: null, preloaded: false };
    worker.on('message', (reply: WorkerReply) => {
      if ('preloaded' in reply) {
        slot.preloaded = true;
        this.settlePreloaded();
        return;
      }
      if ('progress' in reply) {
        slot.task?.progress?.(reply.progress);
        return;
      }
      const task = slot.task;
      slot.task = null;
      worker.unref();
      if (task) {
        this.completed++;
        if (reply.ok) task.resolve(reply.output);
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
      this.settlePreloaded();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot))
        fail(new Error(`A worker thread stopped unexpectedly (exit code ${code}).`));
    });
    // Why unref, and only now: an idle pool must not keep a CLI run or a test alive (a busy worker
    // is ref'd, see dispatch), and Node refs a worker again when a 'message' listener is added
    // to it, so an unref before the listeners left every idle worker holding the process open.
    worker.unref();
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

let shared: WorkerPool | null = null;
let side: WorkerPool | null = null;
let helpers: WorkerPool | null = null;

/**
 * Name the built worker script (out/main/worker.mjs) so the app's parallel work runs on worker
 * threads; entry points call this once (the CLI, the Electron main process, the browser-shell
 * host). Without it, and on a one-core machine, the work runs on the calling thread.
 */
export function useWorkers(
  script: string | null,
  options: { warm?: boolean } = {},
): WorkerPool | null {
  void shared?.close();
  void side?.close();
  void helpers?.close();
  side = null;
  helpers = null;
  shared = script !== null && defaultPoolSize() > 1 ? new WorkerPool(script) : null;
  if (options.warm) shared?.warm();
  return shared;
}

/** The pool named by {@link useWorkers}, when it can take work. */
export function sharedWorkers(): WorkerPool | null {
  return shared?.usable ? shared : null;
}

/**
 * One worker running the same script as the shared pool, for work that runs beside the calling
 * thread rather than shared out among all cores (reading a library ahead of the thread that
 * checks it). Null where the shared pool is (no built workers, one core).
 */
export function sideWorker(): WorkerPool | null {
  const pool = sharedWorkers();
  if (!pool) return null;
  side ??= new WorkerPool(pool.script, 1);
  return side.usable ? side : null;
}

/**
 * Workers that check a library beside a calling thread that checks parts of it too (a one-shot
 * command line): one fewer than the shared pool's, at least one, each loading the validation
 * modules as it starts. Null where the shared pool is (no built workers, one core).
 */
export function helperWorkers(): WorkerPool | null {
  const pool = sharedWorkers();
  if (!pool) return null;
  helpers ??= new WorkerPool(pool.script, Math.max(1, pool.size - 1), ['validate']);
  return helpers.usable ? helpers : null;
}

/**
 * The job kinds a worker was asked to load as it starts ({@link WorkerPool}'s `preload`); empty
 * on the calling thread.
 */
export function workerPreload(): WorkerJobKind[] {
  const data: unknown = workerData;
  if (typeof data !== 'object' || data === null || !('preload' in data)) return [];
  const preload = data.preload;
  return Array.isArray(preload)
    ? preload.filter((k): k is WorkerJobKind => typeof k === 'string')
    : [];
}

/**
 * Say to the pool that this worker has loaded the modules of its `preload` kinds (the worker
 * script calls it once, after trying them all). Nothing on the calling thread.
 */
export function announcePreloaded(): void {
  parentPort?.postMessage({ preloaded: true } satisfies WorkerReply);
}

/** The worker bundle's file name beside the other bundles in out/main (scripts/build.mjs). */
export const WORKER_BUNDLE = 'worker.mjs';

/**
 * Use the worker bundle in `bundleDir` (out/main) when it is there; when running from source
 * (tests, `tsx`) it is not, and the work stays on the calling thread.
 */
export function useBuiltWorkers(
  bundleDir: string,
  options: { warm?: boolean } = {},
): WorkerPool | null {
  const script = join(bundleDir, WORKER_BUNDLE);
  return useWorkers(existsSync(script) ? script : null, options);
}
