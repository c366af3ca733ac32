// Safety review benchmark: builds bench/safety/bench.ts with esbuild into bench/.work/ and runs
// it; prints the table, never asserts (docs/conventions.md §10). Run: node bench/safety/run.mjs
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });
// Why: the folder row times the real CLI, which runs from out/main; rebuild it from this tree.
buildApp();
const bundle = join(work, 'safety-bench.mjs');
await bundleBench(join(root, 'bench', 'safety', 'bench.ts'), bundle);
const run = spawnSync(process.execPath, ['--enable-source-maps', bundle], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_REPO: root },
});
process.exit(run.status ?? 1);
