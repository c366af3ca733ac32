// What the benchmarks' run.mjs scripts share: building this tree's app bundles and bundling a
// benchmark body with esbuild.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Build the app with scripts/build.mjs (the Node side only unless `renderer`), exiting on
 * failure. Why benchmarks build: they time this tree's code, including the CLI and the
 * validation workers that run from out/main.
 */
export function buildApp({ renderer = false } = {}) {
  const built = spawnSync(
    process.execPath,
    [join(root, 'scripts', 'build.mjs'), '--quiet', ...(renderer ? [] : ['--node-only'])],
    { cwd: root, stdio: 'inherit' },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/**
 * Bundle a benchmark body (`bench/<name>/bench.ts`) into one ESM file. `external`: leave the
 * packages in node_modules (Playwright); otherwise they are bundled, and the banner gives the
 * CommonJS ones (yaml, ajv, archiver) the `require` they call. `nodePaths`: more folders to find
 * packages in after the project's node_modules (a peer the bench installed apart).
 */
export async function bundleBench(
  entry,
  outfile,
  { external = false, sourcemap = true, nodePaths = [] } = {},
) {
  await build({
    nodePaths,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: sourcemap ? 'linked' : false,
    logLevel: 'error',
    ...(external
      ? { packages: 'external' }
      : {
          banner: {
            js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
          },
        }),
  });
}
