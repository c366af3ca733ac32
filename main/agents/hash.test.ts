import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderFiles, hashFiles, hashFolder } from './hash';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-hash-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The skills CLI's digest written out plainly: sha256 over each path then its bytes, paths in localeCompare order. */
function cliDigest(files: Record<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const path of Object.keys(files).sort((a, b) => a.localeCompare(b))) {
    hash.update(path);
    hash.update(files[path]);
  }
  return hash.digest('hex');
}

describe('the hash of an installed copy', () => {
  it('is the skills CLI digest, read a piece at a time, whatever the size of a file', async () => {
    const files: Record<string, Buffer> = {
      'SKILL.md': Buffer.from('---\nname: notes\ndescription: Notes.\n---\n'),
      'references/Guide.md': Buffer.from('# Guide\n'),
      'references/guide-2.md': Buffer.from('# Guide 2\n'),
      // Larger than one piece (1 MiB), and not a multiple of it.
      'assets/model.bin': Buffer.alloc(3 * 1024 * 1024 + 17, 7),
    };
    for (const [path, data] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), data);
    }
    // Left out, as the CLI leaves them out: .git, node_modules, a link, a pipe.
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'HEAD'), 'ref: x\n');
    await mkdir(join(dir, 'node_modules', 'x'), { recursive: true });
    await writeFile(join(dir, 'node_modules', 'x', 'index.js'), '');
    await symlink('SKILL.md', join(dir, 'link.md'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const expected = cliDigest(files);
    expect(await hashFolder(dir)).toBe(expected);
    expect(hashFiles(await folderFiles(dir))).toBe(expected);
  });
});
