// Entry point of the bundled CLI (out/main/cli.js). `skillbench validate` runs from its own
// CommonJS bundle with the code cache made when it was built (main/cli/validate-process.ts); every
// command, validate included where that bundle is missing, runs from the split ES modules, each
// command loaded only when it runs. Why nothing else is imported here: what this file imports
// loads before either, so it would load twice for `validate`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle, VALIDATE_CLI_BUNDLE } from '../platform/bundle-cache';
import type * as ValidateProcess from './validate-process';

const bundleDir = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const version = process.env.SKILLBENCH_VERSION ?? '0.1.0';
const own = join(bundleDir, VALIDATE_CLI_BUNDLE);

async function runFromModules(): Promise<number> {
  const [{ runProcess }, { COMMANDS }] = await Promise.all([
    import('./process'),
    import('./commands'),
  ]);
  return runProcess(argv, bundleDir, version, COMMANDS);
}

process.exitCode =
  argv[0] === 'validate' && existsSync(own)
    ? await loadBundle<typeof ValidateProcess>(own).exports.runValidateProcess(
        argv,
        bundleDir,
        version,
      )
    : await runFromModules();
