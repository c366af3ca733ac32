// Builds Skillbench: the Node side (CLI, Electron main, preload) with esbuild and the
// renderer with Vite. `--node-only` skips the renderer (used by `prepare`, so `npx skillbench`
// works right after `npm install`).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { buildCachedBundles, esmBanner, writeEsmMarker } from './cached-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const quiet = args.has('--quiet');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const log = (text) => {
  if (!quiet) console.log(text);
};

const common = {
  bundle: true,
  // Why: the server SDK's Node shims with its JSON Schema validator made on first use instead of at
  // load (main/mcp-server/sdk-node-shims.ts says why).
  alias: { '@modelcontextprotocol/server/_shims': './main/mcp-server/sdk-node-shims.ts' },
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
  // The workers' entry, and the bundles loaded with a code cache (the validation core, `validate`).
  buildCachedBundles({ outDir: join(root, 'out', 'main'), common }),
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
writeEsmMarker(join(root, 'out', 'main'));
log(
  'built out/main/cli.js, out/main/worker.mjs, out/main/validation.cjs and validate-cli.cjs (+ code caches), out/main/electron.cjs, out/preload/index.cjs',
);

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
