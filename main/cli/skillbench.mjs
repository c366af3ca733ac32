#!/usr/bin/env node
// The `skillbench` command. It runs the bundled CLI (out/main/cli.js), which `npm install`
// builds through the `prepare` script; when it is missing (a clone without install scripts),
// it builds it once with esbuild and carries on.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = join(root, 'out', 'main', 'cli.js');
if (!existsSync(bundle)) {
  const built = spawnSync(
    process.execPath,
    [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (built.status !== 0 || !existsSync(bundle)) {
    process.stderr.write(
      'skillbench: the command-line tool is not built. Run `npm run build` in ' + root + '\n',
    );
    process.exit(2);
  }
}
await import(pathToFileURL(bundle).href);
