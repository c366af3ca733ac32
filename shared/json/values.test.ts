import { describe, expect, it } from 'vitest';
import { isJsonObject, jsonEqual } from './values';

describe('plain parsed data', () => {
  it('an object with keys is neither null nor a list', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isJsonObject)).toEqual([true, true, true]);
    expect([null, [], 'x', 1, undefined].map(isJsonObject)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('two values are equal key by key in any order, lists item by item', () => {
    expect(jsonEqual({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual(Number.NaN, Number.NaN)).toBe(true);
    // A key inherited from the prototype is not a key of the object.
    expect(jsonEqual({ toString: 1 }, {})).toBe(false);
    expect(jsonEqual({}, { toString: 1 })).toBe(false);
  });
});
