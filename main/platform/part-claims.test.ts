import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleTestScript } from '../testing/worker-bundle';
import { PartClaims } from './part-claims';

let tmp: string;
let takerScript: string;

// A worker that takes parts from the front of the claims it is given, as the app's workers do,
// and counts each part it took in a shared array.
const TAKER = `
import { parentPort, workerData } from 'node:worker_threads';
import { PartClaims } from './part-claims';
const claims = new PartClaims(workerData.claims);
const taken = new Int32Array(workerData.taken);
for (let i = claims.takeFront(); i !== undefined; i = claims.takeFront()) Atomics.add(taken, i, 1);
parentPort.postMessage('done');
`;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-claims-'));
  takerScript = await bundleTestScript(
    TAKER,
    dirname(fileURLToPath(import.meta.url)),
    join(tmp, 'taker.mjs'),
  );
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('PartClaims', () => {
  it('hands every part out once, the front from 0 up and the back from the end down, until they meet', () => {
    const claims = new PartClaims(5);
    expect(claims.takeFront()).toBe(0);
    expect(claims.takeBack()).toBe(4);
    expect(claims.takeBack()).toBe(3);
    expect(claims.takeFront()).toBe(1);
    expect(claims.takeFront()).toBe(2);
    // They met: neither side gets anything more, however often it asks.
    expect(claims.takeBack()).toBeUndefined();
    expect(claims.takeFront()).toBeUndefined();
    expect(claims.takeBack()).toBeUndefined();
    expect([0, 1, 2, 3, 4].map((i) => claims.takenFromFront(i))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('a view made from the buffer (as a worker makes it) shares the same claims', () => {
    const mine = new PartClaims(3);
    const theirs = new PartClaims(mine.buffer);
    expect(theirs.count).toBe(3);
    expect(theirs.takeFront()).toBe(0);
    expect(mine.takeBack()).toBe(2);
    expect(theirs.takeFront()).toBe(1);
    expect(mine.takeBack()).toBeUndefined();
    expect(mine.takenFromFront(1)).toBe(true);
  });

  it('no parts: nothing to take from either end', () => {
    const claims = new PartClaims(0);
    expect(claims.count).toBe(0);
    expect(claims.takeFront()).toBeUndefined();
    expect(claims.takeBack()).toBeUndefined();
  });

  it('three worker threads taking from the front while this thread takes from the back: each part exactly once', async () => {
    // Why so many parts: the threads race for the same parts many times over; whatever the
    // interleaving, no part may be taken twice or by nobody.
    const count = 200_000;
    const claims = new PartClaims(count);
    const taken = new SharedArrayBuffer(4 * count);
    const workers = Array.from(
      { length: 3 },
      () => new Worker(takerScript, { workerData: { claims: claims.buffer, taken } }),
    );
    const done = workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', () => resolve());
          w.once('error', reject);
        }),
    );
    const byBack = new Int32Array(taken);
    let mine = 0;
    for (let i = claims.takeBack(); i !== undefined; i = claims.takeBack()) {
      Atomics.add(byBack, i, 1);
      mine++;
    }
    await Promise.all(done);
    await Promise.all(workers.map((w) => w.terminate()));
    const counts = new Int32Array(taken);
    const wrong = counts.findIndex((n) => n !== 1);
    expect(wrong).toBe(-1);
    let front = 0;
    for (let i = 0; i < count; i++) if (claims.takenFromFront(i)) front++;
    expect(front + mine).toBe(count);
  });
});
