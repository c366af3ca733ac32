import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/skill-library';
import { writeVerifiedFolder, type VerifiedSkillFiles } from './keep';

type Dir = Awaited<ReturnType<typeof tempDir>>;

/** A skill whose one file (SKILL.md) was verified, under the given name. */
function verified(name: string): VerifiedSkillFiles {
  const uri = `skill://${encodeURIComponent(name)}/SKILL.md`;
  return {
    name,
    uri,
    verification: {
      key: `test\n${uri}`,
      uri,
      verdict: 'verified',
      files: [{ uri, path: 'SKILL.md', status: 'verified', reasons: [] }],
      problems: [],
      bytesRead: 10,
      durationMs: 1,
    },
    bytes: new Map([[uri, Buffer.from(`---\nname: ${name} # theirs\ndescription: d\n---\n`)]]),
    server: { label: 'test', target: 'http://127.0.0.1:1/mcp' },
  };
}

describe("the inspector's Save: a skill's name becomes a folder only when it is a safe one", () => {
  let library: Dir;
  beforeEach(async () => {
    library = await tempDir('skillbench-keep-');
  });
  afterEach(async () => {
    await library.remove();
  });

  it('refuses dot-names, device names, trailing dots and control characters, writing nothing', async () => {
    for (const name of ['.git', '..', '.hidden', 'con', 'NUL.txt', 'com1', 'notes.', 'a\u001bb']) {
      const result = await writeVerifiedFolder(verified(name), library.path);
      expect([name, result]).toEqual([
        name,
        expect.objectContaining({
          ok: false,
          reason: 'invalid',
          message: expect.stringMatching(
            /cannot be used as a folder name: it .+\. Nothing was saved\./,
          ),
        }),
      ]);
    }
    expect(await readdir(library.path)).toEqual([]);
  });

  it('saves a skill with an ordinary name', async () => {
    expect(await writeVerifiedFolder(verified('notes'), library.path)).toMatchObject({ ok: true });
    expect(await readdir(library.path)).toEqual(['notes']);
  });
});

describe("the inspector's Save when the library already has the name: keep both, replace, or ask", () => {
  let dir: Dir;
  let library: string;
  let trash: string;
  const mine = '---\nname: notes\ndescription: mine\n---\nMy own notes.\n';
  beforeEach(async () => {
    dir = await tempDir('skillbench-keep-conflict-');
    library = join(dir.path, 'library');
    trash = join(dir.path, 'trash');
    await mkdir(join(library, 'notes'), { recursive: true });
    await writeFile(join(library, 'notes', 'SKILL.md'), mine);
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('asks first, with the free name, and writes nothing', async () => {
    await mkdir(join(library, 'notes-2'));
    const asked = await writeVerifiedFolder(verified('notes'), library, { trashDir: trash });
    expect(asked).toMatchObject({
      ok: false,
      reason: 'conflict',
      suggestion: 'notes-3',
      folder: join(library, 'notes'),
      message: expect.stringContaining('Keep both (save this one as notes-3)'),
    });
    expect((await readdir(library)).sort()).toEqual(['notes', 'notes-2']);
    expect(await readFile(join(library, 'notes', 'SKILL.md'), 'utf8')).toBe(mine);
  });

  it('keeps both: the new copy under the free name, its SKILL.md name changed to match and nothing else', async () => {
    const kept = await writeVerifiedFolder(verified('notes'), library, {
      onConflict: 'rename',
      trashDir: trash,
    });
    expect(kept).toMatchObject({
      ok: true,
      name: 'notes-2',
      renamedFrom: 'notes',
      folder: join(library, 'notes-2'),
      provenance: { name: 'notes-2', renamedFrom: 'notes', folder: join(library, 'notes-2') },
    });
    expect(kept).not.toHaveProperty('trashedTo');
    expect(await readFile(join(library, 'notes-2', 'SKILL.md'), 'utf8')).toBe(
      '---\nname: notes-2 # theirs\ndescription: d\n---\n',
    );
    expect(await readFile(join(library, 'notes', 'SKILL.md'), 'utf8')).toBe(mine);
  });

  it("replaces: the server's copy takes the name, the old folder is whole in the trash", async () => {
    const replaced = await writeVerifiedFolder(verified('notes'), library, {
      onConflict: 'replace',
      trashDir: trash,
    });
    expect(replaced).toMatchObject({ ok: true, name: 'notes', folder: join(library, 'notes') });
    expect(replaced).not.toHaveProperty('renamedFrom');
    const trashedTo = replaced.ok ? replaced.trashedTo : undefined;
    expect(trashedTo?.startsWith(join(trash, 'notes-'))).toBe(true);
    expect(await readFile(join(trashedTo as string, 'SKILL.md'), 'utf8')).toBe(mine);
    expect(await readFile(join(library, 'notes', 'SKILL.md'), 'utf8')).toBe(
      '---\nname: notes # theirs\ndescription: d\n---\n',
    );
    expect(await readdir(library)).toEqual(['notes']);
  });

  it('replacing a link in the library moves the link to the trash, never the folder it points to', async () => {
    const elsewhere = join(dir.path, 'elsewhere', 'notes');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, 'SKILL.md'), mine);
    const linked = join(dir.path, 'linked');
    await mkdir(linked);
    await symlink(elsewhere, join(linked, 'notes'), 'dir');
    const replaced = await writeVerifiedFolder(verified('notes'), linked, {
      onConflict: 'replace',
      trashDir: trash,
    });
    expect(replaced).toMatchObject({ ok: true, folder: join(linked, 'notes') });
    const trashedTo = replaced.ok ? (replaced.trashedTo as string) : '';
    expect((await lstat(trashedTo)).isSymbolicLink()).toBe(true);
    expect(await readlink(trashedTo)).toBe(elsewhere);
    expect(await readdir(elsewhere)).toEqual(['SKILL.md']);
    expect(await readFile(join(elsewhere, 'SKILL.md'), 'utf8')).toBe(mine);
    expect((await lstat(join(linked, 'notes'))).isDirectory()).toBe(true);
  });

  it('a name that tries to leave the library is refused before anything is replaced or moved', async () => {
    // "../outside" names a real folder beside the library: replacing it would trash the user's files.
    const outside = join(dir.path, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'SKILL.md'), mine);
    for (const name of [
      '../outside',
      '..',
      `${outside}`,
      'notes/../../outside',
      'a\\..\\outside',
    ]) {
      for (const onConflict of ['replace', 'rename'] as const) {
        const result = await writeVerifiedFolder(verified(name), library, {
          onConflict,
          trashDir: trash,
        });
        expect([name, onConflict, result]).toEqual([
          name,
          onConflict,
          expect.objectContaining({ ok: false, reason: 'invalid' }),
        ]);
      }
    }
    expect(await readFile(join(outside, 'SKILL.md'), 'utf8')).toBe(mine);
    expect(await readdir(library)).toEqual(['notes']);
    expect(await readdir(dir.path)).not.toContain('trash');
  });
});
