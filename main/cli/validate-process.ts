// Entry of out/main/validate-cli.cjs: `skillbench validate` as a process, the command and only it,
// built as one CommonJS file that main/cli/main.ts loads with the code cache made at build time
// (main/platform/bundle-cache.ts). Why: a check of a whole library is over in about a quarter of
// a second, and compiling the command's code (the rules, the YAML reader, the report) was a tenth
// of it on the main thread (bench/speed/README.md, "The validation code with a code cache").
// The command is the same module as in the full table (main/cli/commands/validate-entry.ts).
import { VALIDATE_ENTRY } from './commands/validate-entry';
import { runProcess } from './process';

/** `skillbench validate …` (argv from the command's name on). Returns the exit code. */
export function runValidateProcess(
  argv: string[],
  bundleDir: string,
  version: string,
): Promise<number> {
  return runProcess(argv, bundleDir, version, [VALIDATE_ENTRY]);
}
