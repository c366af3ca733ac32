import { describe, expect, it } from 'vitest';
import { CLIENT_CONFIG_MAX_CHARS, readClientConfig } from './client-config';

const servers = (text: string) => {
  const r = readClientConfig(text);
  if (!r.ok) throw new Error(r.problem);
  return r.servers;
};

describe("reading an MCP client's server setup", () => {
  it('reads a Claude Desktop file: a program with its arguments and environment, and an address with headers', () => {
    const text = JSON.stringify({
      mcpServers: {
        skills: {
          command: '/usr/bin/node',
          args: ['/opt/skillbench/out/main/cli.js', 'serve', '--stdio', '/home/me/skills'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
        remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abc' } },
      },
    });
    expect(servers(text)).toEqual([
      {
        name: 'skills',
        kind: 'stdio',
        command: '/usr/bin/node',
        args: ['/opt/skillbench/out/main/cli.js', 'serve', '--stdio', '/home/me/skills'],
        env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1', secret: false }],
        headers: [],
        unfilled: [],
      },
      {
        name: 'remote',
        kind: 'http',
        url: 'https://example.com/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer abc', secret: true }],
        args: [],
        env: [],
        unfilled: [],
      },
    ]);
  });

  it("reads VS Code's mcp.json with comments and trailing commas, and its types", () => {
    const text = `{
      // the servers of this workspace
      "servers": {
        "old": { "type": "sse", "url": "http://127.0.0.1:4000/sse", },
        "new": { "type": "http", "url": "http://127.0.0.1:4000/mcp" },
        "local": { "type": "stdio", "command": "skillbench", "args": ["serve", "--stdio", "."] },
      },
    }`;
    expect(servers(text).map((s) => [s.name, s.kind])).toEqual([
      ['old', 'sse'],
      ['new', 'http'],
      ['local', 'stdio'],
    ]);
  });

  it('reads VS Code settings (mcp.servers), one bare entry, and a "name": { … } line copied out of a file', () => {
    expect(
      servers('{ "mcp": { "servers": { "a": { "url": "https://a.example/mcp" } } } }'),
    ).toEqual([expect.objectContaining({ name: 'a', kind: 'http' })]);
    expect(servers('{ "command": "npx", "args": ["-y", "some-server"] }')).toEqual([
      expect.objectContaining({ name: 'server', kind: 'stdio', command: 'npx' }),
    ]);
    expect(servers('"github": { "url": "https://api.example.com/mcp" },')).toEqual([
      expect.objectContaining({ name: 'github', url: 'https://api.example.com/mcp' }),
    ]);
    // Windsurf names the address serverUrl; several entries without the outer key.
    expect(
      servers('{ "one": { "serverUrl": "https://one.example/mcp" }, "two": { "command": "x" } }'),
    ).toEqual([
      expect.objectContaining({ name: 'one', url: 'https://one.example/mcp' }),
      expect.objectContaining({ name: 'two', command: 'x' }),
    ]);
  });

  it("reads Codex's config.toml: programs, and addresses with their headers and the token's variable", () => {
    const text = [
      'model = "gpt-5"',
      '',
      '[mcp_servers.skills]',
      'command = "/usr/bin/node"',
      'args = ["/opt/skillbench/out/main/cli.js", "serve", "--stdio", "C:\\\\Users\\\\me"]',
      'env = { ELECTRON_RUN_AS_NODE = "1" }',
      '',
      '[mcp_servers.docs]',
      'url = "https://docs.example/mcp"',
      'bearer_token_env_var = "DOCS_TOKEN"',
      'http_headers = { "X-Team" = "blue" }',
    ].join('\n');
    expect(servers(text)).toEqual([
      expect.objectContaining({
        name: 'skills',
        kind: 'stdio',
        args: ['/opt/skillbench/out/main/cli.js', 'serve', '--stdio', 'C:\\Users\\me'],
        env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1', secret: false }],
      }),
      expect.objectContaining({
        name: 'docs',
        kind: 'http',
        url: 'https://docs.example/mcp',
        headers: [{ name: 'X-Team', value: 'blue', secret: false }],
        unfilled: [],
        tokenVariable: 'DOCS_TOKEN',
      }),
    ]);
    expect(readClientConfig('[mcp_servers.a]\ncommand = "x\nargs = []')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^This looks like Codex's config\.toml, but it is not TOML/),
    });
  });

  it('keeps variables as written and says where they are, which the client fills in, not Skillbench', () => {
    const [one] = servers(
      JSON.stringify({
        mcpServers: {
          gh: {
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' },
          },
        },
      }),
    );
    expect(one?.headers).toEqual([
      { name: 'Authorization', value: 'Bearer ${env:GITHUB_TOKEN}', secret: true },
    ]);
    expect(one?.unfilled).toEqual(['header Authorization']);
  });

  it('marks credentials secret, by their name or a value that looks like a token', () => {
    const [one] = servers(
      JSON.stringify({
        mcpServers: {
          s: {
            command: 'x',
            env: {
              GITHUB_PERSONAL_ACCESS_TOKEN: 'abc',
              OPENAI_API_KEY: 'abc',
              DEBUG: '1',
              EXTRA: 'ghp_' + 'aZ3kQ9mX2pL7vR4tY8wE1uI6oN5bC0dF3gH9',
            },
          },
        },
      }),
    );
    expect(one?.env.map((e) => [e.name, e.secret])).toEqual([
      ['GITHUB_PERSONAL_ACCESS_TOKEN', true],
      ['OPENAI_API_KEY', true],
      ['DEBUG', false],
      ['EXTRA', true],
    ]);
  });

  it('says in words what is wrong, and where', () => {
    const missing = readClientConfig('{ "mcpServers": { "a": { "command": "x" }');
    expect(missing).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /^This is not a setup Skillbench can read: it ends too early \(a closing "}", "]" or quote is missing\) at line 1, column \d+\./,
      ),
    });
    expect(readClientConfig('   ')).toEqual({ ok: false, problem: 'Paste a setup first.' });
    expect(readClientConfig('[1, 2]')).toMatchObject({ ok: false, problem: /should be an object/ });
    expect(readClientConfig('{ "theme": "dark" }')).toMatchObject({
      ok: false,
      problem: /No server was found/,
    });
    expect(readClientConfig('{ "mcpServers": { "a": { "args": ["x"] } } }')).toEqual({
      ok: false,
      problem: '"a" names neither a program to start ("command") nor an address ("url").',
    });
    expect(
      readClientConfig('{ "mcpServers": { "a": { "command": "x", "args": "--stdio" } } }'),
    ).toMatchObject({ ok: false, problem: '"a" has "args" that are not a list of texts.' });
    expect(
      readClientConfig('{ "mcpServers": { "a": { "type": "websocket", "url": "ws://x" } } }'),
    ).toMatchObject({ ok: false, problem: /type "websocket", which Skillbench cannot connect to/ });
  });

  it('uses the entries it can read and names the ones it cannot', () => {
    expect(
      readClientConfig('{ "mcpServers": { "good": { "command": "x" }, "bad": { "env": {} } } }'),
    ).toEqual({
      ok: true,
      servers: [expect.objectContaining({ name: 'good' })],
      skipped: ['"bad" names neither a program to start ("command") nor an address ("url").'],
    });
  });

  it('refuses an oversized text without reading it, and takes at most 1,000 servers', () => {
    expect(readClientConfig(' '.repeat(CLIENT_CONFIG_MAX_CHARS + 1))).toMatchObject({
      ok: false,
      problem: /characters long/,
    });
    const many = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [`s${i}`, { command: 'x' }]),
    );
    expect(servers(JSON.stringify({ mcpServers: many }))).toHaveLength(1000);
  });
});
