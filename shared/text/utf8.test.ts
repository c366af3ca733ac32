import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from './utf8';

describe('firstInvalidUtf8', () => {
  it('finds the first byte that is not UTF-8, and -1 for UTF-8', () => {
    const at = (...b: number[]) => firstInvalidUtf8(Uint8Array.from(b));
    expect(firstInvalidUtf8(Buffer.from('Café — ✓ 𝄞', 'utf8'))).toBe(-1);
    expect(at(0x43, 0x61, 0x66, 0xe9, 0x20)).toBe(3); // Latin-1 "Café "
    expect(at(0xc0, 0x80)).toBe(0); // overlong NUL
    expect(at(0xe0, 0x80, 0x80)).toBe(0); // overlong
    expect(at(0xed, 0xa0, 0x80)).toBe(0); // a surrogate
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0); // above U+10FFFF
    expect(at(0x41, 0xe2, 0x9c)).toBe(1); // cut short
    expect(at(0x41, 0xe2, 0x41, 0x41)).toBe(1); // a continuation missing
    expect(at(0x80)).toBe(0); // a lone continuation
  });

  it("agrees with Node's own check on every byte pair and on random bytes", () => {
    for (let a = 0; a < 256; a++)
      for (let b = 0; b < 256; b++) {
        const bytes = Uint8Array.from([a, b]);
        expect(firstInvalidUtf8(bytes) === -1, `${a} ${b}`).toBe(isUtf8(bytes));
      }
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (let t = 0; t < 3000; t++) {
      const bytes = Uint8Array.from({ length: 1 + (t % 9) }, () => (next() < 200 ? next() : 0xe2));
      const i = firstInvalidUtf8(bytes);
      expect(i === -1).toBe(isUtf8(bytes));
      if (i > 0) expect(isUtf8(bytes.subarray(0, i))).toBe(true);
    }
  });
});
