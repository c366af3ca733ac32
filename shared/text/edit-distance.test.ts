import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance';

describe('editDistance', () => {
  it('counts insertions, deletions, replacements and swaps of neighbours as one edit each', () => {
    expect(editDistance('validate', 'validate')).toBe(0);
    expect(editDistance('validat', 'validate')).toBe(1);
    expect(editDistance('vallidate', 'validate')).toBe(1);
    expect(editDistance('valodate', 'validate')).toBe(1);
    expect(editDistance('vaildate', 'validate')).toBe(1);
    expect(editDistance('claud-cdoe', 'claude-code')).toBe(2);
    expect(editDistance('', 'ab')).toBe(2);
  });

  it('stops at the limit: anything further is limit + 1', () => {
    expect(editDistance('abcdef', 'uvwxyz')).toBe(3);
    expect(editDistance('a', 'abcdefgh')).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 10)).toBe(6);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });
});
