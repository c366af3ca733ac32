/**
 * Copy-ready client configuration for the server panel: Claude Desktop
 * (`claude_desktop_config.json`, stdio and HTTP), Claude Code (`claude mcp add ...`), Cursor
 * (`.cursor/mcp.json`), VS Code (`.vscode/mcp.json`), Codex (`~/.codex/config.toml`, stdio) and
 * Gemini CLI (`~/.gemini/settings.json`). Pure string building.
 */
import type { CliLaunch } from '../platform/cli-launch';

/** Inputs for {@link clientSetupSnippets}. */
export interface ClientSetupInput {
  /** Library folders served (absolute paths). */
  roots: readonly string[];
  /**
   * How a client starts this installation's CLI (main/platform/cli-launch.ts). Without it there is
   * no stdio setup to offer, only the HTTP ones.
   */
  launch?: CliLaunch;
  /** Server name in client configs. Default `skillbench`. */
  serverName?: string;
  /** The HTTP endpoint and token when the HTTP server runs. */
  http?: { url: string; token?: string };
}

/** One snippet: where it goes, and the text to paste. */
export interface ClientSnippet {
  id: string;
  client: string;
  transport: 'stdio' | 'http';
  /** Where to paste it, in words. */
  where: string;
  /** `json` or `toml` for config file fragments, `shell` for commands. */
  language: 'json' | 'toml' | 'shell';
  text: string;
}

const json = (v: unknown): string => JSON.stringify(v, null, 2);

/**
 * A TOML basic string. Why JSON's quoting: TOML's basic strings take the same escapes (\\, \",
 * \n, \t, \uXXXX), so a Windows path or a space comes out as TOML reads it.
 */
const tomlString = (v: string): string => JSON.stringify(v);
/** A TOML key: bare when TOML allows it, else quoted. */
const tomlKey = (v: string): string => (/^[A-Za-z0-9_-]+$/.test(v) ? v : tomlString(v));

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** One server entry as the JSON setups write it: what a client runs to serve `roots` over stdio. */
export interface StdioServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The entry that starts `skillbench serve --stdio ROOTS…` through `launch`. */
export function stdioServerEntry(launch: CliLaunch, roots: readonly string[]): StdioServerEntry {
  return {
    command: launch.command,
    args: [...launch.args, 'serve', '--stdio', ...roots],
    ...(launch.env && Object.keys(launch.env).length > 0 ? { env: { ...launch.env } } : {}),
  };
}

/** The setups in which the client starts `skillbench serve --stdio` itself. */
function stdioSnippets(name: string, launch: CliLaunch, roots: readonly string[]): ClientSnippet[] {
  const entry = stdioServerEntry(launch, roots);
  const { command, args } = entry;
  const env = entry.env ? { env: entry.env } : {};
  // Why the name before --env: the option takes several values and would take the name as one
  // more if it came after it ("Invalid environment variable format").
  const envFlags = Object.entries(launch.env ?? {}).map(
    ([k, v]) => `--env ${shellQuote(`${k}=${v}`)} `,
  );
  return [
    {
      id: 'claude-desktop-stdio',
      client: 'Claude Desktop',
      transport: 'stdio',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config), inside "mcpServers"',
      language: 'json',
      text: json({ mcpServers: { [name]: { command, args, ...env } } }),
    },
    {
      id: 'claude-code-stdio',
      client: 'Claude Code',
      transport: 'stdio',
      where: 'a terminal',
      language: 'shell',
      text: `claude mcp add ${shellQuote(name)} ${envFlags.join('')}-- ${[command, ...args].map(shellQuote).join(' ')}`,
    },
    {
      id: 'cursor-stdio',
      client: 'Cursor',
      transport: 'stdio',
      where: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
      language: 'json',
      text: json({ mcpServers: { [name]: { command, args, ...env } } }),
    },
    {
      id: 'vscode-stdio',
      client: 'VS Code',
      transport: 'stdio',
      where: '.vscode/mcp.json in the workspace',
      language: 'json',
      text: json({ servers: { [name]: { type: 'stdio', command, args, ...env } } }),
    },
    {
      id: 'codex-stdio',
      client: 'Codex',
      transport: 'stdio',
      where: '~/.codex/config.toml (or .codex/config.toml in a trusted project)',
      language: 'toml',
      text: [
        `[mcp_servers.${tomlKey(name)}]`,
        `command = ${tomlString(command)}`,
        `args = [${args.map(tomlString).join(', ')}]`,
        ...(launch.env && Object.keys(launch.env).length > 0
          ? [
              `env = { ${Object.entries(launch.env)
                .map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`)
                .join(', ')} }`,
            ]
          : []),
      ].join('\n'),
    },
    {
      id: 'gemini-stdio',
      client: 'Gemini CLI',
      transport: 'stdio',
      where:
        '~/.gemini/settings.json (or .gemini/settings.json in the project), inside "mcpServers"',
      language: 'json',
      text: json({ mcpServers: { [name]: { command, args, ...env } } }),
    },
  ];
}

/** Every snippet the panel offers: the stdio ones when the CLI can be started, HTTP ones only when `http` is given. */
export function clientSetupSnippets(input: ClientSetupInput): ClientSnippet[] {
  const name = input.serverName ?? 'skillbench';
  const out: ClientSnippet[] = input.launch ? stdioSnippets(name, input.launch, input.roots) : [];
  if (input.http) {
    const { url, token } = input.http;
    const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
    out.push(
      {
        id: 'claude-desktop-http',
        client: 'Claude Desktop',
        transport: 'http',
        // Claude Desktop's config file starts local commands only; mcp-remote bridges to an HTTP server.
        where: 'claude_desktop_config.json, inside "mcpServers" (bridged through mcp-remote)',
        language: 'json',
        // Why the token in env: mcp-remote puts ${AUTH_HEADER} in the header itself, so the token is
        // not in its command line, which every local user can read (as for `serve`: SECURITY.md),
        // and a header with a space is not split in two where a client passes arguments badly.
        text: json({
          mcpServers: {
            [name]: {
              command: 'npx',
              args: [
                '-y',
                'mcp-remote',
                url,
                ...(token ? ['--header', 'Authorization:${AUTH_HEADER}'] : []),
              ],
              ...(token ? { env: { AUTH_HEADER: `Bearer ${token}` } } : {}),
            },
          },
        }),
      },
      {
        id: 'claude-code-http',
        client: 'Claude Code',
        transport: 'http',
        where: 'a terminal',
        language: 'shell',
        text: `claude mcp add --transport http ${shellQuote(name)} ${shellQuote(url)}${token ? ` --header ${shellQuote(`Authorization: Bearer ${token}`)}` : ''}`,
      },
      {
        id: 'cursor-http',
        client: 'Cursor',
        transport: 'http',
        where: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
        language: 'json',
        text: json({ mcpServers: { [name]: { url, ...(headers ? { headers } : {}) } } }),
      },
      {
        id: 'vscode-http',
        client: 'VS Code',
        transport: 'http',
        where: '.vscode/mcp.json in the workspace',
        language: 'json',
        text: json({ servers: { [name]: { type: 'http', url, ...(headers ? { headers } : {}) } } }),
      },
      {
        id: 'gemini-http',
        client: 'Gemini CLI',
        transport: 'http',
        where:
          '~/.gemini/settings.json (or .gemini/settings.json in the project), inside "mcpServers"',
        language: 'json',
        // Why httpUrl: Gemini CLI reads "url" as the older SSE transport.
        text: json({ mcpServers: { [name]: { httpUrl: url, ...(headers ? { headers } : {}) } } }),
      },
    );
  }
  return out;
}
