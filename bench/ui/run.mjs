// Authoring UI benchmark: builds the renderer if it is missing, bundles bench/ui/bench.ts with
// esbuild into bench/.work/ and runs it; prints a table, never asserts (docs/conventions.md §10).
// Run: node bench/ui/run.mjs   Options: BENCH_SKILLS (5000), BENCH_RUNS (5), BENCH_EDITS (100).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });
// Why always the Node side: the benchmark starts this tree's validation workers from out/main; the renderer only when missing.
buildApp({ renderer: !existsSync(join(root, 'out', 'renderer', 'index.html')) });
const bundle = join(work, 'ui-bench.mjs');
// Why external packages: Playwright and the services' dependencies load from node_modules as they are.
await bundleBench(join(root, 'bench', 'ui', 'bench.ts'), bundle, { external: true });
const run = spawnSync(process.execPath, ['--enable-source-maps', bundle], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_REPO: root },
});
process.exit(run.status ?? 1);
