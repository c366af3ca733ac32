import { describe, expect, it } from 'vitest';
import { count, grouped, listed } from './words';

describe('count', () => {
  it('puts the noun in the right number and groups thousands', () => {
    expect(count(1, 'file')).toBe('1 file');
    expect(count(0, 'file')).toBe('0 files');
    expect(count(1000, 'skill')).toBe('1,000 skills');
    expect(count(2, 'entry', 'entries')).toBe('2 entries');
  });
});

describe('grouped', () => {
  it('reads exactly as the en-US number format does', () => {
    const cases = [
      0,
      -0,
      1,
      7,
      12,
      999,
      1000,
      1001,
      12_345,
      100_000,
      999_999,
      1_000_000,
      1_234_567,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
      -1,
      -999,
      -1000,
      -1_234_567,
      0.5,
      1234.5678,
      -1234.5,
      1e21,
      2 ** 60,
      Infinity,
      -Infinity,
      NaN,
    ];
    // Why many more: every digit count and every remainder of the grouping, both signs.
    for (let digits = 1; digits <= 16; digits++)
      for (const lead of [1, 4, 9]) {
        const n = Number(`${lead}${'7'.repeat(digits - 1)}`);
        cases.push(n, -n);
      }
    for (const n of cases) expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('groups a bigint (a schema bound can be one) as the format does', () => {
    for (const n of [0n, 5n, 1000n, -1234567n, 2n ** 70n, -(10n ** 30n)])
      expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('listed', () => {
  it('names one, two, or many in a sentence', () => {
    expect(listed([])).toBe('');
    expect(listed(['Cursor'])).toBe('Cursor');
    expect(listed(['Cursor', 'Codex'])).toBe('Cursor and Codex');
    expect(listed(['Cursor', 'Codex', 'Cline'])).toBe('Cursor, Codex and Cline');
  });
});
