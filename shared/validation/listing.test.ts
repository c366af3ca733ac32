/**
 * Claude Code's skill-list line, against what Claude Code 2.1.332 itself sent the model for the
 * same frontmatter (scripts/agent-listing.mjs, 2026-11-29; docs/claude-code-listing.md).
 * Each expected value below is the line Claude Code listed.
 */
import { describe, expect, it } from 'vitest';
import { claudeCodeListing } from './listing';

const x = (n: number) => 'x'.repeat(n);

describe("Claude Code's skill-list line", () => {
  it('joins description and when_to_use with " - "', () => {
    expect(claudeCodeListing('Does e.', 'When e is asked.').shown).toBe(
      'Does e. - When e is asked.',
    );
    expect(claudeCodeListing('Does e.', '')).toEqual({ total: 7, cut: 0, shown: 'Does e.' });
  });

  it('turns line breaks and tabs into spaces, keeps other spaces, trims the ends', () => {
    expect(claudeCodeListing('Line one of f.\nLine two of f.\n', '').shown).toBe(
      'Line one of f. Line two of f.',
    );
    expect(claudeCodeListing('Folded one.\nNew para.\n', '').shown).toBe('Folded one. New para.');
    expect(claudeCodeListing('two  spaces\tand tab', '').shown).toBe('two  spaces and tab');
  });

  it('keeps 1,536 characters whole; past that, the first 1,535 and "…"', () => {
    expect(claudeCodeListing(x(1536), '')).toEqual({ total: 1536, cut: 0, shown: x(1536) });
    expect(claudeCodeListing(x(1537), '')).toEqual({
      total: 1537,
      cut: 2,
      shown: `${x(1535)}…`,
    });
    expect(claudeCodeListing(`${x(1530)}ABCDEFGHIJ`, '').shown).toBe(`${x(1530)}ABCDE…`);
  });

  it('counts the " - " in the cut: 1,530 + 3 + 3 fits, 1,533 + 3 + 3 does not', () => {
    expect(claudeCodeListing(x(1530), 'abc')).toEqual({
      total: 1536,
      cut: 0,
      shown: `${x(1530)} - abc`,
    });
    expect(claudeCodeListing(x(1533), 'abc').shown).toBe(`${x(1533)} -…`);
    expect(claudeCodeListing(x(1530), '12345678').shown).toBe(`${x(1530)} - 12…`);
  });

  it('counts UTF-16 units, as Claude Code does: an emoji is two, and the cut can split one', () => {
    const e = claudeCodeListing('😀'.repeat(1540), '');
    expect(e.total).toBe(3080);
    expect(e.shown.length).toBe(1536);
    expect(e.shown.endsWith('😀\ufffd…')).toBe(true);
    expect(claudeCodeListing('é'.repeat(1540), '').shown).toBe(`${'é'.repeat(1535)}…`);
  });
});

describe("Claude Code's skill-list line: < and >", () => {
  it('are written &lt; and &gt; before the cut, and counted so', () => {
    expect(claudeCodeListing('Converts <input> files to PDF', '').shown).toBe(
      'Converts &lt;input&gt; files to PDF',
    );
    expect(claudeCodeListing(`${x(1530)}<<<<<<<<<<`, '').shown).toBe(`${x(1530)}&lt;&…`);
  });
});

describe("Claude Code's skill-list line, on hostile input", () => {
  it('a 300,000-space description with no line break is read in one pass', () => {
    // A pattern that backtracked over each run of spaces never finished this within the test's
    // time limit (the property test in bounds.test.ts found it).
    const line = claudeCodeListing(`a ${' '.repeat(300_000)}z`, '');
    expect(line.total).toBe(300_003);
    expect(line.shown).toBe(`a ${' '.repeat(1533)}…`);
  });
});
