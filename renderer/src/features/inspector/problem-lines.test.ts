import { describe, expect, it } from 'vitest';
import { problemLines } from './problem-lines';

describe('problemLines', () => {
  it('shows a problem the entry and its verification both report once, in order', () => {
    const mismatch = 'The name "pdf" is not the last segment of its URI skill://tools/pdf-tools.';
    expect(problemLines([mismatch], [mismatch, 'SKILL.md was not listed.'])).toEqual([
      mismatch,
      'SKILL.md was not listed.',
    ]);
    expect(problemLines([], undefined)).toEqual([]);
  });
});
