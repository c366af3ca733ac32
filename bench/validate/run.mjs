// Validation benchmark: builds bench/validate/bench.ts with esbuild into bench/.work/ and runs
// it; prints a table, never asserts (CONVENTIONS 10). Run: node bench/validate/run.mjs
// Options: BENCH_SKILLS, BENCH_RUNS, BENCH_EDITS; BENCH_ONLY=a|b|c|d with --cpu-prof to profile one measure.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });

// Why: (c) times the real CLI, which runs out/main/cli.js; rebuild it so it is this tree's code.
const cli = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
if (cli.status !== 0) process.exit(cli.status ?? 1);

const bundle = join(work, 'validate-bench.mjs');
await build({
  entryPoints: [join(root, 'bench', 'validate', 'bench.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'error',
  // Why a banner: bundled CommonJS dependencies (yaml, ajv) call require(); ESM output needs one.
  banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
});

const nodeFlags = process.argv.slice(2).filter((a) => a.startsWith('--cpu-prof'));
if (nodeFlags.length > 0) nodeFlags.push(`--cpu-prof-dir=${join(work, 'profiles')}`);
const run = spawnSync(process.execPath, [...nodeFlags, '--enable-source-maps', bundle], { cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_REPO: root } });
process.exit(run.status ?? 1);
