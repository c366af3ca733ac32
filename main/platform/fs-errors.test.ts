import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderProblem } from './fs-errors';

// What a person (or a file someone left for them) can put where a library or project is asked
// for: the check only looks (stat), so nothing there is opened or read.
describe('folderProblem', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'sb-folder-problem-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('accepts a folder, and a link to one (the folder the person named)', async () => {
    await mkdir(join(tmp, 'lib'));
    await symlink(join(tmp, 'lib'), join(tmp, 'lib-link'));
    expect(await folderProblem(join(tmp, 'lib'), 'library')).toBeUndefined();
    expect(await folderProblem(join(tmp, 'lib-link'), 'project')).toBeUndefined();
  });

  it('refuses a file, a pipe and a dangling link in plain words, without opening them', async () => {
    await writeFile(join(tmp, 'notes.txt'), 'x');
    await symlink(join(tmp, 'gone'), join(tmp, 'dangling'));
    const fifo = join(tmp, 'fifo');
    // Why a real FIFO: opening one for reading would wait forever for a writer.
    execFileSync('mkfifo', [fifo]);
    expect(await folderProblem(join(tmp, 'notes.txt'), 'library')).toEqual({
      code: 'not-a-folder',
      message: `${join(tmp, 'notes.txt')} is a file, not a folder. Choose the folder that holds your skills.`,
    });
    expect((await folderProblem(fifo, 'project'))?.code).toBe('not-a-folder');
    expect((await folderProblem(join(tmp, 'dangling'), 'library'))?.message).toBe(
      `Nothing exists at ${join(tmp, 'dangling')}. Check the spelling.`,
    );
    expect((await folderProblem(join(tmp, 'notes.txt', 'below'), 'project'))?.message).toBe(
      `There is no project folder at ${join(tmp, 'notes.txt', 'below')}. Check the spelling.`,
    );
  });
});
