// The command line's dispatcher: a command table, the process's streams, help and errors. It
// holds no table of its own, so a bundle of one command (main/cli/validate-process.ts) has only
// that command's code.
import { term } from '../security/terminal-text';
import { UsageError, type CliIO, type CommandEntry } from './support/types';
import { didYouMean } from '../../shared/text/edit-distance';
import { unexpectedErrorSentence } from '../platform/fs-errors';

/**
 * A writer to one of the process's streams that outlives its reader. Why: `skillbench validate
 * LIB --format json | head` closes the pipe while the report is being written, and the write
 * error (EPIPE) on a stream without an error listener ends the process with a stack trace. A
 * closed reader wants no more output; the command finishes and exits with its own code.
 */
function streamWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', () => {
    closed = true;
  });
  return (text) => {
    if (!closed && !stream.destroyed) stream.write(text);
  };
}

/** The process's own streams, for the real binary. */
export function processIO(): CliIO {
  return {
    stdout: streamWriter(process.stdout),
    stderr: streamWriter(process.stderr),
    cwd: process.cwd(),
    env: process.env,
  };
}

function helpText(version: string, commands: readonly CommandEntry[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `skillbench ${version} — a workbench for Agent Skills (SKILL.md)`,
    '',
    'Usage: skillbench <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    "Run `skillbench help <command>` (or `skillbench <command> --help`) for a command's options.",
    '',
  ].join('\n');
}

/**
 * Run `argv` with the commands of `commands` (the whole table, or the one command a bundle of
 * its own holds: main/cli/validate-process.ts). Never throws; returns the exit code.
 */
export async function runCommands(
  argv: string[],
  io: CliIO,
  version: string,
  commands: readonly CommandEntry[],
): Promise<number> {
  // `skillbench help validate` is `skillbench validate --help`.
  const [name, ...rest] = argv[0] === 'help' && argv[1] !== undefined ? [argv[1], '--help'] : argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText(version, commands));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${version}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const guess = didYouMean(
      name,
      commands.map((c) => c.name),
    );
    const hint = guess ? ` Did you mean \`skillbench ${guess}\`?` : '';
    io.stderr(
      `${term`skillbench: There is no command "${name}".`}${hint}\n\n${helpText(version, commands)}`,
    );
    return 2;
  }
  // Why only before a bare --: what follows it is a folder's name or a server's command line.
  const dashes = rest.indexOf('--');
  const own = dashes < 0 ? rest : rest.slice(0, dashes);
  const help = own.includes('--help') || own.includes('-h');
  if (!help) entry.prepare?.(rest);
  const command = await entry.load();
  if (help) {
    io.stdout(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${term`skillbench ${name}: ${error.message}`}\n\n${command.usage.trimEnd()}\n`);
      return 2;
    }
    io.stderr(term`skillbench ${name}: ${unexpectedErrorSentence(error)}\n`);
    return 2;
  }
}
