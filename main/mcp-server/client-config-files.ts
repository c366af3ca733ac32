/**
 * "Add to Claude Desktop" / "Add to Cursor": the Server tab writes its stdio setup into the
 * client's own config file, for people who would rather not edit JSON by hand.
 *
 * The file is the user's, so nothing in it is lost or guessed at: it must be plain JSON (else
 * nothing is written and the user is told to paste the setup by hand); every other key and server
 * is kept as it was; a server of the same name with another setup is replaced only when the user
 * says so; the version replaced is kept in Skillbench's trash; the new one is written atomically
 * (main/platform/atomic-write.ts), through a link to the real file (a config kept in a dotfiles
 * folder stays there), with the mode it had (0600 when new: such files hold other servers' tokens).
 */
import { lstat, mkdir, readFile, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';
import { fsErrorSentence } from '../platform/fs-errors';
import { copyToTrash } from '../platform/trash';
import { isJsonObject, jsonEqual } from '../../shared/json/values';
import { formatBytes } from '../../shared/text/bytes';
import type { AddToClientOutcome, McpClientId } from '../../shared/ipc/contract';
import type { StdioServerEntry } from './client-setup';

/** One client's config file. */
export interface McpClientFile {
  id: McpClientId;
  client: string;
  path: string;
}

/** Where the user's home and variables are (the agents' environment has this shape). */
export interface HomeEnv {
  home: string;
  vars: Readonly<Record<string, string | undefined>>;
}

/** The largest config file read (Claude Desktop's and Cursor's are a few kilobytes). */
export const CLIENT_FILE_MAX_BYTES = 5 * 1000 * 1000;

/**
 * Where Claude Desktop installed as a Windows package (MSIX, its installer since February 2026)
 * reads its settings: inside the package's own folder, not %APPDATA%\Claude, which such an app
 * never sees (Windows gives packaged apps a folder of their own). Undefined when it is not
 * installed that way.
 */
async function packagedClaudeDir(
  env: HomeEnv,
  list: (dir: string) => Promise<string[]>,
): Promise<string | undefined> {
  const packages = join(env.vars.LOCALAPPDATA ?? join(env.home, 'AppData', 'Local'), 'Packages');
  let names: string[];
  try {
    names = await list(packages);
  } catch {
    return undefined;
  }
  const found = names.filter((n) => /^Claude_[a-z0-9]+$/i.test(n)).sort()[0];
  return found === undefined ? undefined : join(packages, found, 'LocalCache', 'Roaming', 'Claude');
}

/** The config file of each client, where it keeps its MCP servers. */
export async function mcpClientFiles(
  env: HomeEnv,
  platform: NodeJS.Platform = process.platform,
  list: (dir: string) => Promise<string[]> = (dir) => readdir(dir),
): Promise<McpClientFile[]> {
  const { home, vars } = env;
  const claude =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support', 'Claude')
      : platform === 'win32'
        ? ((await packagedClaudeDir(env, list)) ??
          join(vars.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude'))
        : join(vars.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude');
  return [
    {
      id: 'claude-desktop',
      client: 'Claude Desktop',
      path: join(claude, 'claude_desktop_config.json'),
    },
    { id: 'cursor', client: 'Cursor', path: join(home, '.cursor', 'mcp.json') },
  ];
}

/**
 * Put `entry` under `mcpServers[name]` in `file`: see the module comment for what is kept.
 * `replace` says the user chose to replace a different server of that name.
 */
export async function addServerToClientFile(
  file: McpClientFile,
  name: string,
  entry: StdioServerEntry,
  options: { replace?: boolean; trashDir?: string } = {},
): Promise<AddToClientOutcome> {
  const { client } = file;
  const refused = (message: string): AddToClientOutcome => ({
    status: 'refused',
    client,
    path: file.path,
    message,
  });
  // Why the real path: a config kept elsewhere through a link is written where it really is.
  let target = file.path;
  let before: Buffer | undefined;
  try {
    target = await realpath(file.path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      return refused(
        `Could not read ${client}'s settings: ${fsErrorSentence(e, file.path, 'read')}`,
      );
  }
  try {
    const info = await lstat(target);
    if (!info.isFile())
      return refused(`${target} is not a file, so ${client}'s settings were not changed.`);
    if (info.size > CLIENT_FILE_MAX_BYTES)
      return refused(
        `${target} is ${formatBytes(info.size)}, far more than ${client}'s settings take, so it was not changed.`,
      );
    before = await readFile(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      return refused(`Could not read ${client}'s settings: ${fsErrorSentence(e, target, 'read')}`);
  }
  let config: Record<string, unknown> = {};
  if (before !== undefined && before.toString('utf8').trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(before.toString('utf8'));
    } catch {
      return refused(
        `${target} is not plain JSON (it may hold comments), so Skillbench did not change it. Copy the setup and paste it into the file yourself.`,
      );
    }
    if (!isJsonObject(parsed))
      return refused(`${target} does not hold a JSON object, so Skillbench did not change it.`);
    config = parsed;
  }
  const servers = config.mcpServers ?? {};
  if (!isJsonObject(servers))
    return refused(
      `In ${target}, "mcpServers" is not an object, so Skillbench did not change the file.`,
    );
  const existing = servers[name];
  if (existing !== undefined && jsonEqual(existing, entry))
    return { status: 'already', client, path: target };
  if (existing !== undefined && options.replace !== true)
    return { status: 'conflict', client, path: target, name };
  const next = { ...config, mcpServers: { ...servers, [name]: entry } };
  try {
    const previous =
      before === undefined
        ? undefined
        : await copyToTrash(basename(target), before, options.trashDir);
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(
      target,
      `${JSON.stringify(next, null, 2)}\n`,
      before === undefined ? { mode: 0o600 } : {},
    );
    return {
      status: existing === undefined ? 'added' : 'replaced',
      client,
      path: target,
      ...(previous !== undefined ? { previous } : {}),
    };
  } catch (e) {
    return refused(`Could not write ${client}'s settings: ${fsErrorSentence(e, target, 'write')}`);
  }
}
