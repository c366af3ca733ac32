import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freeFolderName } from './staged-folder';

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
