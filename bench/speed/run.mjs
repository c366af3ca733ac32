// The speed benchmark (the four workloads of the speed issue beside their peers, in turns):
// builds the app's Node side (the CLI it times is out/main/cli.js), bundles the benchmark and the
// official SDK v2 server (bench/server/peer-server.ts) into bench/.work/speed, installs the
// skill-check peer into bench/.work/peers (never the project's dependencies), and runs it.
// Prints a table, never asserts (docs/conventions.md §10).
// Run: node bench/speed/run.mjs [--skills 1000] [--pairs 5] [--warm-passes 2] [--no-inspect]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work', 'speed');
const peers = join(root, 'bench', '.work', 'peers');
await mkdir(work, { recursive: true });
buildApp();
await bundleBench(join(root, 'bench', 'speed', 'bench.ts'), join(work, 'bench.mjs'));
await bundleBench(join(root, 'bench', 'server', 'peer-server.ts'), join(work, 'peer-server.mjs'), {
  sourcemap: false,
});
// Why pinned: the comparison is with skill-check 1.2.0.
if (!existsSync(join(peers, 'node_modules', 'skill-check', 'package.json'))) {
  await mkdir(peers, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      peers,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      'skill-check@1.2.0',
    ],
    { stdio: 'inherit', cwd: peers },
  );
  if (r.status !== 0) console.error('Could not install skill-check 1.2.0; its row is skipped.');
}
const r = spawnSync(
  process.execPath,
  ['--enable-source-maps', join(work, 'bench.mjs'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root, env: { ...process.env, BENCH_WORK: work, BENCH_REPO: root } },
);
process.exit(r.status ?? 1);
