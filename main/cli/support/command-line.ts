/**
 * The one reader of a command's arguments: every `skillbench` command reads its options through
 * `readCommandLine`, so `--format=json` and `--format json`, an option nobody knows, a missing
 * value and a folder whose name starts with "-" read and are answered the same way in each.
 * Why `node:util` parseArgs: it is Node's own, strict, and gives the order of what it read (the
 * tokens), which the commands whose options belong to what comes before them need.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './types';
import { unknownOption } from './words';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Read<O extends Options> {
  args: string[];
  options: O;
  strict: true;
  allowPositionals: true;
  tokens: true;
}

/** What was read: the options' values, the positionals in order, and the tokens in order. */
export type CommandLine<O extends Options> = ReturnType<typeof parseArgs<Read<O>>> & {
  /** The arguments after a bare `--`, or undefined when there is none. */
  afterDashes: string[] | undefined;
};

/**
 * Reads `args` for `skillbench COMMAND`: options as `--name value` or `--name=value`, anything
 * else a positional, everything after `--` a positional. A usage error in plain words otherwise.
 */
export function readCommandLine<const O extends Options>(
  command: string,
  args: string[],
  options: O,
  takes: { positionals: boolean } = { positionals: true },
): CommandLine<O> {
  let read;
  try {
    read = parseArgs({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    throw new UsageError(parseProblem(error, command, args));
  }
  const extra = read.positionals[0];
  if (!takes.positionals && extra !== undefined)
    throw new UsageError(
      `skillbench ${command} takes no folder or name; "${extra}" is one too many. Run \`skillbench ${command} --help\` to see the options.`,
    );
  const dashes = read.tokens.find((t) => t.kind === 'option-terminator');
  return { ...read, afterDashes: dashes ? args.slice(dashes.index + 1) : undefined };
}

/**
 * A plain sentence for what parseArgs refused. Why: its messages are written for developers; an
 * argument that starts with `-` (a folder named `-my-skill`) needs the `--` hint in words a
 * newcomer follows.
 */
function parseProblem(error: unknown, command: string, args: readonly string[] = []): string {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? String(error);
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const named = /'([^']+)'/.exec(message)?.[1] ?? '';
    // Why the whole argument: parseArgs names only the first letter of `-my-skill` ("-m").
    const option =
      named.startsWith('--') || named === ''
        ? named
        : (args.find((a) => a.startsWith(named) && !a.startsWith('--')) ?? named);
    return unknownOption(option, command);
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // Why the long name: parseArgs names an option with a short form as "-f, --format <value>".
    const option = /'(?:-\w, )?(--?[^' ]+)/.exec(message)?.[1] ?? 'that option';
    if (/does not take an argument/.test(message))
      return `${option} takes no value; write ${option} alone.`;
    // Why: parseArgs takes "-1" after an option for another option, not for its value.
    const at = args.indexOf(option);
    const next = at >= 0 ? args[at + 1] : undefined;
    if (/ambiguous/.test(message) && option.startsWith('--') && next !== undefined)
      return `${option} needs a value after it; a value that starts with "-" is written ${option}=${next}.`;
    return `${option} needs a value after it.`;
  }
  return message;
}
