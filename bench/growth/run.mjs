// Growth benchmark: bundles bench/growth/bench.ts and its worker with esbuild into
// bench/.work/growth and runs it; prints a table, never asserts (docs/conventions.md §10).
// Run: node bench/growth/run.mjs
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work', 'growth');
await mkdir(work, { recursive: true });
// Why no app build: the cases time the validation core from source (shared/, its link check
// included), not the bundles in out/main.
await bundleBench(join(root, 'bench', 'growth', 'bench.ts'), join(work, 'bench.mjs'), {
  sourcemap: false,
});
await bundleBench(join(root, 'bench', 'growth', 'worker.ts'), join(work, 'worker.mjs'), {
  sourcemap: false,
});
const r = spawnSync(process.execPath, [join(work, 'bench.mjs')], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, BENCH_WORK: work },
});
process.exit(r.status ?? 1);
