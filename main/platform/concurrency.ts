/**
 * How much work runs at once: the one bounded-concurrency helper for async calls, and the one
 * time slicer for long synchronous work on a thread that must stay responsive.
 */

/**
 * Map with at most `limit` calls in flight; results keep the input order. The first error stops
 * new calls and rejects once the calls already in flight have settled. Why bounded: thousands
 * of simultaneous file calls only queue in libuv's small thread pool and can exhaust file
 * descriptors (EMFILE) on large libraries. Why wait for the calls in flight: callers clean up
 * after a failure (close the archive being read, remove a staging folder), which must not
 * happen while other calls still use it.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  if (failure) throw failure.error;
  return results;
}

/** Longest stretch of synchronous file-system and parsing work before the event loop gets a turn. */
export const SLICE_MS = 8;

/**
 * Splits long synchronous work into slices of {@link SLICE_MS}: call `due()` between steps and
 * `await pause()` when it says so. Why synchronous work in slices rather than async calls: a
 * library walk is thousands of tiny readdir/lstat calls, and each async call's round trip
 * through libuv's thread pool costs more than the system call itself (bench/validate: the
 * async walk of 1,000 skills took ~2× the synchronous one on the same disk). Slicing keeps the
 * event loop (IPC, the browser-shell host, timers) responsive meanwhile.
 */
export class TimeSlicer {
  private start: number;

  /** @param now The clock (tests pass their own, so no assertion depends on how busy the machine is). */
  constructor(private readonly now: () => number = () => performance.now()) {
    this.start = now();
  }

  /** Whether this slice is used up. */
  due(): boolean {
    return this.now() - this.start >= SLICE_MS;
  }

  /** Let the event loop run, then start a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((ok) => setImmediate(ok));
    this.start = this.now();
  }
}
