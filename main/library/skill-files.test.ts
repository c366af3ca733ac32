import { mkdtemp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
