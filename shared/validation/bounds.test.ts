import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../text/bytes';
import { applyEdits } from '../skill/index';
import { fixAllSafe, PROFILE_IDS, VALIDATION_LIMITS, validateSkill } from './index';
import type { Diagnostic, TextEdit, ValidateOptions, ValidationResult } from './index';

// The attacks measured against the validation core: each must end in bounded work with the same
// findings every time, whatever the stack left to the caller. Nothing here measures time: a
// regression shows as a failed assertion, or as a hang that the test timeout turns into a failure.

const ALL = { profiles: [...PROFILE_IDS] };

/** Findings as comparable text (rule, profile, place, message, detail). */
function summary(r: ValidationResult): string[] {
  return r.diagnostics.map(
    (d) =>
      `${d.profile} ${d.ruleId} ${d.range?.start.offset ?? '-'}-${d.range?.end.offset ?? '-'} ${d.message} | ${d.detail ?? ''}`,
  );
}

function tooComplex(r: ValidationResult): Diagnostic[] {
  return r.diagnostics.filter((d) => d.ruleId === 'file/too-complex');
}

/** Run `fn` below `frames` frames of recursion, to leave it less stack. */
function withStackUsed<T>(frames: number, fn: () => T): T {
  const down = (n: number): T => (n === 0 ? fn() : down(n - 1));
  return down(frames);
}

/** How deep a plain recursion goes on this thread before the stack runs out. */
function stackFrames(): number {
  let max = 0;
  const probe = (n: number): void => {
    max = n;
    probe(n + 1);
  };
  try {
    probe(0);
  } catch {
    // The stack ran out: `max` is how far it went.
  }
  return max;
}

const fm = (yaml: string, body = '# Body\n') => `---\n${yaml}---\n${body}`;

const nestedFlowKey = (depth: number) => {
  let key = 'a';
  for (let i = 0; i < depth; i++) key = `[${key}]`;
  return fm(`name: x\ndescription: y\n${key}: v\n`);
};
const bracketLines = (n: number) => fm('[\n'.repeat(n));
const stairs = (n: number) =>
  fm(`${Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')}\n`);
const manyKeys = (n: number) =>
  fm(`name: x\ndescription: y\n${Array.from({ length: n }, (_, i) => `k${i}: v${i}\n`).join('')}`);

describe('a SKILL.md past a bound gets one plain finding per profile, the same every time', () => {
  it('15,000 keys: too complex in every profile, nothing read from the YAML', () => {
    const text = manyKeys(15_000);
    const r = validateSkill(text, ALL);
    const hits = tooComplex(r);
    expect(hits.map((d) => d.profile)).toEqual([...PROFILE_IDS]);
    for (const d of hits) {
      expect(d.severity).toBe('error');
      expect(d.message).toMatch(
        /^This file is too large or complex to check fully: its frontmatter has about [\d,]+ keys, values and list items \(the limit is 20,000\)\./,
      );
      expect(d.detail).toMatch(/^VALIDATION_LIMITS\.nodes = 20000; found \d+$/);
    }
    // No "name missing" or other field findings for a YAML that was not read.
    expect(r.diagnostics.filter((d) => d.ruleId.startsWith('name/'))).toEqual([]);
    expect(summary(validateSkill(text, ALL))).toEqual(summary(r));
  });

  it('5,000 keys are checked fully, the findings bounded per profile', () => {
    const r = validateSkill(manyKeys(5_000), { profiles: ['agentskills'] });
    const cap = tooComplex(r);
    expect(r.diagnostics).toHaveLength(VALIDATION_LIMITS.findings + 1);
    expect(r.diagnostics.filter((d) => d.ruleId === 'keys/unexpected').length).toBeGreaterThan(990);
    expect(cap).toHaveLength(1);
    expect(cap[0]?.message).toBe(
      'This file is too large or complex to check fully: more than 1,000 problems were found for this target, and only 1,000 are listed.',
    );
    expect(r.verdicts.agentskills).toBe('error');
  });

  it('a nested flow collection used as a key, 2,400 deep (5 KB): too complex, as on a worker', () => {
    const text = nestedFlowKey(2_400);
    const r = validateSkill(text, ALL);
    expect(tooComplex(r).map((d) => d.message)).toEqual(
      PROFILE_IDS.map(
        () =>
          'This file is too large or complex to check fully: its frontmatter is nested about 2,402 levels deep (the limit is 100). Its fields were not read, so only the rest of the file was checked.',
      ),
    );
    expect(summary(validateSkill(text, ALL))).toEqual(summary(r));
  });

  it('a nested flow collection used as a key, 90 deep, is read and reported as not JSON', () => {
    const r = validateSkill(nestedFlowKey(90), { profiles: ['mcp-serve'] });
    expect(tooComplex(r)).toEqual([]);
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('yaml/not-json');
  });

  it('20,000 lines of YAML garbage: no throw, too complex, the same findings 50 times over', () => {
    const text = bracketLines(20_000);
    const first = summary(validateSkill(text, ALL));
    expect(first.filter((s) => s.includes('file/too-complex'))).toHaveLength(PROFILE_IDS.length);
    for (let i = 0; i < 50; i++) expect(summary(validateSkill(text, ALL))).toEqual(first);
  });

  it('more than 125,000 findings do not make validateSkill throw', () => {
    const body = '!`x`\n'.repeat(130_000);
    const r = validateSkill(fm('name: x\ndescription: y\n', body), {
      profiles: ['claude-code'],
      limits: { findings: 1_000_000 },
    });
    expect(r.diagnostics.filter((d) => d.ruleId === 'body/shell-command')).toHaveLength(130_000);
    const bounded = validateSkill(fm('name: x\ndescription: y\n', body), {
      profiles: ['claude-code'],
    });
    expect(bounded.diagnostics).toHaveLength(VALIDATION_LIMITS.findings + 1);
    expect(bounded.verdicts['claude-code']).toBe('error');
  });

  it('a 50 MB body with a link per line: the body rules stop at the bound, and say so', () => {
    const line = 'See [the guide](references/missing-guide.md) for details.\n';
    const lines = Math.ceil((50 * 1024 * 1024) / line.length);
    const body = `!\`early\`\n${line.repeat(lines)}!\`late\`\n`;
    const text = fm('name: x\ndescription: y\n', body);
    const r = validateSkill(text, { profiles: ['claude-code', 'agentskills'] });
    const hits = tooComplex(r);
    expect(hits.map((d) => d.profile)).toEqual(['claude-code', 'agentskills']);
    expect(hits[0]?.message).toBe(
      `This file is too large or complex to check fully: its instructions (the body) are ${formatBytes(body.length)} (the limit is 1 MB), so only the first 1 MB were checked for placeholders and shell commands.`,
    );
    const shell = r.diagnostics.filter((d) => d.ruleId === 'body/shell-command');
    expect(shell.map((d) => d.message)).toEqual([expect.stringContaining('`early`')]);
    expect(r.diagnostics.filter((d) => d.ruleId === 'body/too-long')).toHaveLength(2);
  });

  it('deep nesting of block mappings and of lists stays cheap and stable', () => {
    for (const text of [
      stairs(2_000),
      fm(`${'- '.repeat(10_000)}x\n`),
      fm(`${'? '.repeat(10_000)}x\n`),
    ]) {
      const r = validateSkill(text, ALL);
      expect(tooComplex(r)).toHaveLength(PROFILE_IDS.length);
      expect(summary(validateSkill(text, ALL))).toEqual(summary(r));
    }
  });

  it('an alias bomb is refused by yaml’s alias bound or ours, never expanded', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const r = validateSkill(fm(`${levels.join('\n')}\n`), { profiles: ['agentskills'] });
    expect(r.diagnostics.map((d) => d.detail ?? '').join('\n')).toMatch(
      /Excessive alias count|VALIDATION_LIMITS\.aliases/,
    );
    // Said as what it is, not as YAML that is not valid.
    const bomb = r.diagnostics.find((x) => /Excessive alias count/.test(x.detail ?? ''));
    expect(bomb?.message).toMatch(/^The frontmatter is not read: its aliases \(\*name\)/);
    const many = fm(`a: &a x\nb: [${'*a, '.repeat(500)}]\n`);
    expect(tooComplex(validateSkill(many, { profiles: ['agentskills'] }))[0]?.detail).toBe(
      'VALIDATION_LIMITS.aliases = 100; found 501',
    );
  });

  it('values that made the old patterns backtrack quadratically are checked in one pass', () => {
    // YAML 1.1's underscore numbers, and an unquoted colon before a long run of spaces.
    const underscores = validateSkill(fm(`name: x\ndescription: 1${'_'.repeat(200_000)}x\n`), {
      profiles: ['agentskills'],
    });
    expect(underscores.diagnostics.map((d) => d.ruleId)).toContain('description/too-long');
    const spaces = validateSkill(fm(`name: x\ndescription: a: b${' '.repeat(200_000)}c\n`), {
      profiles: ['agentskills'],
    });
    expect(spaces.diagnostics.map((d) => d.ruleId)).toContain('yaml/unquoted-colon');
  });
});

describe('the answer never depends on the stack left to the caller (a worker has four times more)', () => {
  const frames = stackFrames();
  const inputs: [string, string][] = [
    ['a nested flow key', nestedFlowKey(2_400)],
    ['bracket lines', bracketLines(5_000)],
    ['stairs', stairs(3_000)],
    ['a key at the depth bound', nestedFlowKey(VALIDATION_LIMITS.depth - 3)],
  ];
  for (const [name, text] of inputs) {
    it(`${name}: the same findings with the whole stack and with a third of it`, () => {
      const fresh = summary(validateSkill(text, ALL));
      for (const used of [0.3, 0.5, 0.67])
        expect(
          summary(withStackUsed(Math.floor(frames * used), () => validateSkill(text, ALL))),
        ).toEqual(fresh);
    });
  }
});

// Adversarial input for the properties: each kind aims at one way the work used to grow.
const adversarial = fc.oneof(
  fc.integer({ min: 1, max: 3_000 }).map((n) => ({ kind: 'deep block', text: stairs(n) })),
  fc
    .tuple(
      fc.integer({ min: 1, max: 3_000 }),
      fc.constantFrom(['k: ', '['], ['k: ', '{'], ['', '- '], ['', '? ']),
    )
    .map(([n, [prefix, unit]]) => ({
      kind: 'deep nesting on one line',
      text: fm(`${prefix}${unit.repeat(n)}x\n`),
    })),
  fc.integer({ min: 1, max: 30_000 }).map((n) => ({ kind: 'many keys', text: manyKeys(n) })),
  fc
    .array(
      fc.string({ unit: fc.constantFrom(...'-?:[]{}&*!|>\'"#,% \tab\r'.split('')), maxLength: 30 }),
      {
        maxLength: 3_000,
      },
    )
    .map((lines) => ({ kind: 'garbage lines', text: fm(`${lines.join('\n')}\n`) })),
  fc
    .tuple(fc.integer({ min: 1, max: 300_000 }), fc.constantFrom(' ', 'a', ': ', '[', '_', '#'))
    .map(([n, c]) => ({
      kind: 'long line',
      text: fm(`name: x\ndescription: a ${c.repeat(n)}z\n`),
    })),
  fc.integer({ min: 1, max: 40_000 }).map((n) => ({
    kind: 'many links',
    text: fm('name: x\ndescription: y\n', '[a](b/c.md) $1 !`x`\n'.repeat(n)),
  })),
  fc.string({ unit: 'binary', maxLength: 2_000 }).map((s) => ({ kind: 'random', text: s })),
);

describe('properties: never throws, the same findings twice, on random and adversarial input', () => {
  it('validateSkill', () => {
    fc.assert(
      fc.property(
        adversarial,
        fc.subarray([...PROFILE_IDS], { minLength: 1 }),
        (input, profiles) => {
          const options: ValidateOptions = { profiles };
          const a = validateSkill(input.text, options);
          const b = validateSkill(input.text, options);
          expect(summary(b)).toEqual(summary(a));
          expect(b.verdicts).toEqual(a.verdicts);
          for (const p of profiles)
            expect(a.diagnostics.filter((d) => d.profile === p).length).toBeLessThanOrEqual(
              VALIDATION_LIMITS.findings + 1,
            );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('fixAllSafe chooses the same fixes as before, without comparing every pair', () => {
  /** The pairwise choice it replaces (one round): equal fixes once, overlapping ones skipped. */
  function pairwise(text: string, options: ValidateOptions): string {
    const overlaps = (a: TextEdit, b: TextEdit) =>
      (a.start < b.end && b.start < a.end) ||
      (a.start === b.start && (a.start === a.end || b.start === b.end));
    const same = (a: readonly TextEdit[], b: readonly TextEdit[]) =>
      a.length === b.length &&
      a.every(
        (e, i) => e.start === b[i]?.start && e.end === b[i]?.end && e.newText === b[i]?.newText,
      );
    let current = text;
    for (let round = 0; round < 10; round++) {
      const chosen: TextEdit[][] = [];
      for (const d of validateSkill(current, options).diagnostics) {
        const fix = d.fixes?.find((f) => f.safe && !f.fileOperations?.length && f.edits.length > 0);
        if (!fix || chosen.some((c) => same(c, fix.edits))) continue;
        if (chosen.some((c) => c.some((a) => fix.edits.some((b) => overlaps(a, b))))) continue;
        chosen.push(fix.edits);
      }
      if (chosen.length === 0) break;
      current = applyEdits(current, chosen.flat());
    }
    return current;
  }

  const piece = fc.constantFrom(
    'name: yes\n',
    'description: Use when: x\n',
    'allowed-tools:\n  - Read\n  - Grep\n',
    'argument-hint: [file]\n',
    'license: 1.0\n',
    'x: no\n',
    'metadata:\n  a: on\n',
  );
  const text = fc
    .tuple(
      fc.boolean(),
      fc.boolean(),
      fc.array(piece, { maxLength: 6 }),
      fc.constantFrom('---', '...'),
    )
    .map(([bom, crlf, pieces, close]) => {
      const t = `${bom ? '\uFEFF' : ''}---\n${pieces.join('')}${close}\nBody\n`;
      return crlf ? t.replace(/\n/g, '\r\n') : t;
    });

  it('gives the same text as the pairwise choice', () => {
    fc.assert(
      fc.property(text, fc.subarray([...PROFILE_IDS], { minLength: 1 }), (t, profiles) => {
        expect(fixAllSafe(t, { profiles }).text).toBe(pairwise(t, { profiles }));
      }),
      { numRuns: 150 },
    );
  });
});
