/**
 * The inspector negotiates the newest protocol revision a server offers and falls back to
 * 2025-11-25 (main/inspector/era.ts): against real servers on 127.0.0.1 and real child
 * processes — ours (both revisions), the official SDK v2 server made modern-only, and SDK 1.32
 * servers that know no revision after 2025-11-25, over HTTP and stdio.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerValue } from './era';
import { InspectorSession } from './session';
import { ProtocolLog } from './protocol-log';
import type { ConnectionInput } from './types';
import {
  fixtureSkill,
  serveFetch,
  startEmbeddedHttp,
  startFixture,
} from '../testing/inspector-servers';
import type { RunningServer } from '../testing/inspector-servers';
import { bundleCli, makeTestLibrary, REPO_ROOT, tempDir } from '../testing/skill-library';

const SKILL = fixtureSkill(
  'alpha',
  { name: 'alpha', description: 'A fixture skill.' },
  { 'SKILL.md': '---\nname: alpha\ndescription: A fixture skill.\n---\nBody.\n' },
);

/** An SDK 1.32 server on stdio: it speaks 2025-11-25 at most and answers the probe with -32601. */
const LEGACY_STDIO = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new Server({ name: 'legacy-stdio', version: '1.0.0' }, {
  capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } },
});
server.setRequestHandler(z.object({ method: z.literal('skills/list'), params: z.any() }), () => ({
  skills: ${JSON.stringify([SKILL.entry])},
}));
await server.connect(new StdioServerTransport());
`;

interface Opened {
  session: InspectorSession;
  log: ProtocolLog;
}

async function open(input: Omit<ConnectionInput, 'label'>): Promise<Opened> {
  const log = new ProtocolLog();
  const session = await InspectorSession.open({ label: 'era', ...input }, { log });
  sessions.push(session);
  return { session, log };
}

const sessions: InspectorSession[] = [];

describe('the inspector negotiates the newest revision a server offers', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    lib = await tempDir();
    await makeTestLibrary(lib.path);
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
  }, 120_000);

  afterAll(async () => {
    for (const s of sessions) await s.close();
    for (const s of servers) await s.close();
    await lib?.remove();
    await build?.remove();
  });

  it('ours over HTTP: 2026-07-28, every request with the per-request _meta after one probe', async () => {
    const server = await startEmbeddedHttp(lib.path);
    servers.push(server);
    const { session, log } = await open({
      kind: 'http',
      url: server.url,
      bearerToken: server.token,
    });
    expect(session.status().protocolVersion).toBe('2026-07-28');
    expect(session.skillsCapability).toEqual({ directoryRead: true });
    const page = await session.listSkillsPage();
    expect(page.skills.length).toBeGreaterThan(0);
    const out = log.query({ direction: 'out' });
    expect(out.map((e) => e.method)).toEqual(['server/discover', 'skills/list']);
    for (const e of out)
      expect(JSON.stringify(e.message)).toContain(
        '"io.modelcontextprotocol/protocolVersion":"2026-07-28"',
      );
    // No handshake on the modern revision: no initialize, no initialized, no session.
    expect(log.query({ method: 'initialize' })).toEqual([]);
    expect(log.query({ method: 'notifications/initialized' })).toEqual([]);
  });

  it('ours over stdio: 2026-07-28', async () => {
    const { session } = await open({
      kind: 'stdio',
      command: process.execPath,
      args: [cli, 'serve', '--stdio', '--no-watch', lib.path],
    });
    expect(session.status().protocolVersion).toBe('2026-07-28');
    const r = await session.readResource('skill://alpha/SKILL.md');
    expect(r.text).toContain('name: alpha');
  });

  it('the official SDK v2 server when it speaks only 2026-07-28: 2026-07-28', async () => {
    const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
    const handler = createMcpHandler(
      () =>
        new McpServer(
          { name: 'modern-only', version: '1.0.0' },
          { capabilities: { resources: {} } },
        ),
      { legacy: 'reject' },
    );
    const server = await serveFetch((req) => handler.fetch(req));
    servers.push({ ...server, close: async () => (await handler.close(), await server.close()) });
    const { session } = await open({ kind: 'http', url: server.url });
    expect(session.status().protocolVersion).toBe('2026-07-28');
    expect(session.status().serverInfo).toEqual({ name: 'modern-only', version: '1.0.0' });
  });

  it('an SDK 1.32 server over HTTP, which knows no newer revision: falls back to 2025-11-25', async () => {
    const server = await startFixture({
      extension: {},
      listSkills: () => ({ skills: [SKILL.entry] }),
      files: SKILL.files,
    });
    servers.push(server);
    const { session, log } = await open({ kind: 'http', url: server.url });
    expect(session.status().protocolVersion).toBe('2025-11-25');
    expect((await session.listSkillsPage()).skills).toHaveLength(1);
    const methods = log.query({ direction: 'out' }).map((e) => e.method);
    expect(methods.slice(0, 3)).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
    ]);
    // Nothing modern after the fallback.
    const list = log.query({ direction: 'out', method: 'skills/list' });
    expect(JSON.stringify(list[0]?.message)).not.toContain(
      'io.modelcontextprotocol/protocolVersion',
    );
  });

  it('an SDK 1.32 server over stdio: falls back to 2025-11-25', async () => {
    const { session } = await open({
      kind: 'stdio',
      command: process.execPath,
      args: ['--input-type=module', '-e', LEGACY_STDIO],
      cwd: REPO_ROOT,
    });
    expect(session.status().protocolVersion).toBe('2025-11-25');
    expect((await session.listSkillsPage()).skills).toHaveLength(1);
  });
});

describe('header values of modern requests', () => {
  it('are sent as they are when plain ASCII, and base64 in the sentinel form otherwise', () => {
    expect(headerValue('skill://alpha/SKILL.md')).toBe('skill://alpha/SKILL.md');
    expect(headerValue('skill://alpha/café.md')).toBe(
      `=?base64?${Buffer.from('skill://alpha/café.md').toString('base64')}?=`,
    );
    expect(headerValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(headerValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    expect(headerValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
  });
});
