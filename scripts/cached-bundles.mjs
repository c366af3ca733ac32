// The bundles loaded with a V8 code cache (main/platform/bundle-cache.ts) and the workers' entry,
// built one way for the app (scripts/build.mjs) and for the tests that run real workers
// (main/testing/worker-bundle.ts):
// - worker.mjs (+ worker-chunks/): the workers' entry, main/workers/worker.ts;
// - validation.cjs: the validation core (main/validate/library-job.ts) as one CommonJS file,
//   which a worker loads as it starts;
// - validate-cli.cjs: `skillbench validate` as one CommonJS file (main/cli/validate-process.ts),
//   which main/cli/main.ts loads for that command;
// - each one's `.cache`: made by loading it in a Node process of its own and running it over a
//   small library of made-up skills (main/cli/bundle-warmup.ts), so the cache holds the code a
//   run compiles, not only the file's top level.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Why a banner: bundled CommonJS dependencies call require(); ESM output needs one.
export const esmBanner = {
  js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
};

/**
 * Mark `dir` as holding ES modules (a package.json of one field), so Node runs the `.js` bundles
 * there as ES modules wherever the folder ends up. Why: in a packaged app the CLI is unpacked from
 * app.asar into a folder with no package.json above it (main/platform/cli-launch.ts), where a `.js`
 * file would otherwise be read as CommonJS. The `.cjs` bundles beside it are unaffected.
 */
export function writeEsmMarker(dir) {
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
}

/**
 * Build the bundles into `outDir` with esbuild options `common` (the app's: defines, source
 * maps, log level); validate-cli.cjs only with `cli` (the default). `cache: true` (the default)
 * also makes the code caches; in any case a cache left from an earlier build is removed first.
 */
export async function buildCachedBundles({ outDir, common = {}, cache = true, cli = true }) {
  // Why: chunk names carry content hashes; old ones would pile up beside the new bundle.
  rmSync(join(outDir, 'worker-chunks'), { recursive: true, force: true });
  for (const name of ['validation.cjs', 'validate-cli.cjs'])
    rmSync(join(outDir, `${name}.cache`), { force: true });
  const base = { bundle: true, platform: 'node', target: 'node20', absWorkingDir: root, ...common };
  // Why CommonJS and one file each: `vm.Script` takes a code cache; Node 20 has none for ES modules.
  // Why import.meta.url is defined: CommonJS has none, and code that finds files beside its bundle
  // (main/cli/support/bundle-location.ts) must find them beside this one.
  // Why dynamic imports are refused: `vm.Script` runs no `import()` without an experimental
  // loader hook (which prints a warning), so one left in these bundles would fail only there.
  const commonJs = async (entry, name) => {
    const result = await build({
      ...base,
      entryPoints: [join(root, entry)],
      outfile: join(outDir, name),
      format: 'cjs',
      metafile: true,
      define: { ...base.define, 'import.meta.url': '__sbImportMetaUrl' },
      banner: { js: 'var __sbImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    });
    const dynamic = Object.values(result.metafile.outputs)
      .flatMap((o) => o.imports)
      .filter((i) => i.kind === 'dynamic-import')
      .map((i) => i.path);
    if (dynamic.length > 0)
      throw new Error(
        `${name} is loaded through vm.Script, which cannot run import(): ${dynamic.join(', ')}. Use require() or a static import.`,
      );
  };
  await Promise.all([
    build({
      ...base,
      // Why .mjs: in a packaged app it is unpacked beside the asar archive, away from package.json's "type".
      // Why splitting: a worker loads only the job kinds it runs (read-ahead must start quickly).
      entryPoints: { worker: join(root, 'main/workers/worker.ts') },
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      chunkNames: 'worker-chunks/[name]-[hash]',
      format: 'esm',
      banner: esmBanner,
    }),
    commonJs('main/validate/library-job.ts', 'validation.cjs'),
    ...(cli ? [commonJs('main/cli/validate-process.ts', 'validate-cli.cjs')] : []),
  ]);
  if (!cache) return;
  const warmup = join(outDir, `.bundle-warmup-${process.pid}.mjs`);
  try {
    await build({
      ...base,
      sourcemap: false,
      entryPoints: [join(root, 'main/cli/bundle-warmup.ts')],
      outfile: warmup,
      format: 'esm',
      banner: esmBanner,
    });
    // Why the environment is kept (NODE_OPTIONS too): V8 takes a cache only under the flags it
    // was made with, and the commands run in the environment that built them.
    const made = spawnSync(process.execPath, [warmup, outDir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // Why not fatal: without a cache the bundle is compiled when loaded, as before caches existed.
    if (made.status !== 0)
      process.stderr.write(
        'Could not make the code caches; the bundles will be compiled when loaded.\n',
      );
  } finally {
    rmSync(warmup, { force: true });
  }
}
