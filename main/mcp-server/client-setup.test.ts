/**
 * The server panel's copy-ready setups. The stdio ones must start this installation's CLI from
 * anywhere: a client runs them from a folder of its own, with an environment of its own. The test
 * that matters pastes the Claude Desktop entry as a client would read it and connects to what it
 * starts, with the CLI laid out as the desktop app unpacks it (out/main with its package.json, no
 * project above it).
 */
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'smol-toml';
import { writeEsmMarker } from '../../scripts/cached-bundles.mjs';
import { cliLaunch } from '../platform/cli-launch';
import {
  bundleEntry,
  makeTestLibrary,
  REPO_ROOT,
  tempDir,
  TEST_LIBRARY_SERVED,
} from '../testing/skill-library';
import { clientSetupSnippets } from './client-setup';

let work: Awaited<ReturnType<typeof tempDir>>;
let lib: string;
let bundle: string;

beforeAll(async () => {
  work = await tempDir('skillbench-setup-');
  lib = join(work.path, 'my skills');
  await makeTestLibrary(lib);
  // Laid out as a packaged app unpacks it: Resources/app.asar.unpacked/out/main.
  bundle = join(work.path, 'Resources', 'app.asar.unpacked', 'out', 'main');
  await mkdir(bundle, { recursive: true });
  await bundleEntry(join(REPO_ROOT, 'main', 'cli', 'main.ts'), join(bundle, 'cli.js'));
  writeEsmMarker(bundle);
}, 120_000);

afterAll(async () => {
  await work?.remove();
});

/** TOML as plain objects (smol-toml makes tables without a prototype). */
const parseToml = (text: string): unknown => JSON.parse(JSON.stringify(parse(text)));

interface StdioEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

describe('the copy-ready client setups', () => {
  it('run the CLI there as an ES module on its own marker, not on Node guessing from its syntax', () => {
    const run = spawnSync(
      process.execPath,
      ['--no-experimental-detect-module', join(bundle, 'cli.js'), '--version'],
      { cwd: work.path, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('start the library’s server from the pasted Claude Desktop entry, run from another folder', async () => {
    const launch = cliLaunch(join(work.path, 'Resources', 'app.asar', 'out', 'main'));
    expect(launch).toEqual({
      command: process.execPath,
      args: [join(bundle, 'cli.js')],
    });
    const snippets = clientSetupSnippets({ roots: [lib], launch });
    const desktop = snippets.find((s) => s.id === 'claude-desktop-stdio');
    const entry = (JSON.parse(desktop?.text ?? '{}') as { mcpServers: Record<string, StdioEntry> })
      .mcpServers.skillbench;
    if (!entry) throw new Error('no skillbench entry in the Claude Desktop setup');

    const elsewhere = join(work.path, 'client-folder');
    await mkdir(elsewhere);
    const client = new Client({ name: 'setup-test', version: '1' });
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: elsewhere,
      stderr: 'pipe',
      env: {
        ...getDefaultEnvironment(),
        ...entry.env,
        SKILLBENCH_USER_DATA: join(work.path, 'user-data'),
      },
    });
    try {
      await client.connect(transport);
      const listed = await client.listResources();
      const skills = listed.resources
        .map((r) => /^skill:\/\/(.+)\/SKILL\.md$/.exec(r.uri)?.[1])
        .filter((s): s is string => s !== undefined)
        .sort();
      expect(skills).toEqual(TEST_LIBRARY_SERVED);
      const read = await client.readResource({ uri: 'skill://alpha/references/guide.md' });
      expect(read.contents[0]).toMatchObject({ text: '# Guide\n\nUTF-8 text: café ✓\n' });
    } finally {
      await client.close().catch(() => undefined);
    }
  }, 60_000);

  it('quote the command for a shell, the server name before --env (which would take it as a value)', () => {
    const snippets = clientSetupSnippets({
      roots: ['/home/me/my skills'],
      launch: {
        command: '/opt/Skillbench/skillbench',
        args: ['/opt/Skillbench/resources/app.asar.unpacked/out/main/cli.js'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    });
    expect(snippets.find((s) => s.id === 'claude-code-stdio')?.text).toBe(
      "claude mcp add skillbench --env ELECTRON_RUN_AS_NODE=1 -- /opt/Skillbench/skillbench /opt/Skillbench/resources/app.asar.unpacked/out/main/cli.js serve --stdio '/home/me/my skills'",
    );
    const stdio = {
      command: '/opt/Skillbench/skillbench',
      args: [
        '/opt/Skillbench/resources/app.asar.unpacked/out/main/cli.js',
        'serve',
        '--stdio',
        '/home/me/my skills',
      ],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
    expect(JSON.parse(snippets.find((s) => s.id === 'cursor-stdio')?.text ?? '')).toEqual({
      mcpServers: { skillbench: stdio },
    });
    expect(JSON.parse(snippets.find((s) => s.id === 'vscode-stdio')?.text ?? '')).toEqual({
      servers: { skillbench: { type: 'stdio', ...stdio } },
    });
    expect(JSON.parse(snippets.find((s) => s.id === 'gemini-stdio')?.text ?? '')).toEqual({
      mcpServers: { skillbench: stdio },
    });
    // Codex reads TOML: the same program, arguments and environment, a Windows path included.
    const codex = snippets.find((s) => s.id === 'codex-stdio');
    expect(codex?.language).toBe('toml');
    expect(parseToml(codex?.text ?? '')).toEqual({ mcp_servers: { skillbench: stdio } });
    const windows = clientSetupSnippets({
      roots: ['C:\\Users\\me\\my "skills"'],
      launch: { command: 'C:\\Program Files\\Skillbench\\Skillbench.exe', args: [] },
    }).find((s) => s.id === 'codex-stdio');
    expect(parseToml(windows?.text ?? '')).toEqual({
      mcp_servers: {
        skillbench: {
          command: 'C:\\Program Files\\Skillbench\\Skillbench.exe',
          args: ['serve', '--stdio', 'C:\\Users\\me\\my "skills"'],
        },
      },
    });
  });

  it('keep the token out of the bridge’s command line for Claude Desktop over HTTP', () => {
    const snippets = clientSetupSnippets({
      roots: ['/lib'],
      http: { url: 'http://127.0.0.1:4000/mcp', token: 'tok-0123456789abcdef' },
    });
    const desktop = JSON.parse(
      snippets.find((s) => s.id === 'claude-desktop-http')?.text ?? '{}',
    ) as { mcpServers: Record<string, StdioEntry> };
    const entry = desktop.mcpServers.skillbench;
    expect(entry).toEqual({
      command: 'npx',
      args: [
        '-y',
        'mcp-remote',
        'http://127.0.0.1:4000/mcp',
        '--header',
        'Authorization:${AUTH_HEADER}',
      ],
      env: { AUTH_HEADER: 'Bearer tok-0123456789abcdef' },
    });
    expect(entry?.args.join(' ')).not.toContain('tok-0123456789abcdef');
    // Gemini CLI reads "url" as the older SSE transport; Streamable HTTP is "httpUrl".
    expect(JSON.parse(snippets.find((s) => s.id === 'gemini-http')?.text ?? '')).toEqual({
      mcpServers: {
        skillbench: {
          httpUrl: 'http://127.0.0.1:4000/mcp',
          headers: { Authorization: 'Bearer tok-0123456789abcdef' },
        },
      },
    });
  });

  it('offer no stdio setup when there is no CLI to start, rather than one that fetches a package by name', () => {
    const snippets = clientSetupSnippets({
      roots: ['/lib'],
      http: { url: 'http://127.0.0.1:4000/mcp', token: 't' },
    });
    expect(snippets.map((s) => s.transport)).toEqual(['http', 'http', 'http', 'http', 'http']);
    expect(snippets.map((s) => s.text).join('\n')).not.toMatch(/npx[^\n]*skillbench/);
  });
});
