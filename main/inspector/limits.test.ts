import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, MAX_TIMEOUT_MS, resolveLimits } from './limits';

describe('resolveLimits', () => {
  it('keeps every timeout within what a Node timer can hold, whoever asks for more', () => {
    // Why this matters: past 2^31-1 ms a timer fires after 1 ms, so a generous timeout became none.
    const r = resolveLimits({ requestTimeoutMs: 3_000_000_000, connectTimeoutMs: 2 ** 40 });
    expect(r.requestTimeoutMs).toBe(MAX_TIMEOUT_MS);
    expect(r.connectTimeoutMs).toBe(MAX_TIMEOUT_MS);
    expect(MAX_TIMEOUT_MS).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it('takes positive finite numbers and keeps the defaults for anything else', () => {
    const r = resolveLimits({ requestTimeoutMs: 5000, maxPages: 0, maxServerBytes: Number.NaN });
    expect(r.requestTimeoutMs).toBe(5000);
    expect(r.maxPages).toBe(DEFAULT_LIMITS.maxPages);
    expect(r.maxServerBytes).toBe(DEFAULT_LIMITS.maxServerBytes);
  });
});
