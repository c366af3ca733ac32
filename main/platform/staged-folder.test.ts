import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backdate, LAST_YEAR } from '../testing/file-times';
import { freeFolderName, writeFolder } from './staged-folder';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-free-name-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the "Keep both" name', () => {
  it('is the first name-N nothing in the folder uses', async () => {
    await mkdir(join(dir, 'notes'));
    await mkdir(join(dir, 'notes-2'));
    expect(await freeFolderName(dir, 'notes', 64)).toBe('notes-3');
  });

  it('stays within the name limit: a long name is shortened to make room, never ending in a hyphen', async () => {
    const long = `${'a'.repeat(61)}-bc`;
    expect(long).toHaveLength(64);
    const first = await freeFolderName(dir, long, 64);
    expect(first).toBe(`${'a'.repeat(61)}-2`);
    expect(first.length).toBeLessThanOrEqual(64);
    for (let n = 2; n <= 10; n++) await mkdir(join(dir, `${'a'.repeat(61)}-${n}`));
    const later = await freeFolderName(dir, long, 64);
    expect(later).toBe(`${'a'.repeat(61)}-11`);
    expect(later.length).toBeLessThanOrEqual(64);
  });
});

describe('stages a killed process left behind', () => {
  it('are removed by the next write into that folder once over an hour old; a recent one, a file and a link are left', async () => {
    const left = join(dir, '.skillbench-stage-0123456789ab');
    await mkdir(join(left, 'references'), { recursive: true });
    await writeFile(join(left, 'SKILL.md'), 'half written');
    await backdate(left, LAST_YEAR);
    const recent = join(dir, '.skillbench-stage-recent00000');
    await mkdir(recent);
    const outside = join(dir, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'mine');
    await symlink(outside, join(dir, '.skillbench-stage-link00000000'));
    await backdate(join(dir, '.skillbench-stage-link00000000'), LAST_YEAR);
    await writeFile(join(dir, '.skillbench-stage-file00000000'), 'not a folder');
    await backdate(join(dir, '.skillbench-stage-file00000000'), LAST_YEAR);
    await writeFolder(join(dir, 'notes'), [
      { path: 'SKILL.md', data: Buffer.from('---\nname: notes\n---\n'), mode: 0o644 },
    ]);
    expect((await readdir(dir)).sort()).toEqual([
      '.skillbench-stage-file00000000',
      '.skillbench-stage-link00000000',
      '.skillbench-stage-recent00000',
      'notes',
      'outside',
    ]);
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
  });
});
