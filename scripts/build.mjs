// Builds Skillbench: the Node side (CLI, Electron main, preload) with esbuild and the
// renderer with Vite. `--node-only` skips the renderer (used by `prepare`, so `npx skillbench`
// works right after `npm install`).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync, rmSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const quiet = args.has('--quiet');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const log = (text) => {
  if (!quiet) console.log(text);
};

// Why a banner: bundled CommonJS dependencies call require(); ESM output needs one.
const esmBanner = {
  js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
};
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: quiet ? 'error' : 'warning',
  // SKILLBENCH_BUILD: a fresh id per build, so findings cached by another build are not reused (main/library/listing-cache.ts).
  define: {
    'process.env.SKILLBENCH_VERSION': JSON.stringify(version),
    'process.env.SKILLBENCH_BUILD': JSON.stringify(`${version}+${Date.now().toString(36)}`),
  },
  absWorkingDir: root,
};

// Why: chunk names carry content hashes; old ones would pile up beside the new bundle.
rmSync(join(root, 'out', 'main', 'cli-chunks'), { recursive: true, force: true });
rmSync(join(root, 'out', 'main', 'worker-chunks'), { recursive: true, force: true });

await Promise.all([
  build({
    ...common,
    // Why splitting: each command is its own chunk, so `skillbench validate` never parses the MCP SDK.
    entryPoints: { cli: 'main/cli/main.ts' },
    outdir: 'out/main',
    entryNames: '[name]',
    chunkNames: 'cli-chunks/[name]-[hash]',
    splitting: true,
    format: 'esm',
    banner: esmBanner,
  }),
  build({
    ...common,
    // Why its own bundle: worker threads start from a file; it holds only the walk and the validation core.
    // Why .mjs: in a packaged app it is unpacked beside the asar archive, away from package.json's "type".
    // Why splitting: a worker loads only the job kinds it runs (read-ahead must start quickly).
    entryPoints: { worker: 'main/workers/worker.ts' },
    outdir: 'out/main',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'worker-chunks/[name]-[hash]',
    format: 'esm',
    banner: esmBanner,
  }),
  build({
    ...common,
    entryPoints: ['main/electron/main.ts'],
    outfile: 'out/main/electron.cjs',
    format: 'cjs',
    external: ['electron'],
  }),
  build({
    ...common,
    // Why CJS and one file: a sandboxed preload can only require('electron') (Electron docs, "Process Sandboxing").
    entryPoints: ['preload/index.ts'],
    outfile: 'out/preload/index.cjs',
    format: 'cjs',
    platform: 'node',
    external: ['electron'],
  }),
]);
log('built out/main/cli.js, out/main/worker.mjs, out/main/electron.cjs, out/preload/index.cjs');

if (!args.has('--node-only')) {
  const vite = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'renderer/vite.config.ts',
      ...(quiet ? ['--logLevel', 'error'] : []),
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  log('built out/renderer');
}
