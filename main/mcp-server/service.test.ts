import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { gunzipSync } from 'node:zlib';
import { legacyView } from './legacy';
import { buildSnapshot } from './catalog';
import type { RequestLogEntry } from './mcp-server';
import { renderPromptBody, skillPrompts } from './prompts';
import { generateToken } from './http-host';
import { SkillsServerService } from './service';
import type { ServerStatus } from './service';
import {
  makeTestLibrary,
  skillMd,
  tempDir,
  TEST_LIBRARY_SERVED,
  writeTree,
} from '../testing/skill-library';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('SkillsServerService (the panel API)', () => {
  it('starts, reports address, token, served and excluded skills, logs requests, regenerates the token and stops', async () => {
    const lib = await tempDir();
    cleanups.push(() => lib.remove());
    await makeTestLibrary(lib.path);
    const service = new SkillsServerService({
      roots: [lib.path],
      watch: false,
      cliLaunch: { command: '/usr/bin/node', args: ['/opt/skillbench/out/main/cli.js'] },
    });
    cleanups.push(async () => void (await service.stop()));
    const states: ServerStatus['state'][] = [];
    const requests: RequestLogEntry[] = [];
    service.on('status', (s) => states.push(s.state));
    service.on('request', (r) => requests.push(r));

    expect(service.status()).toMatchObject({ state: 'stopped', sessions: 0 });
    const status = await service.start();
    expect(status.state).toBe('running');
    expect(status.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(status.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(status.features).toEqual({
      legacy: true,
      personalMcp: true,
      tools: true,
      prompts: true,
    });
    const cat = service.catalog();
    expect(cat?.served.map((s) => s.skillPath)).toEqual(TEST_LIBRARY_SERVED);
    expect(cat?.excluded.map((e) => e.relativeDir)).toEqual(['broken', 'escaper']);
    expect(cat?.excluded[0]?.reasons[0]).toContain('other-name');

    const client = new Client({ name: 'panel-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(status.url ?? ''), {
        requestInit: { headers: { Authorization: `Bearer ${status.token}` } },
      }),
    );
    await client.readResource({ uri: 'skill://alpha/SKILL.md' });
    expect(
      requests.some(
        (r) =>
          r.method === 'resources/read' && r.uri === 'skill://alpha/SKILL.md' && r.status === 'ok',
      ),
    ).toBe(true);
    expect(service.recentRequests().length).toBeGreaterThan(0);

    const snippets = service.clientSetup();
    expect(snippets.map((s) => s.id)).toEqual([
      'claude-desktop-stdio',
      'claude-code-stdio',
      'cursor-stdio',
      'vscode-stdio',
      'codex-stdio',
      'gemini-stdio',
      'claude-desktop-http',
      'claude-code-http',
      'cursor-http',
      'vscode-http',
      'gemini-http',
    ]);
    expect(JSON.parse(snippets[0]?.text ?? '{}')).toEqual({
      mcpServers: {
        skillbench: {
          command: '/usr/bin/node',
          args: ['/opt/skillbench/out/main/cli.js', 'serve', '--stdio', lib.path],
        },
      },
    });
    expect(snippets.find((s) => s.id === 'claude-code-http')?.text).toBe(
      `claude mcp add --transport http skillbench ${status.url} --header 'Authorization: Bearer ${status.token}'`,
    );
    expect(JSON.parse(snippets.find((s) => s.id === 'vscode-http')?.text ?? '{}')).toEqual({
      servers: {
        skillbench: {
          type: 'http',
          url: status.url,
          headers: { Authorization: `Bearer ${status.token}` },
        },
      },
    });

    const newToken = await service.regenerateToken();
    expect(newToken).not.toBe(status.token);
    await expect(client.listResources()).rejects.toThrow();
    const refused = await fetch(status.url ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${status.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    await client.close().catch(() => undefined);

    await service.stop();
    expect(service.status()).toMatchObject({ state: 'stopped', url: undefined, token: undefined });
    expect(states).toEqual(['starting', 'running', 'running', 'stopping', 'stopped']);
  });

  it('fails with a plain reason for an unsafe bind', async () => {
    const lib = await tempDir();
    cleanups.push(() => lib.remove());
    const service = new SkillsServerService({ roots: [lib.path], watch: false, host: '0.0.0.0' });
    const status = await service.start();
    expect(status.state).toBe('failed');
    expect(status.error).toContain('Refusing to listen on 0.0.0.0');
  });
});

describe('archives', () => {
  it('are reproducible (same files, same bytes), with SKILL.md at the root and fixed times', async () => {
    const lib = await tempDir();
    cleanups.push(() => lib.remove());
    await writeTree(lib.path, {
      'x/SKILL.md': skillMd('name: x\ndescription: y'),
      'x/references/b.md': 'b',
      [`x/deep/${'n'.repeat(150)}.md`]: 'long',
    });
    const archivesOf = async (): Promise<{ tarGz: Buffer; zip: Buffer }> => {
      const view = legacyView(await buildSnapshot([lib.path]), { archives: true, personal: false });
      const tarGz = view.byUri.get('skill://x.tar.gz');
      const zip = view.byUri.get('skill://x.zip');
      if (!tarGz || !zip) throw new Error('archives missing');
      return { tarGz: Buffer.from(await tarGz.bytes()), zip: Buffer.from(await zip.bytes()) };
    };
    const first = await archivesOf();
    const second = await archivesOf();
    expect(first.tarGz.equals(second.tarGz)).toBe(true);
    expect(first.zip.equals(second.zip)).toBe(true);
    const tar = gunzipSync(first.tarGz);
    expect(tar.subarray(0, 8).toString('latin1')).toBe('SKILL.md');
    expect(tar.subarray(136, 147).toString('latin1')).toBe(
      (315532800).toString(8).padStart(11, '0'),
    );
    expect(tar.includes(Buffer.from(`deep/${'n'.repeat(150)}.md`))).toBe(true);
  });
});

describe('prompts', () => {
  it('substitute named arguments and positional placeholders', async () => {
    const lib = await tempDir();
    cleanups.push(() => lib.remove());
    await writeTree(lib.path, {
      'deploy/SKILL.md': skillMd(
        'name: deploy\ndescription: Deploy a service.\narguments: [service, env]',
        'Deploy $service to $env. ($1/$2) [$ARGUMENTS]\n',
      ),
    });
    const snap = await buildSnapshot([lib.path]);
    const [prompt] = skillPrompts(snap.skills);
    expect(prompt?.arguments.map((a) => a.name)).toEqual(['service', 'env']);
    expect(renderPromptBody(prompt, { service: 'api', env: 'prod' })).toBe(
      'Deploy api to prod. (api/prod) [api prod]\n',
    );
  });
});

describe('the bearer tokens the server makes', () => {
  it('never start with "-", so `--token TOKEN` on any command line reads them as a value', () => {
    // One in 64 base64url tokens began with "-" (an inspect test failed on one such token);
    // 10,000 draws would hold about 156 of them.
    const tokens = Array.from({ length: 10_000 }, () => generateToken());
    expect(tokens.filter((t) => t.startsWith('-'))).toEqual([]);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const t of tokens.slice(0, 100)) expect(t).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
  });
});
