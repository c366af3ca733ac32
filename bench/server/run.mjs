// Builds the app (scripts/build.mjs), and the benchmark and the peer server with esbuild into
// bench/.work/server, then runs it.
// Usage: node bench/server/run.mjs [--skills 1000]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, 'bench', '.work', 'server');
const banner = {
  js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
};
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner,
  logLevel: 'error',
  absWorkingDir: root,
};
// Ours is timed as users run it: the app's own build (out/main/cli.js with its worker bundle).
const built = spawnSync(
  process.execPath,
  [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'],
  {
    stdio: 'inherit',
    cwd: root,
  },
);
if (built.status !== 0) process.exit(built.status ?? 1);
await Promise.all([
  build({
    ...common,
    entryPoints: ['bench/server/peer-server.ts'],
    outfile: join(work, 'peer-server.mjs'),
  }),
  build({ ...common, entryPoints: ['bench/server/bench.ts'], outfile: join(work, 'bench.mjs') }),
]);
const r = spawnSync(process.execPath, [join(work, 'bench.mjs'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, BENCH_WORK: work, BENCH_CLI: join(root, 'out', 'main', 'cli.js') },
});
process.exit(r.status ?? 1);
