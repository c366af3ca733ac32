/** Where a CLI command writes and what it runs in; tests pass their own to capture output. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** One `skillbench <name>` subcommand. Exit codes: 0 ok, 1 findings/refusal, 2 usage or I/O problem. */
export interface CliCommand {
  name: string;
  /** Full usage text for `skillbench <name> --help`. */
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** Thrown by argument parsing; printed with the usage and exit code 2. */
export class UsageError extends Error {}

/**
 * A subcommand, loaded only when it runs, so start-up parses only what is used. Its one-line
 * summary lives here, so `skillbench --help` (and a mistyped command) loads no command at all.
 */
export interface CommandEntry {
  name: string;
  /** The line `skillbench --help` shows for it. */
  summary: string;
  load: () => Promise<CliCommand>;
  /**
   * Work to start before the command's modules load (tens of milliseconds), so that it runs
   * meanwhile: given the command's arguments, never called for `--help`.
   */
  prepare?: (args: readonly string[]) => void;
}
