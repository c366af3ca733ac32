// Builds bench/validate/golden.ts with esbuild into bench/.work/ and runs it: writes every
// verdict and diagnostic of a varied corpus to the JSON file given, for before/after diffs.
// Run: node bench/validate/golden.mjs OUT.json
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });
const bundle = join(work, 'validate-golden.mjs');
await bundleBench(join(root, 'bench', 'validate', 'golden.ts'), bundle, { sourcemap: false });
const out = resolve(process.argv[2] ?? join(work, 'golden.json'));
const run = spawnSync(process.execPath, [bundle, out], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_REPO: root },
});
process.exit(run.status ?? 1);
