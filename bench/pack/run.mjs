// Builds bench/pack/bench.ts (and the main/pack code it times) with esbuild into
// bench/.work/pack, then runs it. Prints a table, never asserts. Run: node bench/pack/run.mjs
// Options: BENCH_RUNS (default 5).
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work', 'pack');
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
// Why the Node build: exports share the deflating with the worker threads of out/main/worker.mjs, as the app does.
buildApp();
await bundleBench(join(root, 'bench', 'pack', 'bench.ts'), join(work, 'bench.mjs'), {
  sourcemap: false,
});
const r = spawnSync(process.execPath, [join(work, 'bench.mjs')], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, BENCH_WORK: work },
});
await rm(join(work, 'src'), { recursive: true, force: true });
process.exit(r.status ?? 1);
