/**
 * Updating an edited copy with "merge" keeps every edit (docs/agents.md, "Updates"): real skill
 * folders in a temp home, a library source the test changes, and the manager's own update.
 */
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeFolders, mergeThreeWay } from '../../shared/agents/merge';
import { parseLock } from '../../shared/agents/lock';
import { hashFolder } from './hash';
import { SkillManager } from './manager';

let tmp: string;
let lib: string;
let project: string;
let manager: SkillManager;

const skillText = (body: string) =>
  `---\nname: notes\ndescription: Keeps notes. Use when notes are asked for.\n---\n${body}`;
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]);

/** The source: SKILL.md, a guide, a checklist, a binary logo and a script. */
async function source(): Promise<string> {
  const dir = join(lib, 'notes');
  await mkdir(join(dir, 'references'), { recursive: true });
  await mkdir(join(dir, 'assets'), { recursive: true });
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), skillText('# Notes\n\nOne.\nTwo.\nThree.\n'));
  await writeFile(join(dir, 'references', 'guide.md'), 'Alpha.\nBeta.\nGamma.\n');
  await writeFile(join(dir, 'references', 'checklist.md'), 'Check one.\n');
  await writeFile(join(dir, 'assets', 'logo.png'), LOGO);
  await writeFile(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\necho run\n', { mode: 0o755 });
  return dir;
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-merge-'));
  const home = join(tmp, 'home');
  lib = join(tmp, 'lib');
  project = join(tmp, 'project');
  await mkdir(join(home, '.claude'), { recursive: true });
  await mkdir(lib);
  await mkdir(project);
  manager = new SkillManager({
    env: { home, vars: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } },
    dataDir: join(tmp, 'data'),
    trashDir: join(tmp, 'data', 'trash'),
    libraryRoots: async () => [lib],
  });
  manager.extraProjects.push(project);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Install the source as a copy for Claude Code in the project; the copy's folder. */
async function install(dir: string): Promise<string> {
  const report = await manager.install({
    skills: [{ dir, source: { kind: 'library', path: dir } }],
    agents: ['claude-code'],
    scope: { kind: 'project', dir: project },
    mode: 'copy',
  });
  expect(report.outcomes.map((o) => o.status)).toEqual(['installed']);
  return join(project, '.claude', 'skills', 'notes');
}

/** Every file of a folder with its bytes, to prove nothing was written. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(p);
      else out[p] = (await readFile(join(dir, p))).toString('base64');
    }
  };
  await walk('');
  return out;
}

const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');

describe('merge keeps every edit, file by file', () => {
  it('keeps the whole installed folder as the base, every file', async () => {
    const dir = await source();
    const copy = await install(dir);
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    const hash = lock.skills.notes?.skillbench?.installedHash ?? '';
    expect(hash).toBe(await hashFolder(copy));
    const base = join(tmp, 'data', 'agents', 'bases', hash);
    expect(await snapshot(base)).toEqual(await snapshot(copy));
  });

  it('takes the other side of a file unchanged on one side, keeps files the user added, and merges text edits to different lines', async () => {
    const dir = await source();
    const copy = await install(dir);
    // Mine: an edit to the guide's first line, a new file, the checklist left alone.
    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha, mine.\nBeta.\nGamma.\n');
    await writeFile(join(copy, 'references', 'my-notes.md'), 'Only mine.\n');
    // Theirs: the guide's last line, the checklist, and the logo change; SKILL.md too.
    await writeFile(join(dir, 'references', 'guide.md'), 'Alpha.\nBeta.\nGamma, theirs.\n');
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check one.\nCheck two.\n');
    await writeFile(join(dir, 'assets', 'logo.png'), Buffer.from([...LOGO, 0x07]));
    await writeFile(join(dir, 'SKILL.md'), skillText('# Notes\n\nOne.\nTwo.\nThree.\nFour.\n'));

    const [needs] = await manager.update(undefined);
    expect(needs?.status).toBe('needs-choice');
    const [merged] = await manager.update(undefined, 'merge');
    expect(merged?.status).toBe('updated');
    expect(await read(copy, 'references/guide.md')).toBe('Alpha, mine.\nBeta.\nGamma, theirs.\n');
    expect(await read(copy, 'references/my-notes.md')).toBe('Only mine.\n');
    expect(await read(copy, 'references/checklist.md')).toBe('Check one.\nCheck two.\n');
    expect(await readFile(join(copy, 'assets', 'logo.png'))).toEqual(Buffer.from([...LOGO, 7]));
    expect(await read(copy, 'SKILL.md')).toContain('Four.');
    expect((await lstat(join(copy, 'scripts', 'run.sh'))).mode & 0o111).not.toBe(0);
    // The copy before the merge is in the trash, whole.
    const trashed = merged?.trashedTo?.[0] ?? '';
    expect(await read(trashed, 'references/guide.md')).toBe('Alpha, mine.\nBeta.\nGamma.\n');
  });

  it('text changed on the same lines: the conflicts are shown and nothing is written until settled; markers left in are refused', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha.\nBeta, mine.\nGamma.\n');
    await writeFile(join(dir, 'references', 'guide.md'), 'Alpha.\nBeta, theirs.\nGamma.\n');
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check one, theirs.\n');
    const before = await snapshot(copy);

    const [open] = await manager.update(undefined, 'merge');
    expect(open?.status).toBe('conflicts');
    expect(open?.message).toMatch(/Nothing was written/);
    expect(open?.conflicts).toEqual([
      expect.objectContaining({
        path: 'references/guide.md',
        kind: 'text',
        regions: 1,
        merged:
          'Alpha.\n<<<<<<< mine\nBeta, mine.\n=======\nBeta, theirs.\n>>>>>>> theirs\nGamma.\n',
      }),
    ]);
    expect(await snapshot(copy)).toEqual(before);

    const [still] = await manager.update(undefined, 'merge', {
      name: 'notes',
      files: [{ path: 'references/guide.md', text: open?.conflicts?.[0]?.merged ?? '' }],
    });
    expect(still?.status).toBe('conflicts');
    expect(still?.message).toMatch(/still has conflict markers/);
    expect(await snapshot(copy)).toEqual(before);

    const [applied] = await manager.update(undefined, 'merge', {
      name: 'notes',
      files: [{ path: 'references/guide.md', text: 'Alpha.\nBeta, both.\nGamma.\n' }],
    });
    expect(applied?.status).toBe('updated');
    expect(await read(copy, 'references/guide.md')).toBe('Alpha.\nBeta, both.\nGamma.\n');
    expect(await read(copy, 'references/checklist.md')).toBe('Check one, theirs.\n');
  });

  it('a binary file changed on both sides: the user chooses which to keep', async () => {
    const dir = await source();
    for (const keep of ['mine', 'theirs'] as const) {
      const copy = await install(dir);
      await writeFile(join(copy, 'assets', 'logo.png'), Buffer.from([...LOGO, 0x01]));
      await writeFile(join(dir, 'assets', 'logo.png'), Buffer.from([...LOGO, 0x02]));
      const [open] = await manager.update(undefined, 'merge');
      expect(open?.conflicts).toEqual([
        expect.objectContaining({ path: 'assets/logo.png', kind: 'binary' }),
      ]);
      expect(await readFile(join(copy, 'assets', 'logo.png'))).toEqual(
        Buffer.from([...LOGO, 0x01]),
      );
      const [done] = await manager.update(undefined, 'merge', {
        name: 'notes',
        files: [{ path: 'assets/logo.png', keep }],
      });
      expect(done?.status).toBe('updated');
      expect(await readFile(join(copy, 'assets', 'logo.png'))).toEqual(
        Buffer.from([...LOGO, keep === 'mine' ? 0x01 : 0x02]),
      );
      // Start again from the original source for the other choice.
      await rm(project, { recursive: true });
      await mkdir(project);
      await writeFile(join(dir, 'assets', 'logo.png'), LOGO);
    }
  });

  it('a file the source removed: gone when the user left it alone, a conflict when the user edited it', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha, mine.\nBeta.\nGamma.\n');
    await writeFile(join(copy, 'SKILL.md'), skillText('# Notes\n\nOne, mine.\nTwo.\nThree.\n'));
    await rm(join(dir, 'references', 'guide.md'));
    await rm(join(dir, 'references', 'checklist.md'));
    const before = await snapshot(copy);

    const [open] = await manager.update(undefined, 'merge');
    expect(open?.conflicts).toEqual([
      expect.objectContaining({ path: 'references/guide.md', kind: 'removed-at-source' }),
    ]);
    expect(open?.conflicts?.[0]?.message).toMatch(/source removed references\/guide\.md/);
    expect(await snapshot(copy)).toEqual(before);

    const [kept] = await manager.update(undefined, 'merge', {
      name: 'notes',
      files: [{ path: 'references/guide.md', keep: 'mine' }],
    });
    expect(kept?.status).toBe('updated');
    expect(await read(copy, 'references/guide.md')).toBe('Alpha, mine.\nBeta.\nGamma.\n');
    await expect(lstat(join(copy, 'references', 'checklist.md'))).rejects.toThrow();
    expect(await read(copy, 'SKILL.md')).toContain('One, mine.');
  });

  it('a file the user removed and the source changed is a conflict: leave it removed or take theirs', async () => {
    const dir = await source();
    const copy = await install(dir);
    await rm(join(copy, 'references', 'checklist.md'));
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check one, theirs.\n');
    const [open] = await manager.update(undefined, 'merge');
    expect(open?.conflicts).toEqual([
      expect.objectContaining({ path: 'references/checklist.md', kind: 'removed-by-you' }),
    ]);
    await expect(lstat(join(copy, 'references', 'checklist.md'))).rejects.toThrow();
    const [left] = await manager.update(undefined, 'merge', {
      name: 'notes',
      files: [{ path: 'references/checklist.md', keep: 'mine' }],
    });
    expect(left?.status).toBe('updated');
    await expect(lstat(join(copy, 'references', 'checklist.md'))).rejects.toThrow();
  });

  it('after a merge the source’s version is the base: the merged-in edits still count as the user’s next time', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha, mine.\nBeta.\nGamma.\n');
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check two.\n');
    expect((await manager.update(undefined, 'merge'))[0]?.status).toBe('updated');
    const [after] = await manager.outdated();
    expect(after).toMatchObject({
      status: 'up-to-date',
      locallyEdited: true,
      // Not "matches its source": the copy holds the user's edits.
      message:
        'The source of notes has not changed since you installed it; only your installed copy was edited since.',
    });

    await writeFile(join(dir, 'references', 'checklist.md'), 'Check three.\n');
    const [next] = await manager.update(undefined);
    expect(next?.status).toBe('needs-choice');
    expect((await manager.update(undefined, 'merge'))[0]?.status).toBe('updated');
    expect(await read(copy, 'references/guide.md')).toBe('Alpha, mine.\nBeta.\nGamma.\n');
    expect(await read(copy, 'references/checklist.md')).toBe('Check three.\n');
  });
});

describe('before choosing: the source’s changes and the user’s edits, apart', () => {
  const changed = (diff: { kind: string; text: string }[] | undefined) =>
    (diff ?? []).filter((d) => d.kind !== 'same').map((d) => `${d.kind} ${d.text}`);

  it('an edited copy shows what the source changed since install, the user’s own edits, and that merge has nothing to ask', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(copy, 'SKILL.md'), skillText('# Notes\n\nOne.\nTwo.\nThree.\nMine.\n'));
    await writeFile(join(copy, 'references', 'my-notes.md'), 'Only mine.\n');
    await writeFile(join(dir, 'SKILL.md'), skillText('# Notes\n\nOne, theirs.\nTwo.\nThree.\n'));
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check two.\n');
    await rm(join(dir, 'assets', 'logo.png'));

    const [entry] = await manager.outdated();
    expect(entry).toMatchObject({ status: 'outdated', locallyEdited: true, canMerge: true });
    // The source's lines only: the user's "Mine." is not shown as a line the update removes.
    expect(changed(entry?.diff)).toEqual(['removed One.\n', 'added One, theirs.\n']);
    expect(entry?.fileChanges).toEqual([
      { path: 'SKILL.md', change: 'changed' },
      { path: 'assets/logo.png', change: 'removed' },
      { path: 'references/checklist.md', change: 'changed' },
    ]);
    expect(changed(entry?.yourEdits?.diff)).toEqual(['added Mine.\n']);
    expect(entry?.yourEdits?.files).toEqual([
      { path: 'SKILL.md', change: 'changed' },
      { path: 'references/my-notes.md', change: 'added' },
    ]);
    expect(entry?.mergeAsks).toEqual([]);
    // Worked out without writing: the copy is as the user left it.
    expect(await read(copy, 'SKILL.md')).toContain('Mine.');
    expect((await manager.update(undefined, 'merge'))[0]?.status).toBe('updated');
    expect(await read(copy, 'SKILL.md')).toBe(
      skillText('# Notes\n\nOne, theirs.\nTwo.\nThree.\nMine.\n'),
    );
  });

  it('names the files merge would ask about, the ones both sides changed in the same place', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha.\nBeta, mine.\nGamma.\n');
    await writeFile(join(copy, 'assets', 'logo.png'), Buffer.from([...LOGO, 1]));
    await writeFile(join(dir, 'references', 'guide.md'), 'Alpha.\nBeta, theirs.\nGamma.\n');
    await writeFile(join(dir, 'assets', 'logo.png'), Buffer.from([...LOGO, 2]));
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check two.\n');

    const [entry] = await manager.outdated();
    expect(entry?.mergeAsks).toEqual(['assets/logo.png', 'references/guide.md']);
    const [open] = await manager.update(undefined, 'merge');
    expect(open?.conflicts?.map((c) => c.path)).toEqual(entry?.mergeAsks);
  });

  it('a copy not edited, or one whose installed version is not kept, is shown against the source as before', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check two.\n');
    const [plain] = await manager.outdated();
    expect(plain).toMatchObject({ status: 'outdated', locallyEdited: false });
    expect(plain?.yourEdits).toBeUndefined();
    expect(plain?.mergeAsks).toBeUndefined();

    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha, mine.\nBeta.\nGamma.\n');
    await rm(join(tmp, 'data', 'agents', 'bases'), { recursive: true });
    const [unknownBase] = await manager.outdated();
    expect(unknownBase).toMatchObject({ locallyEdited: true, canMerge: false });
    expect(unknownBase?.yourEdits).toBeUndefined();
    expect(unknownBase?.fileChanges).toEqual([
      { path: 'references/checklist.md', change: 'changed' },
      { path: 'references/guide.md', change: 'changed' },
    ]);
  });
});

describe('keep mine is remembered for the version kept over', () => {
  it('that version is no longer offered, a newer one is; named with a choice it is taken after all', async () => {
    const dir = await source();
    const copy = await install(dir);
    await writeFile(join(copy, 'references', 'guide.md'), 'Alpha, mine.\nBeta.\nGamma.\n');
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check two.\n');
    const before = await snapshot(copy);

    const [kept] = await manager.update(undefined, 'keep-local');
    expect(kept?.status).toBe('kept');
    expect(kept?.message).toMatch(/not offered again; a newer one will be/);
    expect(await snapshot(copy)).toEqual(before);
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.skills.notes?.skillbench?.keptOver).toBe(await hashFolder(dir));

    const [quiet] = await manager.outdated();
    expect(quiet).toMatchObject({ status: 'up-to-date', kept: true, locallyEdited: true });
    expect(quiet?.message).toMatch(/You kept your edited copy of notes/);
    // The changes are still there to look at, and a plain update or update --merge of
    // everything leaves the kept copy alone.
    expect(quiet?.fileChanges).toContainEqual({
      path: 'references/checklist.md',
      change: 'changed',
    });
    expect((await manager.update(undefined))[0]?.status).toBe('up-to-date');
    expect((await manager.update(undefined, 'merge'))[0]?.status).toBe('up-to-date');
    expect(await snapshot(copy)).toEqual(before);

    // A newer version at the source is offered again.
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check three.\n');
    const [offered] = await manager.outdated();
    expect(offered).toMatchObject({ status: 'outdated', locallyEdited: true });
    expect(offered?.kept).toBeUndefined();

    // Kept again, then taken after all by name: merged, and the mark is gone with the new entry.
    expect((await manager.update(undefined, 'keep-local'))[0]?.status).toBe('kept');
    const [merged] = await manager.update(['notes'], 'merge');
    expect(merged?.status).toBe('updated');
    expect(await read(copy, 'references/guide.md')).toBe('Alpha, mine.\nBeta.\nGamma.\n');
    expect(await read(copy, 'references/checklist.md')).toBe('Check three.\n');
    const after = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(after.skills.notes?.skillbench?.keptOver).toBeUndefined();
  });

  it('a lock entry with a damaged mark reads as not kept', () => {
    const text = JSON.stringify({
      version: 1,
      skills: {
        notes: {
          source: './notes',
          sourceType: 'local',
          skillbench: {
            source: { kind: 'folder', path: '/x/notes' },
            mode: 'copy',
            installedHash: 'a'.repeat(64),
            installedAt: '2026-01-01T00:00:00.000Z',
            keptOver: { not: 'a hash' },
          },
        },
      },
    });
    const entry = parseLock('project', text).skills.notes;
    expect(entry?.skillbench?.installedHash).toBe('a'.repeat(64));
    expect(entry?.skillbench?.keptOver).toBeUndefined();
  });
});

describe('one name in two scopes', () => {
  it('an update for the project’s copy leaves the global copy of the same name alone', async () => {
    const dir = await source();
    const inProject = await install(dir);
    const global = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: { kind: 'global' },
      mode: 'copy',
    });
    expect(global.outcomes.map((o) => o.status)).toEqual(['installed']);
    const inHome = join(tmp, 'home', '.claude', 'skills', 'notes');
    for (const copy of [inProject, inHome])
      await writeFile(join(copy, 'references', 'guide.md'), 'Alpha, mine.\nBeta.\nGamma.\n');
    await writeFile(join(dir, 'references', 'checklist.md'), 'Check two.\n');
    const homeBefore = await snapshot(inHome);

    const project_ = { kind: 'project' as const, dir: project };
    expect((await manager.outdated(undefined, project_)).map((e) => e.scope)).toEqual([project_]);
    const outcomes = await manager.update(['notes'], 'take-theirs', undefined, undefined, project_);
    expect(outcomes.map((o) => [o.scope.kind, o.status])).toEqual([['project', 'updated']]);
    expect(await read(inProject, 'references/guide.md')).toBe('Alpha.\nBeta.\nGamma.\n');
    expect(await snapshot(inHome)).toEqual(homeBefore);
  });
});

describe('mergeFolders', () => {
  const text = (t: string) => ({ data: Buffer.from(t), text: t });
  it('the same change on both sides is taken once; a file added on both sides with different text is merged against an empty base', () => {
    const m = mergeFolders(
      new Map([
        ['same.md', { base: text('a\n'), mine: text('b\n'), theirs: text('b\n') }],
        ['both-added.md', { mine: text('x\n'), theirs: text('y\n') }],
      ]),
    );
    expect(m.actions).toEqual([{ path: 'same.md', take: 'mine', data: Buffer.from('b\n') }]);
    expect(m.conflicts).toEqual([
      expect.objectContaining({
        path: 'both-added.md',
        kind: 'text',
        merged: '<<<<<<< mine\nx\n=======\ny\n>>>>>>> theirs\n',
      }),
    ]);
  });

  it('lines both sides changed the same way stay out of a conflict', () => {
    const m = mergeThreeWay('a\nb\nc\n', 'A\nmine\nc\n', 'A\ntheirs\nc\n');
    expect(m.text).toBe('A\n<<<<<<< mine\nmine\n=======\ntheirs\n>>>>>>> theirs\nc\n');
  });
});
