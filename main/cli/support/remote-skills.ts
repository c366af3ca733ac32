import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { InspectedSkill } from '../../../shared/inspector/types';
import { InspectorService } from '../../inspector/service';
import { checkHttpUrl } from '../../inspector/session';
import type { ConnectionInput } from '../../inspector/types';
import { UsageError } from './types';

/**
 * A server named on the command line: `--stdio "COMMAND ARGS"` or `--http URL` with
 * `--token-file PATH` (read into `token` before connecting) or `--token T`.
 */
export type ServerArg =
  | { kind: 'stdio'; commandLine: string }
  | { kind: 'http'; url: string; token?: string; tokenFile?: string };

/**
 * Split a command line into words: spaces separate, single and double quotes group, a backslash
 * escapes the next character. No variables, globs or other shell features: the words are passed
 * to the program as they are.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`Unclosed ${quote} in --stdio "${line}".`);
  if (inWord) words.push(word);
  return words;
}

/**
 * The host of a server's web address, checked as the Inspector checks it when it connects
 * ({@link checkHttpUrl}), as a usage error ("Invalid URL" was all a typo got).
 */
export function serverHost(url: string): string {
  try {
    return checkHttpUrl(url).host;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** The connection for a server argument, labelled uniquely among `taken` labels. */
export function connectionFor(arg: ServerArg, cwd: string, taken: Set<string>): ConnectionInput {
  let base: string;
  let input: Omit<ConnectionInput, 'label'>;
  if (arg.kind === 'stdio') {
    const [command, ...args] = splitCommandLine(arg.commandLine);
    if (!command) throw new UsageError('--stdio needs the command that starts the server.');
    base = basename(command);
    input = { kind: 'stdio', command, args, cwd };
  } else {
    if (!/^https?:\/\//i.test(arg.url))
      throw new UsageError(`--http takes an http:// or https:// URL, not "${arg.url}".`);
    base = serverHost(arg.url);
    input = { kind: 'http', url: arg.url, oauth: false, headers: [] };
    if (arg.token !== undefined) input.bearerToken = arg.token;
  }
  let label = base;
  for (let n = 2; taken.has(label); n++) label = `${base} (${n})`;
  taken.add(label);
  return { label, ...input };
}

/** Skills discovered on the servers, with each server's target, and a way to close them all. */
export interface RemoteSkills {
  skills: InspectedSkill[];
  targets: Map<string, string>;
  close(): Promise<void>;
}

/**
 * Connect to every server and discover its skills, in the order given (docs/agent-view.md §1).
 * Throws with a plain sentence when a server cannot be reached; connections made so far are
 * closed first.
 */
export async function discoverRemoteSkills(
  servers: readonly ServerArg[],
  cwd: string,
): Promise<RemoteSkills> {
  // Why a data folder that is never written: the CLI saves nothing (no connections, no provenance).
  const service = new InspectorService({
    dataDir: join(tmpdir(), 'skillbench-catalog-cli'),
    // The command line shows no protocol log: keep none.
    logCapacity: 0,
  });
  const taken = new Set<string>();
  const targets = new Map<string, string>();
  try {
    for (const arg of servers) {
      const input = connectionFor(arg, cwd, taken);
      const status = await service.connect(input);
      targets.set(input.label, status.target);
      await service.discover(input.label);
    }
  } catch (error) {
    await service.close();
    throw error;
  }
  return { skills: service.skills(), targets, close: () => service.close() };
}
