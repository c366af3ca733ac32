import type { CliCommand } from '../types';
import { importCommand } from './import';
import { inspectCommand } from './inspect';
import { packCommand } from './pack';
import { serveCommand } from './serve';
import { validateCommand } from './validate';
import { webCommand } from './web';

/** Every subcommand, in the order `--help` lists them. Each lives in its own module. */
export const COMMANDS: readonly CliCommand[] = [
  validateCommand,
  packCommand,
  importCommand,
  serveCommand,
  inspectCommand,
  webCommand,
];
