import type { CliIO } from './types';

/** A CliIO that records what a command prints, for tests that run the CLI in-process. */
export interface CapturedIO extends CliIO {
  out: string;
  err: string;
}

/** Make a recording io rooted in `cwd` with the given environment. */
export function captureIO(cwd: string, env: Record<string, string | undefined> = {}): CapturedIO {
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
