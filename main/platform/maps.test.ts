import { describe, expect, it } from 'vitest';
import { sameMaps } from './maps';

describe('sameMaps', () => {
  const eq = (x: number | undefined, y: number | undefined): boolean => x === y;

  it('holds for the same keys with equal values, in any order', () => {
    expect(
      sameMaps(
        new Map([
          ['a', 1],
          ['b', 2],
        ]),
        new Map([
          ['b', 2],
          ['a', 1],
        ]),
        eq,
      ),
    ).toBe(true);
    expect(sameMaps(new Map(), new Map(), eq)).toBe(true);
  });

  it('fails for a value that differs, a key missing, or another size', () => {
    expect(sameMaps(new Map([['a', 1]]), new Map([['a', 2]]), eq)).toBe(false);
    expect(sameMaps(new Map([['a', 1]]), new Map([['b', 1]]), eq)).toBe(false);
    expect(
      sameMaps(
        new Map([['a', 1]]),
        new Map([
          ['a', 1],
          ['b', 2],
        ]),
        eq,
      ),
    ).toBe(false);
  });

  it('tells a key held with no value from a key that is not there', () => {
    const held = new Map<string, number | undefined>([['a', undefined]]);
    expect(sameMaps(held, new Map([['a', undefined]]), eq)).toBe(true);
    expect(sameMaps(held, new Map([['b', undefined]]), eq)).toBe(false);
  });

  it("asks `equal` with the first map's value first", () => {
    const seen: [string, string][] = [];
    sameMaps(new Map([['k', 'left']]), new Map([['k', 'right']]), (x, y) => {
      seen.push([x, y]);
      return true;
    });
    expect(seen).toEqual([['left', 'right']]);
  });
});
