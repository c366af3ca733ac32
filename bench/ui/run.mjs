// Authoring UI benchmark: builds the renderer if it is missing, bundles bench/ui/bench.ts with
// esbuild into bench/.work/ and runs it; prints a table, never asserts (CONVENTIONS 10).
// Run: node bench/ui/run.mjs   Options: BENCH_SKILLS (5000), BENCH_RUNS (5), BENCH_EDITS (100).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });

// Why always the Node side: the benchmark starts this tree's validation workers from out/main; the renderer only when missing.
const rendererBuilt = existsSync(join(root, 'out', 'renderer', 'index.html'));
const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet', ...(rendererBuilt ? ['--node-only'] : [])], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const bundle = join(work, 'ui-bench.mjs');
await build({
  entryPoints: [join(root, 'bench', 'ui', 'bench.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'error',
  // Why external packages: Playwright and the services' dependencies load from node_modules as they are.
  packages: 'external',
});
const run = spawnSync(process.execPath, ['--enable-source-maps', bundle], { cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_REPO: root } });
process.exit(run.status ?? 1);
