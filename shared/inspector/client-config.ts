/**
 * Reading an MCP client's server setup, so a server someone already uses can be inspected without
 * typing it again: the inspector's form ("Fill in from a client's setup") and
 * `skillbench inspect --config FILE --server NAME` (the official Inspector CLI's two options).
 *
 * What it reads: a whole config file (`mcpServers` as Claude Desktop, Claude Code's `.mcp.json`,
 * Cursor, Windsurf and Gemini CLI write it; `servers` as VS Code's `.vscode/mcp.json`; VS Code's
 * settings with `mcp.servers`; Codex's `config.toml` with `[mcp_servers.NAME]` tables), one server's entry (`{ "command": … }`, `{ "url": … }`), or a
 * `"name": { … }` line copied out of a file. Comments and trailing commas are allowed (VS Code's
 * files have them; read with json5). Variables such as `${env:TOKEN}` or `${TOKEN}` are kept as written and named
 * in `unfilled`: each client fills them in its own way, and Skillbench does not guess.
 */
import { parse as parseToml } from 'smol-toml';
import { parseJsonc } from '../json/jsonc';
import { isJsonObject } from '../json/values';
import { secretVariable } from '../safety/secrets';
import type { EnvInput, HeaderInput, TransportKind } from './types';

/** One server of a client's setup, as the inspector connects to it. */
export interface ConfiguredServer {
  /** Its name in the setup (`server` for a lone entry). */
  name: string;
  kind: TransportKind;
  url?: string;
  headers: HeaderInput[];
  command?: string;
  args: string[];
  env: EnvInput[];
  cwd?: string;
  /** Values holding a variable the client would fill in (`${…}`), by where they are. */
  unfilled: string[];
  /**
   * The environment variable its client reads the bearer token from (Codex's
   * bearer_token_env_var). Never read by Skillbench: a setup from elsewhere could name any
   * variable of this computer and an address of its own.
   */
  tokenVariable?: string;
}

/** What reading a setup gave: its servers, or why there are none, in words. */
export type ClientConfigReading =
  | {
      ok: true;
      servers: ConfiguredServer[];
      /** Entries that could not be read, each said in words (the others still can be used). */
      skipped: string[];
    }
  | { ok: false; problem: string };

/** The most text read (a client's config file is a few kilobytes). */
export const CLIENT_CONFIG_MAX_CHARS = 1_000_000;
/** The most servers taken from one setup. */
export const CLIENT_CONFIG_MAX_SERVERS = 1_000;

type Json = Record<string, unknown>;

/** The servers object of a whole file, or undefined when `value` is not one. */
function serversOf(value: Json): Json | undefined {
  for (const key of ['mcpServers', 'servers', 'mcp_servers'])
    if (isJsonObject(value[key])) return value[key];
  if (isJsonObject(value.mcp) && isJsonObject(value.mcp.servers)) return value.mcp.servers;
  return undefined;
}

const looksLikeEntry = (v: Json): boolean =>
  typeof v.command === 'string' ||
  typeof v.url === 'string' ||
  typeof v.serverUrl === 'string' ||
  typeof v.httpUrl === 'string';

const strings = (v: unknown): v is Record<string, string> =>
  isJsonObject(v) && Object.values(v).every((x) => typeof x === 'string');

/** One entry, or why it cannot be inspected. */
function readEntry(name: string, entry: unknown): ConfiguredServer | string {
  if (!isJsonObject(entry)) return `"${name}" is not a server entry (it should be { … }).`;
  const unfilled: string[] = [];
  const note = (where: string, value: string): string => {
    if (/\$\{[^}]*\}/.test(value)) unfilled.push(where);
    return value;
  };
  const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
  // Codex names its headers http_headers, and reads a bearer token from a variable it names.
  const headerTable = entry.headers ?? entry.http_headers;
  const url =
    typeof entry.url === 'string'
      ? entry.url
      : typeof entry.serverUrl === 'string'
        ? entry.serverUrl
        : typeof entry.httpUrl === 'string'
          ? entry.httpUrl
          : undefined;
  if (typeof entry.command === 'string' && (type === undefined || type === 'stdio')) {
    if (
      entry.args !== undefined &&
      !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string'))
    )
      return `"${name}" has "args" that are not a list of texts.`;
    if (entry.env !== undefined && !strings(entry.env))
      return `"${name}" has an "env" whose values are not all texts.`;
    if (entry.cwd !== undefined && typeof entry.cwd !== 'string')
      return `"${name}" has a "cwd" that is not a text.`;
    const args = (entry.args ?? []).map((a, i) => note(`args[${i}]`, a));
    return {
      name,
      kind: 'stdio',
      command: note('command', entry.command),
      args,
      env: Object.entries(entry.env ?? {}).map(([k, v]) => ({
        name: k,
        value: note(`env ${k}`, v),
        secret: secretVariable(k, v),
      })),
      ...(typeof entry.cwd === 'string' ? { cwd: note('cwd', entry.cwd) } : {}),
      headers: [],
      unfilled,
    };
  }
  if (url !== undefined) {
    if (type !== undefined && !['http', 'streamable-http', 'streamablehttp', 'sse'].includes(type))
      return `"${name}" is of type "${String(entry.type)}", which Skillbench cannot connect to.`;
    if (headerTable !== undefined && !strings(headerTable))
      return `"${name}" has "headers" whose values are not all texts.`;
    return {
      name,
      kind: type === 'sse' ? 'sse' : 'http',
      url: note('url', url),
      headers: Object.entries(headerTable ?? {}).map(([k, v]) => ({
        name: k,
        value: note(`header ${k}`, v),
        secret: secretVariable(k, v),
      })),
      args: [],
      env: [],
      unfilled,
      ...(typeof entry.bearer_token_env_var === 'string'
        ? { tokenVariable: entry.bearer_token_env_var }
        : {}),
    };
  }
  return `"${name}" names neither a program to start ("command") nor an address ("url").`;
}

/** Read a client's setup: see the module comment for what it takes. */
export function readClientConfig(text: string): ClientConfigReading {
  if (text.length > CLIENT_CONFIG_MAX_CHARS)
    return {
      ok: false,
      problem: `The setup is ${text.length.toLocaleString('en-US')} characters long; a client's setup is far shorter, so it was not read.`,
    };
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'Paste a setup first.' };
  let parsed = parseJsonc(trimmed);
  // A `"name": { … }` line copied out of a file is an object without its braces.
  if ('error' in parsed && trimmed.startsWith('"')) {
    const wrapped = parseJsonc(`{${trimmed.replace(/,\s*$/, '')}}`);
    if (!('error' in wrapped)) parsed = wrapped;
  }
  // Codex's config.toml: TOML with [mcp_servers.NAME] tables.
  if ('error' in parsed && /^\s*\[mcp_servers\./m.test(trimmed)) {
    try {
      parsed = { value: JSON.parse(JSON.stringify(parseToml(trimmed))) as unknown };
    } catch (e) {
      const line = (e as { line?: number }).line;
      return {
        ok: false,
        problem: `This looks like Codex's config.toml, but it is not TOML Skillbench can read${line !== undefined ? ` (line ${line})` : ''}.`,
      };
    }
  }
  if ('error' in parsed)
    return {
      ok: false,
      problem: `This is not a setup Skillbench can read: ${parsed.error}. Paste the JSON a client's config file holds, such as { "mcpServers": { … } }.`,
    };
  const value = parsed.value;
  if (!isJsonObject(value))
    return {
      ok: false,
      problem: 'This is not a setup Skillbench can read: it should be an object, { … }.',
    };
  const servers = serversOf(value);
  const entries: [string, unknown][] = servers
    ? Object.entries(servers)
    : looksLikeEntry(value)
      ? [[typeof value.name === 'string' ? value.name : 'server', value]]
      : Object.entries(value).every(([, v]) => isJsonObject(v) && looksLikeEntry(v))
        ? Object.entries(value)
        : [];
  if (entries.length === 0)
    return {
      ok: false,
      problem:
        'No server was found in it. A setup lists servers under "mcpServers" (or "servers"), each with a "command" to start or a "url" to reach.',
    };
  const read: ConfiguredServer[] = [];
  const problems: string[] = [];
  for (const [name, entry] of entries.slice(0, CLIENT_CONFIG_MAX_SERVERS)) {
    const one = readEntry(name, entry);
    if (typeof one === 'string') problems.push(one);
    else read.push(one);
  }
  if (read.length === 0) return { ok: false, problem: problems.join(' ') };
  return { ok: true, servers: read, skipped: problems };
}
