import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

describe('formatBytes', () => {
  it('says bytes under a thousand, and decimal units above, without a trailing .0', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1000)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(352_000)).toBe('352 KB');
    expect(formatBytes(30_000_000)).toBe('30 MB');
    expect(formatBytes(8_000_000)).toBe('8 MB');
    expect(formatBytes(16 * 1024 * 1024)).toBe('16.8 MB');
    expect(formatBytes(1024 ** 3)).toBe('1.1 GB');
    expect(formatBytes(5 * 1000 ** 4)).toBe('5 TB');
  });

  it('moves to the next unit when the figure would round to a thousand', () => {
    expect(formatBytes(999_960)).toBe('1 MB');
    expect(formatBytes(999_400)).toBe('999 KB');
  });

  it('never says a negative, fractional or unreadable count', () => {
    expect(formatBytes(-5)).toBe('0 bytes');
    expect(formatBytes(2.6)).toBe('3 bytes');
    expect(formatBytes(Number.NaN)).toBe('0 bytes');
  });
});
