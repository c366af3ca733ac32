// Builds this tree's CLI and the soak driver with esbuild into bench/.work/soak, then runs the soak:
// 50 MCP clients reading files with digest checks for 60 s against one `skillbench serve --http`
// process on 127.0.0.1, printing requests, errors, digest mismatches and the server's RSS.
// Usage: node bench/soak/run.mjs [--clients 50] [--seconds 60] [--cli PATH (another build's cli.mjs)]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work', 'soak');
await Promise.all([
  bundleBench(join(root, 'main', 'cli', 'main.ts'), join(work, 'cli.mjs'), { sourcemap: false }),
  bundleBench(join(root, 'bench', 'soak', 'soak.ts'), join(work, 'soak.mjs')),
]);
const r = spawnSync(process.execPath, [join(work, 'soak.mjs'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, BENCH_WORK: work },
});
process.exit(r.status ?? 1);
