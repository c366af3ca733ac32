// The speed benchmark (the four workloads of the speed issue beside their peers, in turns):
// builds the app's Node side (the CLI it times is out/main/cli.js), bundles the benchmark and the
// official SDK v2 server (bench/server/peer-server.ts, and peer-http-server.mjs on the official
// Node HTTP transport) into bench/.work/speed, installs the skill-check peer into
// bench/.work/peers and @modelcontextprotocol/node into bench/.work/peer-http (never the
// project's dependencies), and runs it.
// Prints a table, never asserts (docs/conventions.md §10).
// Run: node bench/speed/run.mjs [--skills 1000] [--pairs 5] [--warm-passes 2] [--no-inspect]
//      node bench/speed/run.mjs --against COMMIT [--skills 1000] [--pairs 9]
// With --against, the commit is built into bench/.work/against/<commit> (with this tree's
// node_modules) and only start-up and a full validate are timed, this tree and that build in turns.
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, installPeer, root } from '../build.mjs';

const work = join(root, 'bench', '.work', 'speed');
const peers = join(root, 'bench', '.work', 'peers');
await mkdir(work, { recursive: true });
buildApp();
await bundleBench(join(root, 'bench', 'speed', 'bench.ts'), join(work, 'bench.mjs'));
await bundleBench(join(root, 'bench', 'server', 'peer-server.ts'), join(work, 'peer-server.mjs'), {
  sourcemap: false,
});
// Why pinned: the comparison is with skill-check 1.2.0.
if (!installPeer(peers, 'skill-check@1.2.0'))
  console.error('Could not install skill-check 1.2.0; its row is skipped.');
// The HTTP peer: the official Node Streamable HTTP transport, in a folder of its own (an install
// into the peers' folder would remove skill-check there). Why without its peer dependency: it then
// runs on this project's @modelcontextprotocol/server, the same SDK the stdio peer runs.
const peerHttp = join(root, 'bench', '.work', 'peer-http');
const withPeerHttp = installPeer(peerHttp, '@modelcontextprotocol/node@2.1.2', {
  legacyPeerDeps: true,
});
if (!withPeerHttp)
  console.error(
    'Could not install @modelcontextprotocol/node 2.1.2; the official HTTP server is not timed.',
  );
await rm(join(work, 'peer-http-server.mjs'), { force: true });
if (withPeerHttp)
  await bundleBench(
    join(root, 'bench', 'server', 'peer-http-server.mjs'),
    join(work, 'peer-http-server.mjs'),
    { sourcemap: false, nodePaths: [join(peerHttp, 'node_modules')] },
  );
/** Build `ref` (a commit of this repository) into its own folder; its root, or exit with why not. */
async function buildCommit(ref) {
  const sha = spawnSync('git', ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  });
  if (sha.status !== 0) {
    console.error(`--against: ${ref} is not a commit of this repository.`);
    process.exit(2);
  }
  const commit = sha.stdout.trim();
  const dir = join(root, 'bench', '.work', 'against', commit.slice(0, 12));
  if (existsSync(join(dir, 'out', 'main', 'cli.js'))) return { dir, commit };
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tar = join(dir, '..', `${commit.slice(0, 12)}.tar`);
  const steps = [
    ['git', ['archive', '--format=tar', '-o', tar, commit], root],
    ['tar', ['-xf', tar, '-C', dir], root],
  ];
  for (const [cmd, argv, cwd] of steps) {
    const r = spawnSync(cmd, argv, { cwd, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  await rm(tar, { force: true });
  // Why this tree's packages: the commit is timed as built, not as installed on another day.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'junction');
  const built = spawnSync(
    process.execPath,
    [join(dir, 'scripts', 'build.mjs'), '--node-only', '--quiet'],
    { cwd: dir, stdio: 'inherit' },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
  return { dir, commit };
}

const args = process.argv.slice(2);
const at = args.indexOf('--against');
const env = { ...process.env, BENCH_WORK: work, BENCH_REPO: root };
if (at >= 0) {
  const ref = args[at + 1];
  if (ref === undefined || ref.startsWith('--')) {
    console.error('--against needs a commit (a hash, a tag or a branch).');
    process.exit(2);
  }
  const { dir, commit } = await buildCommit(ref);
  env.BENCH_AGAINST = dir;
  env.BENCH_AGAINST_LABEL = commit.slice(0, 7);
  args.splice(at, 2);
}
const r = spawnSync(process.execPath, ['--enable-source-maps', join(work, 'bench.mjs'), ...args], {
  stdio: 'inherit',
  cwd: root,
  env,
});
process.exit(r.status ?? 1);
