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

/**
 * Bundle a small script written in a test (TypeScript, importing modules relative to `fromDir`)
 * into `outfile`, for a worker thread or a child process to run. Its path.
 */
export async function bundleTestScript(
  source: string,
  fromDir: string,
  outfile: string,
): Promise<string> {
  await build({
    stdin: { contents: source, resolveDir: fromDir, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}
