import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backdate, LAST_MONTH, LAST_YEAR } from '../testing/file-times';
import { buildWorkerBundle, bundleTestScript } from '../testing/worker-bundle';
import { LibraryMemo, SHARED_MIN_FOLDERS, validateLibrary } from './service';
import { startDeflate, writeArchive, type ArchiveItem } from '../platform/archive-writer';
import { WorkerPool } from '../platform/worker-pool';

// Real worker threads running the real worker bundle, built here from main/workers/worker.ts
// the way scripts/build.mjs builds out/main/worker.mjs.
let tmp: string;
let script: string;
let pool: WorkerPool;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

const skill = (name: string, extra = '', body = ''): string =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when the user asks for ${name}.\n${extra}---\n# ${name}\n${body}`;

/** A library with enough root folders to be shared, and every kind of finding the checks make. */
async function makeLibrary(folder: string): Promise<string> {
  const lib = join(tmp, folder);
  const count = SHARED_MIN_FOLDERS + 12;
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    switch (i % 6) {
      case 0:
        await put(
          `${folder}/${name}/SKILL.md`,
          skill(
            name,
            '',
            'Read [the guide](references/guide.md) and [gone](references/missing.md).\n',
          ),
        );
        await put(`${folder}/${name}/references/guide.md`, '# Guide\n');
        break;
      case 1:
        // Unquoted colon: the YAML does not parse.
        await put(
          `${folder}/${name}/SKILL.md`,
          `---\nname: ${name}\ndescription: Notes: a summary\n---\nBody\n`,
        );
        break;
      case 2:
        // Name differs from the folder, and a second skill elsewhere has the same name.
        await put(`${folder}/${name}/SKILL.md`, skill('shared-name'));
        break;
      case 3:
        // A group folder holding two skills, one nested in the other.
        await put(`${folder}/${name}/inner/SKILL.md`, skill('inner-' + String(i)));
        await put(`${folder}/${name}/inner/deeper/SKILL.md`, skill('deeper-' + String(i)));
        break;
      case 4:
        await put(
          `${folder}/${name}/SKILL.md`,
          skill(
            name,
            `x-personal-mcp:\n  id: ${name}\n  version: 1.0.0\n  depends_on:\n    - no-such-skill\n`,
          ),
        );
        break;
      default:
        await put(`${folder}/${name}/SKILL.md`, skill(name));
        await mkdir(join(lib, name, 'scripts'), { recursive: true });
        await symlink(tmpdir(), join(lib, name, 'scripts', 'outside'));
    }
  }
  await put(`${folder}/node_modules/pkg/SKILL.md`, skill('pkg'));
  await put(`${folder}/loose-file.md`, 'not a skill\n');
  await backdate(lib, LAST_YEAR);
  return lib;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-workers-'));
  script = await buildWorkerBundle(tmp);
  pool = new WorkerPool(script, 2);
}, 60_000);

afterAll(async () => {
  await pool.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('validation workers', () => {
  it('give exactly the result of validating on one thread, findings, order and library checks included', async () => {
    const lib = await makeLibrary('lib1');
    const alone = await validateLibrary(lib, { pool: null });
    const before = pool.completed;
    const shared = await validateLibrary(lib, { pool });
    expect(pool.usable).toBe(true);
    expect(pool.completed - before).toBeGreaterThanOrEqual(2);
    expect(shared).toEqual(alone);
    // The library really has the findings the comparison is about.
    const rules = new Set(alone.skills.flatMap((s) => s.diagnostics.map((d) => d.ruleId)));
    expect(rules).toContain('links/broken');
    expect(rules).toContain('library/duplicate-name');
    expect(rules).toContain('library/depends-on-missing');
    expect(alone.skills.map((s) => s.relativePath)).toContain('skill-003/inner/deeper');
    expect(alone.skills.some((s) => s.relativePath.startsWith('node_modules'))).toBe(false);
    // Profiles given by the caller travel to the workers.
    expect(await validateLibrary(lib, { pool, profiles: ['claude-upload', 'mcp-serve'] })).toEqual(
      await validateLibrary(lib, { pool: null, profiles: ['claude-upload', 'mcp-serve'] }),
    );
  });

  it('check again only the root folders that changed since the memo was made, with the result of a fresh run', async () => {
    const lib = await makeLibrary('lib2');
    const memo = new LibraryMemo();
    expect(await validateLibrary(lib, { pool, memo })).toEqual(
      await validateLibrary(lib, { pool: null }),
    );
    expect(memo.rechecked).toBe(SHARED_MIN_FOLDERS + 12);
    // Nothing changed: every folder reused, and the library findings are not doubled.
    expect(await validateLibrary(lib, { pool, memo })).toEqual(
      await validateLibrary(lib, { pool: null }),
    );
    expect(memo.rechecked).toBe(0);
    // One skill edited, one folder added, one removed.
    await put(
      'lib2/skill-005/SKILL.md',
      skill('skill-005', '', 'Now links [a missing file](nope.md).\n'),
    );
    await put('lib2/zz-new/SKILL.md', skill('shared-name'));
    await rm(join(lib, 'skill-004'), { recursive: true });
    await backdate(join(lib, 'skill-005', 'SKILL.md'), LAST_MONTH);
    await backdate(join(lib, 'zz-new'), LAST_MONTH);
    const after = await validateLibrary(lib, { pool, memo });
    expect(memo.rechecked).toBe(2);
    expect(after).toEqual(await validateLibrary(lib, { pool: null }));
    expect(
      after.skills.find((s) => s.relativePath === 'skill-005')?.diagnostics.map((d) => d.ruleId),
    ).toContain('links/broken');
    // Other profiles: nothing kept applies.
    await validateLibrary(lib, { pool, memo, profiles: ['claude-upload'] });
    expect(memo.rechecked).toBe(SHARED_MIN_FOLDERS + 12);
  });

  it('share a library with the calling thread (the command line), with exactly the one-thread result', async () => {
    const lib = await makeLibrary('lib4');
    const alone = await validateLibrary(lib, { pool: null });
    const helper = new WorkerPool(script, 1, ['validate']);
    helper.warm();
    const before = helper.completed;
    // Whichever parts each thread ends up taking, the outcome is the same.
    expect(await validateLibrary(lib, { pool: helper, callerHelps: true })).toEqual(alone);
    expect(helper.completed - before).toBe(1);
    expect(await validateLibrary(lib, { pool: helper, callerHelps: true })).toEqual(alone);
    // Progress counts every root folder once, whichever thread checked it.
    const done: number[] = [];
    await validateLibrary(lib, {
      pool: helper,
      callerHelps: true,
      onFoldersDone: (n) => done.push(n),
    });
    expect(done.at(-1)).toBe(SHARED_MIN_FOLDERS + 12);
    expect(done.every((n, i) => i === 0 || n > (done[i - 1] ?? 0))).toBe(true);
    // The worker alone: every folder is counted from its reports.
    const reported: number[] = [];
    await validateLibrary(lib, { pool: helper, onFoldersDone: (n) => reported.push(n) });
    expect(reported.at(-1)).toBe(SHARED_MIN_FOLDERS + 12);
    await helper.close();
  });

  it('do the parts a worker took itself when the worker dies before it answers', async () => {
    const lib = await makeLibrary('lib5');
    const alone = await validateLibrary(lib, { pool: null });
    // A worker that takes the first part of whatever it is given, then dies without a word.
    const dying = await bundleTestScript(
      `
        import { parentPort } from 'node:worker_threads';
        import { PartClaims } from '../platform/part-claims';
        parentPort.on('message', (job) => {
          new PartClaims(job.input.claims).takeFront();
          process.exit(3);
        });`,
      dirname(fileURLToPath(import.meta.url)),
      join(tmp, 'dying-worker.mjs'),
    );
    // Without the calling thread's help the worker surely takes a part before it dies.
    const alone1 = new WorkerPool(dying, 1);
    expect(await validateLibrary(lib, { pool: alone1 })).toEqual(alone);
    expect(alone1.usable).toBe(false);
    await alone1.close();
    const helped = new WorkerPool(dying, 1);
    const done: number[] = [];
    expect(
      await validateLibrary(lib, {
        pool: helped,
        callerHelps: true,
        onFoldersDone: (n) => done.push(n),
      }),
    ).toEqual(alone);
    // The part the worker took and never reported is counted when this thread does it.
    expect(done.at(-1)).toBe(SHARED_MIN_FOLDERS + 12);
    await helped.close();
  });

  it('leave small libraries and a skill at the root to the calling thread', async () => {
    await put('small/a/SKILL.md', skill('a'));
    await put('small/b/SKILL.md', skill('b'));
    const broken = new WorkerPool(join(tmp, 'no-such-worker.js'), 2);
    // A pool that cannot start is never asked: the library is too small to share.
    expect(
      (await validateLibrary(join(tmp, 'small'), { pool: broken })).skills.map(
        (s) => s.relativePath,
      ),
    ).toEqual(['a', 'b']);
    expect(broken.usable).toBe(true);
    await broken.close();
  });

  it('fall back to the calling thread when a worker cannot start, with the same result', async () => {
    const lib = await makeLibrary('lib3');
    const broken = new WorkerPool(join(tmp, 'no-such-worker.js'), 2);
    const result = await validateLibrary(lib, { pool: broken });
    expect(broken.usable).toBe(false);
    expect(result).toEqual(await validateLibrary(lib, { pool: null }));
    await broken.close();
  });

  it('deflate a large zip export in half with the calling thread, byte for byte as the encoder alone', async () => {
    const items: ArchiveItem[] = [{ name: 'big/', kind: 'directory', mode: 0o755 }];
    for (let i = 0; i < 150; i++) {
      const text = `# File ${i}\n\n${'notes summary review export '.repeat(20 + (i % 40))}\n`;
      items.push({
        name: `big/refs/f-${String(i).padStart(3, '0')}.md`,
        kind: 'file',
        mode: i % 10 === 0 ? 0o755 : 0o644,
        data: Buffer.from(text),
      });
    }
    items.push({
      name: 'big/assets/noise.bin',
      kind: 'file',
      mode: 0o644,
      data: Buffer.from(Array.from({ length: 4096 }, (_, k) => (k * 7919) % 251)),
    });
    pool.warm();
    expect(pool.live).toBe(true);
    const before = pool.completed;
    const shared = await writeArchive('zip', items, join(tmp, 'shared.zip'), { pool });
    expect(pool.completed - before).toBe(1);
    const alone = await writeArchive('zip', items, join(tmp, 'alone.zip'), { pool: null });
    expect(shared.sha256).toBe(alone.sha256);
    expect(shared.bytes).toBe(alone.bytes);
    // Started early (as an export does before planning): two thirds on the worker, the same bytes.
    const early = startDeflate(
      items.flatMap((i) => (i.data ? [i.data] : [])),
      pool,
    );
    expect(early?.sent.size).toBe(100);
    const started = await writeArchive('zip', items, join(tmp, 'early.zip'), { pool, early });
    expect(started.sha256).toBe(alone.sha256);
  });
});
