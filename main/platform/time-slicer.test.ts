import { describe, expect, it } from 'vitest';
import { SLICE_MS, TimeSlicer } from './concurrency';

describe('TimeSlicer', () => {
  it('says a slice is used up after SLICE_MS, lets queued callbacks run on pause, then starts a fresh slice', async () => {
    const slicer = new TimeSlicer();
    expect(slicer.due()).toBe(false);
    const until = performance.now() + SLICE_MS + 1;
    while (performance.now() < until) {
      // Busy, as a long synchronous walk is.
    }
    expect(slicer.due()).toBe(true);
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await slicer.pause();
    expect(ran).toBe(true);
    expect(slicer.due()).toBe(false);
  });
});
