import { readdir } from 'node:fs/promises';
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
    bytes: new Map([[uri, Buffer.from(`---\nname: x\ndescription: d\n---\n`)]]),
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
