import { describe, expect, it } from 'vitest';
import type { ApiHandlers } from '../../shared/ipc/contract';
import { createDispatch } from './dispatch';

/** A handler for `app.info` whose calls answer one at a time, each when `open` is called. */
function gatedHandlers(): { handlers: ApiHandlers; open: () => void; calls: () => number } {
  let calls = 0;
  const waiting: (() => void)[] = [];
  const info = async () => {
    calls++;
    await new Promise<void>((resolve) => waiting.push(resolve));
    return {
      ok: true as const,
      value: {
        shell: 'browser' as const,
        version: 't',
        platform: 'linux',
        homeDir: '/',
        nativeDialogs: false,
      },
    };
  };
  // Why a cast: the dispatch under test needs one channel; the others are never called.
  const handlers = { 'app.info': info } as unknown as ApiHandlers;
  return { handlers, open: () => waiting.shift()?.(), calls: () => calls };
}

/** Let every callback already queued run (no clock involved). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('dispatch.settle: a closing shell waits for the calls under way', () => {
  it('resolves at once when nothing runs', async () => {
    const { handlers } = gatedHandlers();
    await expect(createDispatch(handlers).settle()).resolves.toBeUndefined();
  });

  it('resolves only once every call under way has answered, calls made meanwhile included', async () => {
    const g = gatedHandlers();
    const dispatch = createDispatch(g.handlers);
    const first = dispatch('app.info', {});
    let settled = false;
    void dispatch.settle().then(() => (settled = true));
    await turn();
    expect(settled).toBe(false);
    // A call made while settling is waited for too.
    const second = dispatch('app.info', {});
    await turn();
    expect(g.calls()).toBe(2);
    g.open();
    await first;
    await turn();
    // The first has answered; settling still waits for the one made after it began.
    expect(settled).toBe(false);
    g.open();
    await second;
    await turn();
    expect(settled).toBe(true);
  });

  it('counts a call that ended in an error as ended', async () => {
    const handlers = {
      'app.info': async () => {
        throw new Error('boom');
      },
    } as unknown as ApiHandlers;
    const dispatch = createDispatch(handlers);
    const r = await dispatch('app.info', {});
    expect(r.ok).toBe(false);
    await expect(dispatch.settle()).resolves.toBeUndefined();
  });
});
