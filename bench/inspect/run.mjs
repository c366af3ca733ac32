// Inspector benchmark: builds bench/inspect/bench.ts and the CLI with esbuild
// into bench/.work/ and runs it; prints a table, never asserts (docs/conventions.md §10).
// Run: node bench/inspect/run.mjs   Options: BENCH_SKILLS (default 1000), BENCH_RUNS (default 3),
// BENCH_NO_PEER=1 to skip the official MCP Inspector CLI (it needs the npm registry).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });

// Why a banner: bundled CommonJS dependencies (yaml, ajv) call require(); ESM output needs one.
const banner = {
  js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
};
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'error',
  banner,
  absWorkingDir: root,
};
await build({
  ...common,
  entryPoints: [join(root, 'main', 'cli', 'main.ts')],
  outfile: join(work, 'inspect-cli.mjs'),
});
await build({
  ...common,
  entryPoints: [join(root, 'bench', 'inspect', 'bench.ts')],
  outfile: join(work, 'inspect-bench.mjs'),
  sourcemap: 'linked',
});

const run = spawnSync(process.execPath, ['--enable-source-maps', join(work, 'inspect-bench.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_REPO: root, BENCH_CLI: join(work, 'inspect-cli.mjs') },
});
process.exit(run.status ?? 1);
