/**
 * The app's worker bundle built for tests from main/workers/worker.ts, the way scripts/build.mjs
 * builds out/main/worker.mjs, so tests run real worker threads from source.
 */
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Build the worker bundle into `dir`; its path. */
export async function buildWorkerBundle(dir: string): Promise<string> {
  const script = join(dir, 'worker.mjs');
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  await build({
    entryPoints: [join(repo, 'main', 'workers', 'worker.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
    },
  });
  return script;
}
