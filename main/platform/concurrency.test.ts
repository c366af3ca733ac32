import { describe, expect, it } from 'vitest';
import { mapLimit } from './concurrency';

/** A promise with its resolve exposed. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('mapLimit', () => {
  it('keeps input order with a few calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await Promise.resolve();
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('after the first error starts nothing new and rejects only once the calls in flight have settled', async () => {
    const slow = deferred();
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapLimit([0, 1, 2, 3], 2, async (n) => {
      started.push(n);
      if (n === 0) throw new Error('first');
      await slow.promise;
      finished.push(n);
      return n;
    });
    let settled = false;
    const outcome = run.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    void outcome.then(() => {
      settled = true;
    });
    // Let every queued callback run: the failure is known, the slow call is still in flight.
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    slow.resolve();
    expect(await outcome).toBe('first');
    expect(finished).toEqual([1]);
    expect(started).toEqual([0, 1]);
  });
});
