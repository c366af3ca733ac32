/**
 * The parts of one piece of work, shared between threads through shared memory, so that no part
 * is done twice and none is left out. Worker threads take parts from the front, the calling
 * thread from the back; each side takes its next part with one atomic step and a
 * compare-and-swap on the part itself, so neither waits for the other or for a message.
 *
 * Why two ends: the calling thread can start at once while its workers are still starting, and
 * when the two sides meet every part has been taken exactly once. The side that loses a part's
 * compare-and-swap knows that every part beyond it belongs to the other side too (each side takes
 * its parts in order), so it stops.
 *
 * Used by reading a library ahead (main/skill-folder/read-ahead.ts) and by checking a library on
 * several threads at once (main/validate/service.ts).
 */

/** A part nobody has taken. */
const FREE = 0;
/** Taken from the front (a worker). */
const FRONT = 1;
/** Taken from the back (the calling thread). */
const BACK = 2;

/** Slots before the parts' own: the front's next index and the back's. */
const HEADER = 2;

export class PartClaims {
  /** The shared memory: pass it to a worker, which makes its own `PartClaims` over it. */
  readonly buffer: SharedArrayBuffer;
  /** How many parts there are. */
  readonly count: number;
  readonly #slots: Int32Array;

  /** Claims for `count` new parts, or a view of claims made on another thread (their `buffer`). */
  constructor(countOrBuffer: number | SharedArrayBuffer) {
    if (typeof countOrBuffer === 'number') {
      const count = Math.max(0, Math.floor(countOrBuffer));
      this.buffer = new SharedArrayBuffer(4 * (HEADER + count));
      this.#slots = new Int32Array(this.buffer);
      this.#slots[1] = count;
    } else {
      this.buffer = countOrBuffer;
      this.#slots = new Int32Array(this.buffer);
    }
    this.count = this.#slots.length - HEADER;
  }

  /** The next part from the front (any number of workers may share it), or undefined when none is left. */
  takeFront(): number | undefined {
    const i = Atomics.add(this.#slots, 0, 1);
    if (i >= this.count) return undefined;
    return Atomics.compareExchange(this.#slots, HEADER + i, FREE, FRONT) === FREE ? i : undefined;
  }

  /** The next part from the back (the calling thread), or undefined when none is left. */
  takeBack(): number | undefined {
    const i = Atomics.sub(this.#slots, 1, 1) - 1;
    if (i < 0) return undefined;
    return Atomics.compareExchange(this.#slots, HEADER + i, FREE, BACK) === FREE ? i : undefined;
  }

  /** Whether part `i` was taken from the front (a worker has it, done or not). */
  takenFromFront(i: number): boolean {
    return Atomics.load(this.#slots, HEADER + i) === FRONT;
  }
}
