import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useBuiltWorkers } from '../platform/worker-pool';
import { setBundleDir } from './support/bundle-location';
import { processIO, runCli } from './run';

const bundleDir = dirname(fileURLToPath(import.meta.url));
setBundleDir(bundleDir);
// Why here: every command that validates a large library (validate, serve, the browser shell) shares it among worker threads.
useBuiltWorkers(bundleDir);

/** Entry point of the bundled CLI (out/main/cli.js). */
const code = await runCli(
  process.argv.slice(2),
  processIO(),
  process.env.SKILLBENCH_VERSION ?? '0.1.0',
);
process.exitCode = code;
