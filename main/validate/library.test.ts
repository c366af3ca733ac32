import { mkdir, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backdate, LAST_MONTH, LAST_YEAR } from '../testing/file-times';
import { gatherCatalog } from '../agent-view/service';
import { buildSnapshot } from '../mcp-server/catalog';
import { findSkillFolders } from '../skill-folder';
import { applySafeFixes, LibraryMemo, validateLibrary, ValidateInputError } from './service';

let tmp: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

const skill = (
  name: string,
  description = `Does ${name} things. Use when the user asks for ${name}.`,
  extra = '',
): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n`;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-lib-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('validateLibrary', () => {
  it('with a memo, checks again only the root folders in which something changed', async () => {
    await put('lib/a/SKILL.md', skill('a'));
    await put('lib/group/b/SKILL.md', skill('b'));
    await put('lib/group/c/SKILL.md', skill('a'));
    await backdate(join(tmp, 'lib'), LAST_YEAR);
    const memo = new LibraryMemo();
    const first = await validateLibrary(join(tmp, 'lib'), { memo, pool: null });
    expect(memo.rechecked).toBe(2);
    expect(
      first.skills.map(
        (s) => s.diagnostics.filter((d) => d.ruleId === 'library/duplicate-name').length,
      ),
    ).toEqual([1, 0, 1]);
    const again = await validateLibrary(join(tmp, 'lib'), { memo, pool: null });
    expect(memo.rechecked).toBe(0);
    expect(again).toEqual(first);
    // A name fixed in one folder: only that folder is read again, and the duplicate finding goes from both skills.
    await put('lib/group/c/SKILL.md', skill('c'));
    const fixed = await validateLibrary(join(tmp, 'lib'), { memo, pool: null });
    expect(memo.rechecked).toBe(1);
    // Just written, so checked again until it is older than the file system's clock tick.
    await validateLibrary(join(tmp, 'lib'), { memo, pool: null });
    expect(memo.rechecked).toBe(1);
    await backdate(join(tmp, 'lib/group/c/SKILL.md'), LAST_MONTH);
    await validateLibrary(join(tmp, 'lib'), { memo, pool: null });
    expect(memo.rechecked).toBe(1);
    await validateLibrary(join(tmp, 'lib'), { memo, pool: null });
    expect(memo.rechecked).toBe(0);
    expect(fixed.counts.error).toBe(0);
    expect(fixed).toEqual(await validateLibrary(join(tmp, 'lib'), { pool: null }));
  });

  it('finds the same skills as findSkillFolders, skipping node_modules and .git', async () => {
    await put('lib/a/SKILL.md', skill('a'));
    await put('lib/group/b/SKILL.md', skill('b'));
    await put('lib/group/b/nested/SKILL.md', skill('nested'));
    await put('lib/c/skill.md', skill('c'));
    await put('lib/node_modules/x/SKILL.md', skill('x'));
    await put('lib/.git/y/SKILL.md', skill('y'));
    const r = await validateLibrary(join(tmp, 'lib'));
    const scanned = await findSkillFolders(join(tmp, 'lib'));
    expect(r.skills.map((s) => s.file)).toEqual(scanned.map((s) => s.file));
    expect(r.skills.map((s) => s.relativePath)).toEqual(['a', 'c', 'group/b', 'group/b/nested']);
  });

  it('a skill without a name goes by its folder name, as the catalog lists it: the same collision in both', async () => {
    await put('lib/x/SKILL.md', '---\ndescription: No name here. Use it never.\n---\n# X\n');
    await put('lib/y/SKILL.md', skill('x'));
    await put('lib/z/SKILL.md', skill('z'));
    const r = await validateLibrary(join(tmp, 'lib'));
    const dup = r.skills.map((s) =>
      s.diagnostics.filter((d) => d.ruleId === 'library/duplicate-name'),
    );
    expect(dup.map((d) => d.length)).toEqual([1, 1, 0]);
    expect(dup[0]?.[0]?.message).toBe(
      'This skill has no name, so agents list it under its folder\'s name "x", which y/SKILL.md also goes by. One of them will be hidden. Give each skill its own name.',
    );
    expect(dup[1]?.[0]?.message).toContain(
      'Another skill in this library is also listed as "x": x/SKILL.md.',
    );
    const { catalog } = await gatherCatalog({ roots: [join(tmp, 'lib')] });
    expect(catalog.collisions.map((c) => [c.name, 1 + c.hidden.length])).toEqual([['x', 2]]);
  });

  it('says where both skills are when two share a name, at each name', async () => {
    await put('lib/one/pdf-tools/SKILL.md', skill('pdf-tools'));
    await put('lib/two/pdf-tools/SKILL.md', skill('pdf-tools'));
    await put('lib/other/SKILL.md', skill('other'));
    const r = await validateLibrary(join(tmp, 'lib'));
    const dup = r.skills.map((s) =>
      s.diagnostics.filter((d) => d.ruleId === 'library/duplicate-name'),
    );
    expect(r.skills.map((s) => s.relativePath)).toEqual([
      'one/pdf-tools',
      'other',
      'two/pdf-tools',
    ]);
    expect(dup.map((d) => d.length)).toEqual([1, 0, 1]);
    expect(dup[0]?.[0]?.message).toContain('two/pdf-tools/SKILL.md');
    expect(dup[2]?.[0]?.message).toContain('one/pdf-tools/SKILL.md');
    expect(dup[0]?.[0]).toMatchObject({
      severity: 'error',
      field: '/name',
      range: { start: { line: 2, column: 7 } },
    });
    expect(r.skills[1]?.verdicts).toEqual({ agentskills: 'valid' });
    expect(r.counts.error).toBe(2);
  });

  it('for mcp-serve, two skills with one name are a warning: the server serves both, each by its path', async () => {
    await put('lib/one/pdf-tools/SKILL.md', skill('pdf-tools'));
    await put('lib/two/pdf-tools/SKILL.md', skill('pdf-tools'));
    const r = await validateLibrary(join(tmp, 'lib'), { profiles: ['mcp-serve'] });
    const dup = r.skills.flatMap((s) =>
      s.diagnostics.filter((d) => d.ruleId === 'library/duplicate-name'),
    );
    expect(dup.map((d) => d.severity)).toEqual(['warning', 'warning']);
    expect(dup[0]?.message).toBe(
      'Another skill in this library is also named "pdf-tools": two/pdf-tools/SKILL.md. Agents tell skills apart by name, so one of them will be hidden. skillbench serve serves both, each by its path, but a host that lists skills by name shows one of them. Give each skill its own name.',
    );
    expect(r.counts.error).toBe(0);
    const snap = await buildSnapshot([join(tmp, 'lib')]);
    expect(snap.skills.map((k) => k.uri)).toEqual([
      'skill://one/pdf-tools/SKILL.md',
      'skill://two/pdf-tools/SKILL.md',
    ]);
  });

  it('resolves depends_on of x-personal-mcp and Universal skills against the library', async () => {
    const xpm = (deps: string[]): string =>
      skill(
        'notes-helper',
        undefined,
        `x-personal-mcp:\n  id: notes-helper\n  version: 1.0.0\n  capabilities:\n    - resource://skills/notes-helper/document\n  depends_on:\n${deps.map((d) => `    - ${d}\n`).join('')}`,
      );
    await put('lib/notes-helper/SKILL.md', xpm(['pdf-tools', 'ghost-skill']));
    await put('lib/pdf-tools/SKILL.md', skill('pdf-tools'));
    await put(
      'lib/uni-tool/SKILL.md',
      `---\nspec_version: "2.1"\nname: uni-tool\ndescription: Counts words. Use when asked how long a text is.\nversion: 1.0.0\ndepends_on:\n  - notes-helper\n  - missing-one\n---\n# Uni\n`,
    );
    const r = await validateLibrary(join(tmp, 'lib'), {
      profiles: ['x-personal-mcp', 'universal-2.1'],
    });
    const missing = r.skills.flatMap((s) =>
      s.diagnostics
        .filter((d) => d.ruleId === 'library/depends-on-missing')
        .map((d) => [s.relativePath, d.profile, d.field]),
    );
    expect(missing).toEqual([
      ['notes-helper', 'x-personal-mcp', '/x-personal-mcp/depends_on/1'],
      ['uni-tool', 'universal-2.1', '/depends_on/1'],
    ]);
    const text = await readFile(join(tmp, 'lib/notes-helper/SKILL.md'), 'utf8');
    const d = r.skills[0]?.diagnostics.find((x) => x.ruleId === 'library/depends-on-missing');
    expect(text.slice(d?.range?.start.offset, d?.range?.end.offset)).toBe('ghost-skill');

    const off = await validateLibrary(join(tmp, 'lib'), {
      profiles: ['x-personal-mcp', 'universal-2.1'],
      checkDependencies: false,
    });
    expect(
      off.skills
        .flatMap((s) => s.diagnostics)
        .some((x) => x.ruleId === 'library/depends-on-missing'),
    ).toBe(false);
  });

  it("warns when all descriptions exceed 8,000 characters, with each skill's share", async () => {
    const long = (n: number): string => `Use when ${'x'.repeat(n - 9)}`;
    for (let i = 0; i < 9; i++) await put(`lib/s${i}/SKILL.md`, skill(`s${i}`, long(1000)));
    const over = await validateLibrary(join(tmp, 'lib'));
    expect(over.budget).toMatchObject({ total: 9000, limit: 8000, over: true });
    expect(over.budget.shares).toHaveLength(9);
    expect(over.budget.shares[0]).toEqual({ name: 's0', characters: 1000, share: 1000 / 9000 });
    expect(over.findings).toHaveLength(1);
    expect(over.findings[0]).toMatchObject({
      ruleId: 'library/description-budget',
      severity: 'warning',
    });
    expect(over.findings[0]?.detail).toContain('s0 1000 (11.1%)');
    expect(over.counts.warning).toBe(1);

    await rm(join(tmp, 'lib/s8'), { recursive: true });
    const under = await validateLibrary(join(tmp, 'lib'));
    expect(under.budget).toMatchObject({ total: 8000, over: false });
    expect(under.findings).toEqual([]);
  });

  it('reports a SKILL.md over 16 MiB as too large without reading it, and checks the rest', async () => {
    await put('lib/small/SKILL.md', skill('small'));
    await put('lib/huge/SKILL.md', skill('huge'));
    // Why sparse: 1 GiB that takes no disk; read whole, it took seconds and a gigabyte of memory.
    await truncate(join(tmp, 'lib/huge/SKILL.md'), 1024 ** 3);
    const report = await validateLibrary(join(tmp, 'lib'), { pool: null });
    const huge = report.skills.find((s) => s.relativePath === 'huge');
    expect(huge?.diagnostics.map((d) => [d.ruleId, d.severity, d.message])).toEqual([
      [
        'file/unreadable',
        'error',
        `${join(tmp, 'lib/huge/SKILL.md')} is too large (1.1 GB); Skillbench reads files of up to 16.8 MB, so it did not read it.`,
      ],
    ]);
    expect(report.skills.find((s) => s.relativePath === 'small')?.diagnostics).toEqual([]);
  });

  it('explains a path that does not exist in a plain sentence', async () => {
    await expect(validateLibrary(join(tmp, 'nope'))).rejects.toThrow(ValidateInputError);
    await expect(validateLibrary(join(tmp, 'nope'))).rejects.toThrow(/Nothing exists at/);
  });
});

describe('applySafeFixes', () => {
  it('quotes an unquoted colon atomically and reports it; the fixed file validates', async () => {
    await put(
      'lib/my-skill/SKILL.md',
      '---\r\nname: my-skill\r\ndescription: Use when: the user pastes notes\r\n---\r\n# Body\r\n',
    );
    const before = await stat(join(tmp, 'lib/my-skill/SKILL.md'));
    const out = await applySafeFixes(join(tmp, 'lib/my-skill/SKILL.md'));
    expect(out.changed).toBe(true);
    expect(out.applied.map((a) => a.ruleId).sort()).toEqual([
      'file/line-endings',
      'yaml/unquoted-colon',
    ]);
    const text = await readFile(join(tmp, 'lib/my-skill/SKILL.md'), 'utf8');
    expect(text).toBe(
      '---\nname: my-skill\ndescription: "Use when: the user pastes notes"\n---\n# Body\n',
    );
    // Written through a temp file and rename: a new inode replaces the old file.
    expect((await stat(join(tmp, 'lib/my-skill/SKILL.md'))).ino).not.toBe(before.ino);
    const after = await validateLibrary(join(tmp, 'lib'));
    expect(after.skills[0]?.diagnostics).toEqual([]);
  });

  it('renames the skill and its folder together (Slide-Maker → slide-maker), and then it is clean', async () => {
    await put('lib/Slide-Maker/SKILL.md', skill('Slide-Maker'));
    const out = await applySafeFixes(join(tmp, 'lib/Slide-Maker'));
    expect(out.renamedFolder).toEqual({
      from: join(tmp, 'lib/Slide-Maker'),
      to: join(tmp, 'lib/slide-maker'),
    });
    expect(await readFile(join(tmp, 'lib/slide-maker/SKILL.md'), 'utf8')).toContain(
      'name: slide-maker\n',
    );
    const after = await validateLibrary(join(tmp, 'lib'));
    expect(after.skills.map((s) => [s.relativePath, s.counts.error])).toEqual([['slide-maker', 0]]);
  });

  it('refuses the rename when a folder of the new name exists, and changes nothing', async () => {
    await put('lib/Slide-Maker/SKILL.md', skill('Slide-Maker'));
    await put('lib/slide-maker/notes.txt', 'mine');
    const out = await applySafeFixes(join(tmp, 'lib/Slide-Maker'));
    expect(out.renamedFolder).toBeUndefined();
    expect(out.skipped).toEqual([
      {
        title: "Rename the skill and its folder to 'slide-maker'",
        reason: `${join(tmp, 'lib/slide-maker')} already exists, so the folder was not renamed.`,
      },
    ]);
    expect(await readFile(join(tmp, 'lib/Slide-Maker/SKILL.md'), 'utf8')).toBe(
      skill('Slide-Maker'),
    );
    expect(await readFile(join(tmp, 'lib/slide-maker/notes.txt'), 'utf8')).toBe('mine');
  });

  it('changes nothing when there is nothing safe to fix', async () => {
    await put('lib/my-skill/SKILL.md', skill('my-skill'));
    const out = await applySafeFixes(join(tmp, 'lib/my-skill'));
    expect(out).toMatchObject({ changed: false, applied: [], skipped: [] });
    expect(out.file).toBe(join(tmp, 'lib/my-skill/SKILL.md'));
  });
});
