// Validation benchmark: builds bench/validate/bench.ts with esbuild into bench/.work/ and runs
// it; prints a table, never asserts (docs/conventions.md §10). Run: node bench/validate/run.mjs
// Options: BENCH_SKILLS, BENCH_RUNS, BENCH_EDITS; BENCH_ONLY=a|b|c|d with --cpu-prof to profile one measure.
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });
// Why: (c) times the real CLI and (a) the validation workers, which run from out/main; rebuild them so they are this tree's code.
buildApp();
const bundle = join(work, 'validate-bench.mjs');
await bundleBench(join(root, 'bench', 'validate', 'bench.ts'), bundle);
// The worker of row (a‴): the walk and the SKILL.md reads alone, on as many threads as (a) uses.
await bundleBench(
  join(root, 'bench', 'validate', 'floor-worker.ts'),
  join(work, 'validate-floor-worker.mjs'),
);

const nodeFlags = process.argv.slice(2).filter((a) => a.startsWith('--cpu-prof'));
if (nodeFlags.length > 0) nodeFlags.push(`--cpu-prof-dir=${join(work, 'profiles')}`);
const run = spawnSync(process.execPath, [...nodeFlags, '--enable-source-maps', bundle], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_REPO: root },
});
process.exit(run.status ?? 1);
