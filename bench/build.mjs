// What the benchmarks' run.mjs scripts share: building this tree's app bundles and bundling a
// benchmark body with esbuild.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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

/**
 * Install a pinned peer package (`name@version`) into `dir` (under bench/.work, never the
 * project's dependencies) unless it is there already; whether it is there now. Nothing it brings
 * runs at install (`--ignore-scripts`). `legacyPeerDeps`: leave out its peer dependencies, so it
 * runs on the packages the project already has (found up the folders from `dir`). One package
 * per folder: an install into a folder removes what an earlier one put there.
 */
export function installPeer(dir, spec, { legacyPeerDeps = false } = {}) {
  const name = spec.slice(0, spec.lastIndexOf('@'));
  const installed = () => existsSync(join(dir, 'node_modules', ...name.split('/'), 'package.json'));
  if (installed()) return true;
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund'];
  args.push('--ignore-scripts', ...(legacyPeerDeps ? ['--legacy-peer-deps'] : []), spec);
  spawnSync(npm, args, { stdio: 'inherit', cwd: dir });
  return installed();
}
