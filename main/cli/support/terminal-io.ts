import { terminalText } from '../../security/terminal-text';
import type { CliIO } from './types';

/**
 * `io` for human-readable output: everything written passes through terminalText with line
 * breaks kept, so no control character from a file, archive or server reaches the terminal raw
 * even where a formatter missed a value. Never for JSON or SARIF, which must stay exact.
 */
export function terminalIO(io: CliIO): CliIO {
  return {
    ...io,
    stdout: (text) => io.stdout(terminalText(text, { lineBreaks: 'keep' })),
    stderr: (text) => io.stderr(terminalText(text, { lineBreaks: 'keep' })),
  };
}
