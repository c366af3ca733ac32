// Builds bench/pack/bench.ts (and the main/pack code it times) with esbuild into
// bench/.work/pack, then runs it. Prints a table, never asserts. Run: node bench/pack/run.mjs
// Options: BENCH_RUNS (default 5).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, 'bench', '.work', 'pack');
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
// Why the Node build: exports share the deflating with the worker threads of out/main/validate-worker.mjs, as the app does.
const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
await build({
  entryPoints: [join(root, 'bench', 'pack', 'bench.ts')],
  outfile: join(work, 'bench.mjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'error',
  // Why a banner: bundled CommonJS dependencies (archiver, yauzl, yaml) call require(); ESM output needs one.
  banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
});
const r = spawnSync(process.execPath, [join(work, 'bench.mjs')], { stdio: 'inherit', cwd: root, env: { ...process.env, BENCH_WORK: work } });
await rm(join(work, 'src'), { recursive: true, force: true });
process.exit(r.status ?? 1);
