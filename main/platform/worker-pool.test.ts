import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkerBundle, bundleTestScript } from '../testing/worker-bundle';
import { PartClaims } from './part-claims';
import { WorkerPool } from './worker-pool';

let tmp: string;
let workerScript: string;
let program: string;

// A whole process that starts a pool's workers and then has nothing for them, as `skillbench
// validate` does for a single skill after warming its helper worker; and, given an argument, one
// job first. It must end on its own either way.
const PROGRAM = `
import { WorkerPool } from './worker-pool';
const pool = new WorkerPool(process.argv[2], 2, ['validate']);
pool.warm();
if (process.argv[3] === 'one-job') {
  const { PartClaims } = await import('./part-claims');
  const out = await pool.run('validate', {
    job: { root: '/', realRoot: '/', stamp: false, validate: false },
    parts: [],
    claims: new PartClaims(0).buffer,
  });
  process.stdout.write(JSON.stringify(out));
}
`;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-pool-'));
  workerScript = await buildWorkerBundle(tmp);
  program = await bundleTestScript(
    PROGRAM,
    dirname(fileURLToPath(import.meta.url)),
    join(tmp, 'program.mjs'),
  );
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('WorkerPool', () => {
  it('idle workers, started and never given a job, do not keep the process alive', () => {
    // Why a bound: the failure this guards against is a process that never ends.
    const p = spawnSync(process.execPath, [program, workerScript], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(p.signal).toBeNull();
    expect(p.status, p.stderr).toBe(0);
  });

  it('nor do they once their job is answered', () => {
    const p = spawnSync(process.execPath, [program, workerScript, 'one-job'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(p.signal).toBeNull();
    expect(p.status, p.stderr).toBe(0);
    expect(JSON.parse(p.stdout)).toEqual({ done: 0 });
  });

  it('says when every worker has loaded what it was asked to preload, and at once with none', async () => {
    const idle = new WorkerPool(workerScript, 2, ['validate']);
    await idle.preloaded();
    const pool = new WorkerPool(workerScript, 2, ['validate']);
    pool.warm();
    await pool.preloaded();
    // What they preloaded is the validation core, from validation.cjs beside the worker script.
    const lib = join(tmp, 'preload-lib');
    await mkdir(join(lib, 'one'), { recursive: true });
    await writeFile(
      join(lib, 'one', 'SKILL.md'),
      '---\nname: one\ndescription: Does one thing. Use when asked.\n---\nBody.\n',
    );
    const out = await pool.run('validate', {
      job: { root: lib, realRoot: lib, stamp: false, validate: true },
      parts: [['one']],
      claims: new PartClaims(1).buffer,
    });
    expect(out).toEqual({ done: 1 });
    await pool.close();
  });

  it('says so too when its workers could not start, instead of never', async () => {
    const broken = new WorkerPool(join(tmp, 'no-such-worker.mjs'), 1, ['validate']);
    broken.warm();
    await broken.preloaded();
    expect(broken.usable).toBe(false);
  });
});
