/**
 * The command line run in this process with a recording io, for command tests: the exit code and
 * what it printed. One helper, so every command's tests run it the same way.
 */
import { runCli } from '../cli/run';
import { captureIO } from '../cli/support/capture-io';

/** What one in-process run gave. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Run `skillbench ARGS…` in `cwd` (with `env` as the process environment; without one, only the
 * tests' user-data folder: main/cli/support/capture-io.ts) and capture it.
 */
export async function runCliCaptured(
  args: readonly string[],
  cwd: string,
  env?: Record<string, string | undefined>,
): Promise<CliRun> {
  const io = captureIO(cwd, env);
  const code = await runCli([...args], io);
  return { code, out: io.out, err: io.err };
}
