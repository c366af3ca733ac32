import type { CliIO } from './types';

/** A CliIO that records what a command prints, for tests that run the CLI in-process. */
export interface CapturedIO extends CliIO {
  out: string;
  err: string;
}

/**
 * Make a recording io rooted in `cwd` with the given environment. Without one, it carries only the
 * process's SKILLBENCH_USER_DATA (a temp folder under the tests), so a command that finds its
 * user-data folder from its environment never falls back to this machine's.
 */
export function captureIO(
  cwd: string,
  env: Record<string, string | undefined> = {
    SKILLBENCH_USER_DATA: process.env.SKILLBENCH_USER_DATA,
  },
): CapturedIO {
  const io: CapturedIO = {
    out: '',
    err: '',
    stdout(text) {
      io.out += text;
    },
    stderr(text) {
      io.err += text;
    },
    cwd,
    env,
  };
  return io;
}
