import { useBuiltWorkers } from '../platform/worker-pool';
import { processIO, runCommands } from './dispatch';
import { setBundleDir } from './support/bundle-location';
import type { CommandEntry } from './support/types';

/**
 * Run the command line as this process, with the commands of `commands`, the bundles being in
 * `bundleDir` (out/main). Returns the exit code.
 */
export function runProcess(
  argv: string[],
  bundleDir: string,
  version: string,
  commands: readonly CommandEntry[],
): Promise<number> {
  setBundleDir(bundleDir);
  // Why here: every command that validates a large library (validate, serve, the browser shell) shares it among worker threads.
  useBuiltWorkers(bundleDir);
  return runCommands(argv, processIO(), version, commands);
}
