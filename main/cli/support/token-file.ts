/**
 * A bearer token kept in a file, for the commands that take `--token-file` (serve, inspect, catalog). Why
 * a file: every local user can read another user's process arguments (`ps`, /proc/PID/cmdline),
 * but not a private file.
 */
import { readFile, stat } from 'node:fs/promises';
import { fsErrorSentence } from '../../platform/fs-errors';
import { term } from '../../security/terminal-text';
import { UsageError } from './types';

/**
 * The token in `path`, surrounding whitespace ignored, and the warning line for stderr when other
 * users can read the file (which gives the token away as surely as the command line).
 */
export async function readTokenFile(
  path: string,
  command: string,
): Promise<{ token: string; warning?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`Could not read the token file: ${fsErrorSentence(e, path, 'read')}`);
  }
  const mode = (await stat(path)).mode;
  const warning =
    process.platform !== 'win32' && (mode & 0o077) !== 0
      ? term`skillbench ${command}: warning: other users of this computer can read ${path}; make it private with "chmod 600 ${path}".\n`
      : undefined;
  return { token: text.trim(), warning };
}
