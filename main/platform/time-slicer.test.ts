import { describe, expect, it } from 'vitest';
import { SLICE_MS, TimeSlicer } from './concurrency';

describe('TimeSlicer', () => {
  it('says a slice is used up after SLICE_MS, lets queued callbacks run on pause, then starts a fresh slice', async () => {
    // Why a clock of our own: the answer must not depend on how busy the machine is.
    let clock = 1000;
    const slicer = new TimeSlicer(() => clock);
    expect(slicer.due()).toBe(false);
    clock += SLICE_MS - 1;
    expect(slicer.due()).toBe(false);
    clock += 1;
    expect(slicer.due()).toBe(true);
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await slicer.pause();
    expect(ran).toBe(true);
    expect(slicer.due()).toBe(false);
    clock += SLICE_MS;
    expect(slicer.due()).toBe(true);
  });
});
