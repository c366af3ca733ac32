import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill/frontmatter-parser';
import { reviewSkill } from './review';
import { decodePunycode } from './unicode';
import { inputOf } from './testing/samples';

// Characters that exercise every path: Markdown syntax, the start of every pattern, hidden and
// joining characters, surrogate pairs, right-to-left letters.
const ALPHABET = [
  ...'abc xyz\n\t-#>`[]()!<>/\\|~$.:"\'=*{}@',
  'ignore ',
  'previous ',
  'instructions',
  'curl ',
  ' | sh',
  'https://',
  'xn--',
  '~/.ssh',
  'base64 -d',
  '<!--',
  '-->',
  '```',
  '![',
  '](',
  'rm -rf ',
  'exec(',
  'AKIA',
  'ghp_',
  '-----BEGIN ',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u202e',
  '\u2066',
  '\ufe0f',
  '\ufe01',
  '\u{e0041}',
  '\u{e0100}',
  '\u{1f3f4}',
  '👨',
  'а',
  'ο',
  'ש',
  'م',
  '\r\n',
  '\u0000',
];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 400 }).map((a) => a.join(''));

describe('the review on random input', () => {
  it('never throws and always returns a verdict, for any files', () => {
    fc.assert(
      fc.property(text, text, fc.string(), (skill, script, data) => {
        const input = inputOf(
          {
            'SKILL.md': skill,
            'scripts/x.sh': script,
            'data.json': data,
            'a.bin': new Uint8Array([0x7f, 0x45]),
          },
          parseSkill,
        );
        const report = reviewSkill(input);
        expect(['clear', 'review', 'danger']).toContain(report.verdict);
        for (const f of report.findings) {
          expect(f.line).toBeGreaterThanOrEqual(0);
          expect(typeof f.title).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('does the same work for the same input (deterministic)', () => {
    fc.assert(
      fc.property(text, (skill) => {
        const a = reviewSkill(inputOf({ 'SKILL.md': skill }, parseSkill));
        const b = reviewSkill(inputOf({ 'SKILL.md': skill }, parseSkill));
        expect(a).toEqual(b);
      }),
      { numRuns: 100 },
    );
  });

  // Linear, measured without a clock: the steps V8's regex engine takes are not observable, so
  // the review is instead run on inputs built to make a backtracking pattern quadratic (long runs
  // of one pattern's opening, each failing late) and must finish at all; the time per size is
  // measured in bench/safety, never asserted here (docs/conventions.md §10).
  it.each([
    ['openers of links', '['.repeat(200_000)],
    ['almost-base64 runs', `${'A1b'.repeat(133)} `.repeat(500)],
    ['fences without a close', '```\n'.repeat(50_000)],
    ['comment openers', '<!--'.repeat(50_000)],
    ['rm flags', 'rm -r -f -r -f '.repeat(20_000)],
    ['zero-width runs', '\u200b'.repeat(200_000)],
    ['tag characters', '\u{e0041}'.repeat(100_000)],
    ['phrase starts', 'ignore all the '.repeat(50_000)],
    ['URLs', 'https://'.repeat(50_000)],
  ])('finishes on a 200 kB line of %s', (_what, line) => {
    const report = reviewSkill(
      inputOf(
        { 'SKILL.md': `---\nname: a\ndescription: b\n---\n${line}\n`, 'scripts/x.sh': line },
        parseSkill,
      ),
    );
    expect(['clear', 'review', 'danger']).toContain(report.verdict);
  });
});

describe('punycode host names in a skill', () => {
  it('decodes real labels and refuses malformed ones without throwing', () => {
    // RFC 3492's own samples and common ones.
    expect(decodePunycode('bcher-kva')).toBe('bücher');
    expect(decodePunycode('mnchen-3ya')).toBe('münchen');
    expect(decodePunycode('wgv71a119e')).toBe('日本語');
    expect(decodePunycode('80ak6aa92e')).toBe('аррӏе');
    // Found by the property test above: characters outside the digit and letter ranges made
    // negative digits, and then an invalid code point that threw.
    for (const bad of ['![', '[', '`', '@', '-!', 'a-[', 'z-{', 'é-a', 'a'.repeat(60), ''])
      expect(() => decodePunycode(bad)).not.toThrow();
    expect(decodePunycode('![')).toBeUndefined();
    expect(decodePunycode('a-[')).toBeUndefined();
    expect(decodePunycode('é-a')).toBeUndefined();
    expect(decodePunycode('a'.repeat(60))).toBeUndefined();
    const report = reviewSkill(
      inputOf({ 'SKILL.md': 'See https://xn--![ and https://xn--[.com' }, parseSkill),
    );
    expect(['clear', 'review', 'danger']).toContain(report.verdict);
  });

  it('never throws on any label, and anything it decodes is at most a DNS label long', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80, unit: 'binary' }),
          // Digits, letters, the dash and their neighbours in ASCII, where malformed labels live.
          fc.array(fc.constantFrom(...'09azAZ-!/:@[`{é'), { maxLength: 70 }).map((a) => a.join('')),
        ),
        (label) => {
          const decoded = decodePunycode(label);
          if (decoded !== undefined) expect([...decoded].length).toBeLessThanOrEqual(63);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
