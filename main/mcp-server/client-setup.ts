/**
 * Copy-ready client configuration for the server panel: Claude Desktop
 * (`claude_desktop_config.json`, stdio and HTTP), Claude Code (`claude mcp add ...`), Cursor
 * (`.cursor/mcp.json`) and VS Code (`.vscode/mcp.json`). Pure string building.
 */

/** Inputs for {@link clientSetupSnippets}. */
export interface ClientSetupInput {
  /** Library folders served (absolute paths). */
  roots: readonly string[];
  /** How to run the CLI, e.g. `['skillbench']` or `['node', '/path/to/skillbench.mjs']`. Default `['skillbench']`. */
  command?: readonly string[];
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
  /** `json` for config file fragments, `shell` for commands. */
  language: 'json' | 'shell';
  text: string;
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Every snippet the panel offers; HTTP ones only when `http` is given. */
export function clientSetupSnippets(input: ClientSetupInput): ClientSnippet[] {
  const name = input.serverName ?? 'skillbench';
  const [cmd = 'skillbench', ...pre] = input.command ?? ['skillbench'];
  const args = [...pre, 'serve', '--stdio', ...input.roots];
  const json = (v: unknown): string => JSON.stringify(v, null, 2);
  const out: ClientSnippet[] = [
    {
      id: 'claude-desktop-stdio',
      client: 'Claude Desktop',
      transport: 'stdio',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config), inside "mcpServers"',
      language: 'json',
      text: json({ mcpServers: { [name]: { command: cmd, args } } }),
    },
    {
      id: 'claude-code-stdio',
      client: 'Claude Code',
      transport: 'stdio',
      where: 'a terminal',
      language: 'shell',
      text: `claude mcp add ${shellQuote(name)} -- ${[cmd, ...args].map(shellQuote).join(' ')}`,
    },
    {
      id: 'cursor-stdio',
      client: 'Cursor',
      transport: 'stdio',
      where: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
      language: 'json',
      text: json({ mcpServers: { [name]: { command: cmd, args } } }),
    },
    {
      id: 'vscode-stdio',
      client: 'VS Code',
      transport: 'stdio',
      where: '.vscode/mcp.json in the workspace',
      language: 'json',
      text: json({ servers: { [name]: { type: 'stdio', command: cmd, args } } }),
    },
  ];
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
        text: json({
          mcpServers: {
            [name]: {
              command: 'npx',
              args: [
                '-y',
                'mcp-remote',
                url,
                ...(token ? ['--header', `Authorization: Bearer ${token}`] : []),
              ],
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
    );
  }
  return out;
}
