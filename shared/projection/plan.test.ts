import { describe, expect, it } from 'vitest';
import { validateSkill } from '../validation';
import {
  checkEntryName,
  DEFAULT_IMPORT_LIMITS,
  findCollision,
  findSkillRoots,
} from './archive-paths';
import { lineDiff } from './diff';
import { planExport, type PlanInput } from './plan';
import { getTarget, TARGETS } from './targets';
import type { SourceEntry } from './types';

const TEXT = '---\nname: demo\ndescription: Does demo things. Use it for demos.\n---\n# Demo\n';

/** A plan input with sensible defaults. */
function input(entries: SourceEntry[], extra: Partial<PlanInput> = {}): PlanInput {
  return {
    target: 'claude-ai',
    skillText: TEXT,
    skillFileName: 'SKILL.md',
    folderName: 'demo',
    entries: [{ path: 'SKILL.md', kind: 'file', size: TEXT.length }, ...entries],
    ...extra,
  };
}

describe('targets', () => {
  it('defines the seven ids with the spec limits', () => {
    expect(TARGETS.map((t) => t.id)).toEqual([
      'claude-ai',
      'skill',
      'claude-api',
      'archive-tgz',
      'archive-zip',
      'claude-code',
      'folder',
    ]);
    expect(getTarget('claude-ai').limits).toEqual({ maxFiles: 200, maxBytes: 30_000_000 });
    expect(getTarget('archive-tgz').limits).toEqual({ maxFiles: 512, maxBytes: 16 * 1024 * 1024 });
    expect(TARGETS.filter((t) => t.overrideAllowed).map((t) => t.id)).toEqual([
      'claude-code',
      'folder',
    ]);
  });
});

describe('planExport', () => {
  it('wraps upload packages in one folder named after the skill, even when the source folder differs', () => {
    const plan = planExport(
      input([{ path: 'a.md', kind: 'file', size: 3 }], { folderName: 'Demo Skill (copy)' }),
    );
    expect(plan.wrapper).toBe('demo');
    expect(plan.entries.filter((e) => e.included).map((e) => e.output)).toEqual([
      'demo/',
      'demo/SKILL.md',
      'demo/a.md',
    ]);
  });

  it('renames skill.md to SKILL.md and counts the projected size', () => {
    const plan = planExport({
      ...input([]),
      skillFileName: 'skill.md',
      entries: [{ path: 'skill.md', kind: 'file', size: 1 }],
    });
    const skill = plan.entries.find((e) => e.source === 'skill.md');
    expect(skill?.output).toBe('demo/SKILL.md');
    expect(skill?.reason).toMatch(/exactly SKILL.md/);
    expect(plan.totals).toEqual({ files: 1, bytes: TEXT.length });
  });

  it('normalises names to NFC and flags names that collide on macOS/Windows', () => {
    const plan = planExport(
      input([
        { path: 'cafe\u0301.md', kind: 'file', size: 1 },
        { path: 'Notes.md', kind: 'file', size: 1 },
        { path: 'notes.md', kind: 'file', size: 1 },
      ]),
    );
    expect(plan.entries.map((e) => e.output)).toContain('demo/caf\u00e9.md');
    const collision = plan.issues.find((i) => i.ruleId === 'package/name-collision');
    expect(collision?.severity).toBe('error');
    expect(plan.blocked).toBe(true);
  });

  it('flags names that are not safe on every system for uploads', () => {
    const plan = planExport(input([{ path: 'what?.md', kind: 'file', size: 1 }]));
    expect(plan.issues.find((i) => i.ruleId === 'package/unportable-name')?.severity).toBe('error');
    const folder = planExport(
      input([{ path: 'what?.md', kind: 'file', size: 1 }], { target: 'folder' }),
    );
    expect(folder.issues.find((i) => i.ruleId === 'package/unportable-name')?.severity).toBe(
      'warning',
    );
  });

  it('blocks SKILL.md holding a token unless the user keeps it', () => {
    const secret =
      '---\nname: demo\ndescription: d\n---\nkey: sk-ant-api03-abcdefghijklmnopqrstuvwxyz\n';
    expect(planExport(input([], { skillText: secret })).blocked).toBe(true);
    expect(planExport(input([], { skillText: secret, keep: ['SKILL.md'] })).blocked).toBe(false);
  });

  it('leaves out special files and never lets an escaping link be kept', () => {
    const plan = planExport(
      input(
        [
          { path: 'fifo', kind: 'other', size: 0 },
          {
            path: 'up',
            kind: 'symlink',
            size: 0,
            linkTarget: '../x',
            linkEscapes: true,
            linkTargetKind: 'file',
          },
        ],
        { keep: ['up', 'fifo'] },
      ),
    );
    expect(plan.entries.find((e) => e.source === 'fifo')).toMatchObject({
      included: false,
      rule: 'special-file',
    });
    expect(plan.entries.find((e) => e.source === 'up')).toMatchObject({
      included: false,
      keepable: false,
    });
  });

  it('runs the validation core on the projected SKILL.md with the target profiles', () => {
    const bad = '---\nname: claude-helper\ndescription: Helps <b>a lot</b>.\nmodel: opus\n---\n';
    const plan = planExport(
      input([], { skillText: bad, folderName: 'claude-helper', validate: validateSkill }),
    );
    const ids = plan.issues.filter((i) => i.profile === 'claude-upload').map((i) => i.ruleId);
    expect(ids.some((id) => id.startsWith('name/'))).toBe(true);
    expect(ids.some((id) => id.startsWith('description/'))).toBe(true);
    // `model` was moved into metadata, so no unexpected-key error survives the projection.
    expect(plan.issues.some((i) => /model/.test(i.message) && i.severity === 'error')).toBe(false);
    expect(plan.blocked).toBe(true);
    expect(plan.canOverride).toBe(false);
  });

  it('lets folder copies be overridden, never archives', () => {
    const broken = '---\nname: demo\n---\n';
    expect(
      planExport(input([], { skillText: broken, target: 'folder', validate: validateSkill }))
        .canOverride,
    ).toBe(true);
    expect(
      planExport(input([], { skillText: broken, target: 'archive-zip', validate: validateSkill }))
        .canOverride,
    ).toBe(false);
  });
});

describe('lineDiff', () => {
  it('shows removed and added lines with line numbers', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nx\nc\nd\n')).toEqual([
      { kind: 'same', text: 'a', oldLine: 1, newLine: 1 },
      { kind: 'removed', text: 'b', oldLine: 2 },
      { kind: 'added', text: 'x', newLine: 2 },
      { kind: 'same', text: 'c', oldLine: 3, newLine: 3 },
      { kind: 'added', text: 'd', newLine: 4 },
    ]);
  });
  it('ignores CRLF and the BOM', () => {
    expect(lineDiff('\uFEFFa\r\nb\r\n', 'a\nb\n').every((l) => l.kind === 'same')).toBe(true);
  });
  it('reproduces both texts', () => {
    const a = 'one\ntwo\nthree\nfour\nfive\n';
    const b = 'zero\none\nthree\nfour!\nfive\nsix\n';
    const d = lineDiff(a, b);
    expect(
      d
        .filter((l) => l.kind !== 'added')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(a.trimEnd());
    expect(
      d
        .filter((l) => l.kind !== 'removed')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(b.trimEnd());
    expect(lineDiff('', 'a\n')).toEqual([{ kind: 'added', text: 'a', newLine: 1 }]);
    expect(lineDiff('a\n', '')).toEqual([{ kind: 'removed', text: 'a', oldLine: 1 }]);
  });
});

describe('archive entry names', () => {
  const limits = DEFAULT_IMPORT_LIMITS;
  it('accepts ordinary names and strips ./', () => {
    expect(checkEntryName('./skill/SKILL.md', limits)).toEqual({
      ok: true,
      path: 'skill/SKILL.md',
      directory: false,
    });
    expect(checkEntryName('skill/refs/', limits)).toEqual({
      ok: true,
      path: 'skill/refs',
      directory: true,
    });
  });
  it.each([
    ['../x', 'path-traversal'],
    ['a/../../x', 'path-traversal'],
    ['..\\x', 'path-traversal'],
    ['/etc/passwd', 'absolute-path'],
    ['C:\\x', 'absolute-path'],
    ['c:x', 'absolute-path'],
    ['\\\\server\\share\\x', 'absolute-path'],
    ['//server/share/x', 'absolute-path'],
    ['a/NUL', 'unsafe-name'],
    ['a/b:stream', 'unsafe-name'],
  ])('refuses %s as %s', (name, code) => {
    const r = checkEntryName(name, limits);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.refusal.code).toBe(code);
  });
  it('finds collisions after NFC and case folding', () => {
    expect(
      findCollision([
        { path: 'a/\u00e9.md', directory: false, raw: '1' },
        { path: 'a/\u00c9.md', directory: false, raw: '2' },
      ])?.code,
    ).toBe('collision');
    expect(
      findCollision([
        { path: 'a', directory: true, raw: 'a/' },
        { path: 'A', directory: true, raw: 'A/' },
      ]),
    ).toBeUndefined();
  });
  it('finds top-level skill roots only', () => {
    expect(findSkillRoots(['a/SKILL.md', 'a/b/SKILL.md', 'c/d/skill.md', 'x.md'])).toEqual([
      { root: 'a', skillFile: 'a/SKILL.md' },
      { root: 'c/d', skillFile: 'c/d/skill.md' },
    ]);
    expect(findSkillRoots(['SKILL.md', 'a/SKILL.md'])).toEqual([
      { root: '', skillFile: 'SKILL.md' },
    ]);
  });
});
