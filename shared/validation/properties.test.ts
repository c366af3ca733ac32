import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../skill/index';
import { PROFILE_IDS, validateSkill } from './index';
import type { Diagnostic, FileView, TextEdit } from './index';

const corpus = JSON.parse(
  readFileSync(new URL('./fixtures/frontmatter-cases.json', import.meta.url), 'utf8'),
) as { cases: { content: string; folder: string }[] };

const SEEDS = [
  ...corpus.cases.map((c) => c.content),
  '---\nname: My_Skill\ndescription: Use when: x -> y <b> C# #tag\nversion: 1.0\nmetadata:\n  a: [1]\n  b: yes\nallowed-tools: [Read, Grep]\nargument-hint: [file]\n---\nRun $ARGUMENTS and !`ls`\n',
  '---\nname: claude-helper\ndescription: yes\nlicense: MIT\ncompatibility: linux\n---\nA---B\n',
  '---\nspec_version: 2.1\nname: u\ndescription: d\nversion: 1.0.0\ntools:\n  - name: T\n    description: t\n    input_schema: {type: object}\n    implementation: {runtime: node, entrypoint: x.ts}\npermissions:\n  filesystem:\n    read: ["**/*"]\n---\n',
  '---\nname: x\ndescription: d\nx-personal-mcp:\n  id: y\n  version: 1.0\n  capabilities: []\n  tags: [Bad_Tag]\n  references:\n    Api: {path: ../x.txt, mime_type: text/plain}\n---\n',
  `---\nname: my-skill\ndescription: ${'A sentence here. '.repeat(70)}\n---\n# Body\n`,
  '\n\n---\r\nname: my-skill  \r\n\tdescription: a\n...\n',
];

const FRAGMENTS = [
  '---',
  '...',
  '\n',
  '\r\n',
  '\r',
  '\uFEFF',
  ': ',
  ' #',
  '\t',
  '- ',
  '[a, b]',
  '{a: b}',
  '&x ',
  '*x',
  '"',
  "'",
  '|',
  '>',
  'yes',
  '1.0',
  '~',
  '<tag>',
  '->',
  'Claude',
  'A',
  '_',
  '--',
  'name: ',
  'description: ',
  'metadata:\n  k: ',
  'foo: bar\n',
  '$ARGUMENTS',
  '!`ls`',
  '😀',
  '2024-01-01',
  'allowed-tools:\n  - Read\n',
];

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('insert', 'delete'),
  piece: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })),
  len: fc.integer({ min: 1, max: 6 }),
});

const skillText = fc
  .tuple(fc.constantFrom(...SEEDS), fc.array(mutation, { maxLength: 6 }))
  .map(([seed, muts]) => {
    let t = seed;
    for (const m of muts) {
      const at = t.length === 0 ? 0 : m.at % (t.length + 1);
      t =
        m.kind === 'insert'
          ? t.slice(0, at) + m.piece + t.slice(at)
          : t.slice(0, at) + t.slice(at + m.len);
    }
    return t;
  });

const fileViewArb = fc.constantFrom<FileView | undefined>(
  undefined,
  { folderName: 'my-skill', fileName: 'SKILL.md', entries: [] },
  {
    folderName: 'MySkill',
    fileName: 'skill.md',
    entries: [{ path: 'l', kind: 'symlink', size: 0, escapes: true }],
  },
  { folderName: 'x', relativePath: 'lib/x', entries: [], texts: { 'tools.json': '[]' } },
);

function mapOffset(o: number, edits: readonly TextEdit[], side: 'start' | 'end'): number {
  let delta = 0;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    if (e.end <= o && !(e.start === e.end && e.start === o && side === 'start'))
      delta += e.newText.length - (e.end - e.start);
    else if (e.start < o) return e.start + delta + (side === 'end' ? e.newText.length : 0);
  }
  return o + delta;
}

function samePlace(d: Diagnostic, start: number, end: number): boolean {
  if (!d.range) return false;
  const s = d.range.start.offset;
  const e = d.range.end.offset;
  return (s < end && start < e) || (s === start && e === end);
}

describe('validation properties', () => {
  it('never throws; every range lies inside the document with start ≤ end', () => {
    fc.assert(
      fc.property(
        fc.oneof(skillText, fc.string({ unit: 'binary', maxLength: 200 })),
        fileViewArb,
        (text, fileView) => {
          const r = validateSkill(text, { profiles: [...PROFILE_IDS], fileView });
          for (const d of r.diagnostics) {
            expect(d.ruleId).not.toBe('engine/rule-failed');
            expect(d.message.length).toBeGreaterThan(0);
            if (!d.range) continue;
            expect(d.range.start.offset).toBeGreaterThanOrEqual(0);
            expect(d.range.start.offset).toBeLessThanOrEqual(d.range.end.offset);
            expect(d.range.end.offset).toBeLessThanOrEqual(text.length);
            expect(d.range.start.line).toBeGreaterThanOrEqual(1);
            expect(d.range.start.column).toBeGreaterThanOrEqual(1);
          }
          for (const p of PROFILE_IDS) {
            const mine = r.diagnostics.filter((d) => d.profile === p);
            const expected = mine.some((d) => d.severity === 'error')
              ? 'error'
              : mine.some((d) => d.severity === 'warning')
                ? 'warning'
                : 'valid';
            expect(r.verdicts[p]).toBe(expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('applying a quick fix removes the diagnostic it fixes (same rule at that place)', () => {
    fc.assert(
      fc.property(skillText, fileViewArb, (text, fileView) => {
        const r = validateSkill(text, { profiles: [...PROFILE_IDS], fileView });
        for (const d of r.diagnostics) {
          for (const fix of d.fixes ?? []) {
            const after = applyEdits(text, fix.edits);
            const rename = fix.fileOperations?.find((o) => o.kind === 'rename-folder');
            const fv =
              rename && fileView
                ? { ...fileView, folderName: rename.newName, relativePath: undefined }
                : fileView;
            const r2 = validateSkill(after, { profiles: [d.profile], fileView: fv });
            const same = r2.diagnostics.filter((x) => x.ruleId === d.ruleId);
            if (!d.range) {
              expect(
                same.filter((x) => !x.range),
                `${d.ruleId}: ${fix.title}`,
              ).toEqual([]);
              continue;
            }
            const start = mapOffset(d.range.start.offset, fix.edits, 'start');
            const end = mapOffset(d.range.end.offset, fix.edits, 'end');
            // A fault is its rule, its place and (when known) its field: another key sliding into the place is a different fault.
            const left = same.filter(
              (x) =>
                samePlace(x, start, end) &&
                (d.field === undefined || x.field === undefined || x.field === d.field),
            );
            expect(
              left.map((x) => `${x.ruleId} ${x.message}`),
              `${d.profile} ${d.ruleId} "${fix.title}" on ${JSON.stringify(text)} → ${JSON.stringify(after)}`,
            ).toEqual([]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
