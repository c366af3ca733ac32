import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lstatSync } from 'node:fs';
import { buildFileView, NotASkillError, readSkillFolder, skillEntries, walkSkillTree } from '.';
import { TimeSlicer } from '../platform/concurrency';

let tmp: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-fileview-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('buildFileView', () => {
  it('lists nested files with sizes and kinds, marks escaping and dangling symlinks, keeps inside links', async () => {
    await put('lib/group/my-skill/SKILL.md', '---\nname: my-skill\ndescription: d\n---\n');
    await put('lib/group/my-skill/references/deep/guide.md', '12345');
    await put('lib/group/my-skill/tools.json', '{"tools":[]}');
    await put('outside.txt', 'secret');
    const skill = join(tmp, 'lib/group/my-skill');
    await symlink(join(tmp, 'outside.txt'), join(skill, 'escape'));
    await symlink(join(skill, 'nowhere'), join(skill, 'dangling'));
    await symlink('references/deep/guide.md', join(skill, 'inside'));
    await symlink('..', join(skill, 'parent'));

    const view = await buildFileView(skill, join(tmp, 'lib'));
    expect(view.folderName).toBe('my-skill');
    expect(view.relativePath).toBe('group/my-skill');
    expect(view.fileName).toBe('SKILL.md');
    const byPath = new Map(view.entries.map((e) => [e.path, e]));
    expect(byPath.get('references')?.kind).toBe('directory');
    expect(byPath.get('references/deep/guide.md')).toEqual({
      path: 'references/deep/guide.md',
      kind: 'file',
      size: 5,
    });
    expect(byPath.get('escape')).toMatchObject({ kind: 'symlink', escapes: true });
    expect(byPath.get('dangling')).toMatchObject({ kind: 'symlink', escapes: true });
    expect(byPath.get('inside')).toMatchObject({ kind: 'symlink', escapes: false });
    expect(byPath.get('parent')).toMatchObject({ kind: 'symlink', escapes: true });
    // Never followed: nothing under the links is listed.
    expect(view.entries.some((e) => e.path.startsWith('parent/'))).toBe(false);
    expect(view.texts).toEqual({ 'tools.json': '{"tools":[]}' });
  });

  it('leaves out what a skill never holds, marks what is withheld when shared, and reports skill.md', async () => {
    await put('solo/skill.md', '---\nname: solo\n---\n');
    await put('solo/node_modules/dep/index.js', 'x');
    await put('solo/.git/HEAD', 'ref');
    await put('solo/.DS_Store', 'x');
    await put('solo/.env', 'KEY=1');
    await put('solo/evals/cases.md', '# cases');
    const view = await buildFileView(join(tmp, 'solo'));
    expect(view.fileName).toBe('skill.md');
    expect(view.relativePath).toBe('solo');
    expect(view.entries.map((e) => e.path).sort()).toEqual([
      '.env',
      'evals',
      'evals/cases.md',
      'skill.md',
    ]);
    const byPath = new Map(view.entries.map((e) => [e.path, e]));
    expect(byPath.get('.env')?.withheld).toContain('passwords or API keys');
    expect(byPath.get('evals/cases.md')?.withheld).toContain('evals/');
    expect(byPath.get('skill.md')?.withheld).toBeUndefined();
    expect(view.texts).toBeUndefined();
  });

  it('fails with the file-system error when the folder does not exist', async () => {
    await expect(buildFileView(join(tmp, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readSkillFolder', () => {
  it('a folder without SKILL.md is refused from its own listing, before anything under it is walked', async () => {
    for (let i = 0; i < 5; i++) await put(`sub-${i}/deeper/file.md`, 'x');
    // The walk asks its slicer at every folder; a clock that counts shows whether it ran.
    let asked = 0;
    const slicer = new TimeSlicer(() => (asked++, 0));
    asked = 0;
    await expect(readSkillFolder(tmp, slicer)).rejects.toThrow(
      new NotASkillError(`${tmp} has no SKILL.md file, so it is not a skill folder.`),
    );
    expect(asked).toBe(0);
    await put('SKILL.md', '---\nname: x\ndescription: y\n---\n');
    const folder = await readSkillFolder(tmp, slicer);
    expect(folder.entries.filter((e) => e.kind === 'file')).toHaveLength(6);
    expect(asked).toBeGreaterThan(0);
  });
});

describe('what a reader of the walked files is handed', () => {
  it("each file's identity as the walk saw it, so a read can refuse another file at that path", async () => {
    await put('my-skill/SKILL.md', '---\nname: my-skill\ndescription: x\n---\n');
    await put('my-skill/references/guide.md', 'guide');
    const tree = await walkSkillTree(tmp);
    const files = skillEntries(tree, 'my-skill').filter((e) => e.kind === 'file');
    expect(files.map((e) => e.path).sort()).toEqual(['SKILL.md', 'references/guide.md']);
    for (const e of files) {
      const info = lstatSync(join(tmp, 'my-skill', e.path));
      expect([e.ino, e.dev]).toEqual([info.ino, info.dev]);
    }
  });
});
