/**
 * The app's worker bundles built for tests the way scripts/build.mjs builds them into out/main
 * (worker.mjs and the validation core's validation.cjs beside it), so tests run real worker
 * threads from source.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { buildCachedBundles } from '../../scripts/cached-bundles.mjs';

/**
 * Build the worker bundles into `dir`; the worker script's path. No code cache is made: workers
 * compile the validation core, as where a cache is refused (main/platform/bundle-cache.test.ts
 * builds and checks the caches).
 */
export async function buildWorkerBundle(dir: string): Promise<string> {
  await buildCachedBundles({
    outDir: dir,
    cache: false,
    cli: false,
    common: { logLevel: 'error' },
  });
  return join(dir, 'worker.mjs');
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
