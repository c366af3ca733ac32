import { describe, expect, it } from 'vitest';
import { count } from './words';

describe('count', () => {
  it('puts the noun in the right number and groups thousands', () => {
    expect(count(1, 'file')).toBe('1 file');
    expect(count(0, 'file')).toBe('0 files');
    expect(count(1000, 'skill')).toBe('1,000 skills');
    expect(count(2, 'entry', 'entries')).toBe('2 entries');
  });
});
