// Builds bench/validate/golden.ts with esbuild into bench/.work/ and runs it: writes every
// verdict and diagnostic of a varied corpus to the JSON file given, for before/after diffs.
// Run: node bench/validate/golden.mjs OUT.json
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, 'bench', '.work');
await mkdir(work, { recursive: true });
const bundle = join(work, 'validate-golden.mjs');
await build({
  entryPoints: [join(root, 'bench', 'validate', 'golden.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'error',
  // Why a banner: bundled CommonJS dependencies (yaml, ajv) call require(); ESM output needs one.
  banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
});
const out = resolve(process.argv[2] ?? join(work, 'golden.json'));
const run = spawnSync(process.execPath, [bundle, out], { cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_REPO: root } });
process.exit(run.status ?? 1);
