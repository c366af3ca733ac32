import type { CommandEntry } from '../support/types';
import { prepareValidate } from './validate-prepare';

/**
 * `skillbench validate` in the command table. Its own module because the command is also built
 * on its own, as one CommonJS file with a code cache (out/main/validate-cli.cjs, see
 * main/cli/validate-process.ts), which must not hold the other commands.
 */
export const VALIDATE_ENTRY: CommandEntry = {
  name: 'validate',
  summary: "Check skills against each reader's rules (text, JSON or SARIF; --fix for safe fixes)",
  load: async () => (await import('./validate')).validateCommand,
  // Why: the worker that checks a library beside this thread starts, and loads the rules,
  // while this thread loads them too (bench/speed/README.md, "Validate on two threads").
  prepare: prepareValidate,
};
