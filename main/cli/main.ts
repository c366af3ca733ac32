import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setBundleDir } from './bundle-location';
import { processIO, runCli } from './run';

setBundleDir(dirname(fileURLToPath(import.meta.url)));

/** Entry point of the bundled CLI (out/main/cli.js). */
const code = await runCli(process.argv.slice(2), processIO(), process.env.SKILLBENCH_VERSION ?? '0.1.0');
process.exitCode = code;
