import {
  mkdtemp,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillFiles } from './skill-files';

describe('SkillFiles trash', () => {
  let dir: string;
  let skill: string;
  let osTrashDir: string;
  /** Stands in for the operating system's trash (Electron's shell.trashItem moves the path there). */
  const osTrash = async (path: string) => {
    await rename(path, join(osTrashDir, `${Date.now()}-${basename(path)}`));
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillbench-files-'));
    skill = join(dir, 'skill');
    osTrashDir = join(dir, 'os-trash');
    await mkdir(join(skill, 'references'), { recursive: true });
    await mkdir(osTrashDir);
    await writeFile(join(skill, 'SKILL.md'), '---\nname: skill\n---\n');
    await writeFile(join(skill, 'references', 'a.md'), 'A');
    await writeFile(join(skill, 'references', 'b.md'), 'B');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the latest delete undoable and sends earlier ones on to the OS trash', async () => {
    const files = new SkillFiles(join(dir, 'sb-trash'), osTrash);
    const first = await files.delete(skill, 'references/a.md');
    expect(first.ok).toBe(true);
    expect(await readdir(osTrashDir)).toEqual([]);
    const second = await files.delete(skill, 'references/b.md');
    if (!second.ok || !first.ok) throw new Error('delete failed');
    expect((await readdir(osTrashDir)).map((n) => n.replace(/^\d+-/, ''))).toEqual(['a.md']);
    expect(await files.restore(first.value.undoToken)).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(await files.restore(second.value.undoToken)).toMatchObject({ ok: true });
    expect(await readFile(join(skill, 'references', 'b.md'), 'utf8')).toBe('B');
    await files.settle();
    expect(await readdir(join(dir, 'sb-trash'))).toEqual([]);
  });

  it("without an OS trash, deletes stay in Skillbench's trash and can be undone", async () => {
    const files = new SkillFiles(join(dir, 'sb-trash'));
    const first = await files.delete(skill, 'references/a.md');
    await files.delete(skill, 'references/b.md');
    if (!first.ok) throw new Error('delete failed');
    expect(await files.restore(first.value.undoToken)).toMatchObject({ ok: true });
    expect(await readFile(join(skill, 'references', 'a.md'), 'utf8')).toBe('A');
    expect(await readdir(osTrashDir)).toEqual([]);
  });
});

describe('SkillFiles: no file operation leaves its skill through a link', () => {
  let dir: string;
  let skill: string;
  let outside: string;
  let files: SkillFiles;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillbench-links-'));
    skill = join(dir, 'skill');
    outside = join(dir, 'outside');
    await mkdir(join(skill, 'references'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(skill, 'SKILL.md'), '---\nname: skill\n---\n');
    await writeFile(join(skill, 'references', 'a.md'), 'A');
    await writeFile(join(outside, 'secret.txt'), 'outside secret');
    await writeFile(join(outside, 'x.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    // A folder link inside the skill that leads outside it, and one that stays inside.
    await symlink(outside, join(skill, 'linkdir'));
    await symlink(join(skill, 'references'), join(skill, 'inside-link'));
    await symlink(join(outside, 'secret.txt'), join(skill, 'file-link.txt'));
    files = new SkillFiles(join(dir, 'sb-trash'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('preview refuses to read through a folder link or a file link, and names the link', async () => {
    const through = await files.preview(skill, 'linkdir/secret.txt');
    expect(through).toMatchObject({ ok: false, error: { code: 'link' } });
    if (!through.ok) expect(through.error.message).toContain('linkdir');
    expect(await files.preview(skill, 'linkdir/x.png')).toMatchObject({ ok: false });
    expect(await files.preview(skill, 'inside-link/a.md')).toMatchObject({ ok: false });
    expect(await files.preview(skill, 'file-link.txt')).toMatchObject({
      ok: false,
      error: { code: 'link' },
    });
    expect(await files.preview(skill, 'references/a.md')).toMatchObject({
      ok: true,
      value: { view: 'text', text: 'A' },
    });
  });

  it('a text file with a byte that is not UTF-8 past its first 8 KiB opens as binary, never as text to save', async () => {
    const bytes = Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xe9, 0x0a])]);
    await writeFile(join(skill, 'references', 'latin1.md'), bytes);
    expect(await files.preview(skill, 'references/latin1.md')).toMatchObject({
      ok: true,
      value: { view: 'binary', size: bytes.length },
    });
  });

  it('create, import and save refuse to write through a link', async () => {
    expect(await files.create(skill, 'linkdir/new.md', 'file', 'x')).toMatchObject({ ok: false });
    expect(await files.importFile(skill, 'linkdir/drop.bin', Buffer.from('x'))).toMatchObject({
      ok: false,
    });
    expect(await files.saveText(skill, 'linkdir/secret.txt', 'changed')).toMatchObject({
      ok: false,
    });
    expect(await files.saveText(skill, 'file-link.txt', 'changed')).toMatchObject({ ok: false });
    expect(await readdir(outside)).toEqual(['secret.txt', 'x.png']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('rename never moves files in or out of the skill through a link', async () => {
    expect(await files.rename(skill, 'linkdir/secret.txt', 'stolen.txt')).toMatchObject({
      ok: false,
    });
    expect(await files.rename(skill, 'references/a.md', 'linkdir/a.md')).toMatchObject({
      ok: false,
    });
    expect(await readdir(outside)).toEqual(['secret.txt', 'x.png']);
    expect(await readFile(join(skill, 'references', 'a.md'), 'utf8')).toBe('A');
  });

  it('delete never moves an outside file to the trash; deleting the link itself leaves its target', async () => {
    expect(await files.delete(skill, 'linkdir/secret.txt')).toMatchObject({ ok: false });
    expect(await readdir(outside)).toEqual(['secret.txt', 'x.png']);
    const link = await files.delete(skill, 'linkdir');
    expect(link.ok).toBe(true);
    expect(await readdir(outside)).toEqual(['secret.txt', 'x.png']);
  });

  it('SKILL.md cannot be deleted under another spelling, and dot segments are refused', async () => {
    for (const path of ['SKILL.md', './SKILL.md', 'references/../SKILL.md', 'skill.md'])
      expect(await files.delete(skill, path)).toMatchObject({ ok: false });
    expect(await readFile(join(skill, 'SKILL.md'), 'utf8')).toContain('name: skill');
    for (const path of ['../outside/secret.txt', '/etc/passwd', 'a\\b', ''])
      expect(await files.preview(skill, path)).toMatchObject({
        ok: false,
        error: { code: 'outside-skill' },
      });
  });

  it('the tree lists links as links, never their contents, and marks what is withheld', async () => {
    await writeFile(join(skill, '.env'), 'KEY=1');
    await mkdir(join(skill, '.git'));
    await writeFile(join(skill, '.git', 'HEAD'), 'ref');
    const listed = await files.list(skill);
    if (!listed.ok) throw new Error(listed.error.message);
    const paths = listed.value.map((e) => e.path);
    expect(paths).toContain('linkdir');
    expect(paths.some((p) => p.startsWith('linkdir/'))).toBe(false);
    expect(paths.some((p) => p.startsWith('.git'))).toBe(false);
    expect(listed.value.find((e) => e.path === 'linkdir')?.kind).toBe('symlink');
    expect(listed.value.find((e) => e.path === '.env')?.withheld).toContain('passwords');
  });
});
