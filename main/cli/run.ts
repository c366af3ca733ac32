import { COMMANDS } from './commands';
import { runCommands } from './dispatch';
import type { CliIO } from './support/types';

export { processIO } from './dispatch';

/** Run the CLI with `argv` (without node and script). Never throws; returns the exit code. */
export function runCli(argv: string[], io: CliIO, version = '0.1.0'): Promise<number> {
  return runCommands(argv, io, version, COMMANDS);
}
