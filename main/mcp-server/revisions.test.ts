/**
 * Protocol 2026-07-28 beside 2025-11-25 (docs/skills-over-mcp.md, "Protocol revisions"): the
 * same server answers `server/discover`, per-request `_meta` and the stateless HTTP rules of
 * the new revision, with `resultType`, `ttlMs` and `cacheScope` only there, while a 2025-11-25
 * client keeps its session and its results exactly as before. Raw messages on the wire, to a
 * real stdio child process and a real HTTP host on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import { bundleCli, makeTestLibrary, skillMd, tempDir, writeTree } from '../testing/skill-library';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'revisions-test', version: '1' },
};
const CACHE = { ttlMs: 0, cacheScope: 'private' };
const SERVER_INFO = {
  'io.modelcontextprotocol/serverInfo': { name: 'skillbench', version: '0.1.0' },
};

interface Answer {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  error?: { code: number; message: string; data?: unknown };
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

function modern(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
): unknown {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } };
}

/** A stdio server process, spoken to line by line. */
function stdioServer(
  cli: string,
  lib: string,
): {
  child: ChildProcessWithoutNullStreams;
  send(message: unknown): void;
  next(): Promise<Answer>;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [cli, 'serve', '--stdio', '--no-watch', lib]);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  let out = '';
  const lines: Answer[] = [];
  const waiters: ((a: Answer) => void)[] = [];
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    let nl: number;
    while ((nl = out.indexOf('\n')) !== -1) {
      const a = JSON.parse(out.slice(0, nl)) as Answer;
      out = out.slice(nl + 1);
      const w = waiters.shift();
      if (w) w(a);
      else lines.push(a);
    }
  });
  child.stderr.resume();
  return {
    child,
    send: (m) => child.stdin.write(`${JSON.stringify(m)}\n`),
    next: () => {
      const a = lines.shift();
      return a ? Promise.resolve(a) : new Promise((resolve) => waiters.push(resolve));
    },
    exited,
  };
}

/** One raw POST; the answer's status, headers and JSON body. */
function post(
  host: HttpHost,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Answer }> {
  const message = body as { method?: string; params?: { uri?: string; name?: string } };
  const defaults: Record<string, string> = {
    authorization: `Bearer ${host.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
  };
  if (message.method) defaults['mcp-method'] = message.method;
  const name = message.method === 'resources/read' ? message.params?.uri : undefined;
  if (name) defaults['mcp-name'] = name;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...defaults, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: (text ? JSON.parse(text) : {}) as Answer,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A `subscriptions/listen` stream: its events as they come, and the way to close it. */
async function listen(
  host: HttpHost,
  notifications: Record<string, unknown>,
): Promise<{ next(): Promise<Answer>; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(host.url, {
    method: 'POST',
    signal: ac.signal,
    headers: {
      authorization: `Bearer ${host.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify(modern('listen-1', 'subscriptions/listen', { notifications })),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: Answer[] = [];
  return {
    async next() {
      while (events.length === 0) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the listen stream ended');
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (data) events.push(JSON.parse(data) as Answer);
        }
      }
      return events.shift() as Answer;
    },
    close: () => ac.abort(),
  };
}

describe('protocol 2026-07-28 beside 2025-11-25', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  let catalog: LiveCatalog;
  let host: HttpHost;
  const children: ChildProcessWithoutNullStreams[] = [];

  beforeAll(async () => {
    lib = await tempDir();
    await makeTestLibrary(lib.path);
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
    catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    host = await startHttpHost(catalog, { maxConcurrent: 4 });
  }, 120_000);

  afterAll(async () => {
    for (const c of children) c.kill();
    await host?.close();
    catalog?.close();
    await lib?.remove();
    await build?.remove();
  });

  function stdio(): ReturnType<typeof stdioServer> {
    const s = stdioServer(cli, lib.path);
    children.push(s.child);
    return s;
  }

  it('stdio: server/discover names both the revision and the capabilities; the extension results carry the cache fields', async () => {
    const s = stdio();
    s.send(modern(1, 'server/discover'));
    const discover = await s.next();
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN],
      capabilities: {
        resources: { subscribe: true, listChanged: true },
        extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
      },
      ...CACHE,
      _meta: SERVER_INFO,
    });
    s.send(modern(2, 'skills/list'));
    const list = await s.next();
    expect(list.result).toMatchObject({ resultType: 'complete', ...CACHE, _meta: SERVER_INFO });
    expect((list.result?.skills as unknown[]).length).toBe(5);
    s.send(modern(3, 'skills/get', { uri: 'skill://alpha/SKILL.md' }));
    expect((await s.next()).result).toMatchObject({ resultType: 'complete', ...CACHE });
    s.send(modern(4, 'resources/directory/read', { uri: 'skill://alpha' }));
    expect((await s.next()).result).toMatchObject({ resultType: 'complete', ...CACHE });
    s.send(modern(5, 'resources/read', { uri: 'skill://alpha/SKILL.md' }));
    expect((await s.next()).result).toMatchObject({ resultType: 'complete', ...CACHE });
    s.send(modern(6, 'resources/read', { uri: 'skill://alpha/nope.md' }));
    expect(await s.next()).toMatchObject({
      id: 6,
      error: { code: -32602, data: { uri: 'skill://alpha/nope.md' } },
    });
    // The handshake belongs to 2025-11-25: a connection that opened modern answers it with the versions it speaks.
    s.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    });
    expect(await s.next()).toMatchObject({
      id: 7,
      error: { code: -32022, data: { supported: [MODERN] } },
    });
  });

  it('stdio: a 2025-11-25 connection gets its results as before, without the new fields', async () => {
    const s = stdio();
    s.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    });
    expect((await s.next()).result).toMatchObject({ protocolVersion: '2025-11-25' });
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 2, method: 'skills/list', params: {} });
    const list = (await s.next()).result ?? {};
    expect(Object.keys(list).sort()).toEqual(['skills']);
    s.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'resources/read',
      params: { uri: 'skill://quiet/SKILL.md' },
    });
    expect(Object.keys((await s.next()).result ?? {})).toEqual(['contents']);
  });

  it('stdio: parameters of the wrong type get -32602 with a plain sentence on the modern revision too', async () => {
    const s = stdio();
    s.send(modern(1, 'resources/read', { uri: 5 }));
    const a = await s.next();
    expect(a).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(a.error?.message).toBe(
      'In resources/read, "uri" must be text (a string), not a number.',
    );
  });

  it('stdio: a listen stream open when the client closes its side does not keep the process alive', async () => {
    const s = stdio();
    s.send(
      modern('listen', 'subscriptions/listen', { notifications: { resourcesListChanged: true } }),
    );
    expect(await s.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen' } },
    });
    s.send(modern(2, 'skills/list'));
    expect(await s.next()).toMatchObject({ id: 2 });
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  });

  it('HTTP: stateless — no session is made, every request stands alone, results carry the new fields', async () => {
    const sessions = host.sessionCount();
    const discover = await post(host, modern(1, 'server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.headers['mcp-session-id']).toBeUndefined();
    expect(discover.body.result).toMatchObject({ supportedVersions: [MODERN], ...CACHE });
    const list = await post(host, modern(2, 'skills/list'), { 'mcp-session-id': 'not-a-session' });
    expect(list.status).toBe(200);
    expect(list.body.result).toMatchObject({
      resultType: 'complete',
      ...CACHE,
      _meta: SERVER_INFO,
    });
    const read = await post(host, modern(3, 'resources/read', { uri: 'skill://alpha/SKILL.md' }));
    expect(read.body.result).toMatchObject({ resultType: 'complete', ...CACHE });
    expect(host.sessionCount()).toBe(sessions);
    expect(host.stats().inFlight).toBe(0);
  });

  it('HTTP: the header and version checks of the new revision (400 -32020, 400 -32022, 400 -32602, 404 -32601)', async () => {
    const noMethod = await post(host, modern(1, 'skills/list'), { 'mcp-method': 'tools/list' });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body.error?.code).toBe(-32020);
    const noName = await post(
      host,
      modern(2, 'resources/read', { uri: 'skill://alpha/SKILL.md' }),
      {
        'mcp-name': 'skill://quiet/SKILL.md',
      },
    );
    expect(noName.status).toBe(400);
    expect(noName.body.error?.code).toBe(-32020);
    const future = await post(
      host,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'skills/list',
        params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(future.status).toBe(400);
    expect(future.body.error).toMatchObject({ code: -32022, data: { supported: [MODERN] } });
    const noMeta = await post(host, { jsonrpc: '2.0', id: 4, method: 'skills/list', params: {} });
    expect(noMeta.status).toBe(400);
    expect(noMeta.body.error?.code).toBe(-32602);
    const unknown = await post(host, modern(5, 'tasks/list'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe(-32601);
    // resources/subscribe belongs to 2025-11-25; the new revision has subscriptions/listen.
    const subscribe = await post(
      host,
      modern(6, 'resources/subscribe', { uri: 'skill://alpha/SKILL.md' }),
    );
    expect(subscribe.body.error?.code).toBe(-32601);
    expect(host.stats().inFlight).toBe(0);
  });

  it('HTTP: the checks and limits in front apply to the new revision too (token, Host, parameters)', async () => {
    const noToken = await post(host, modern(1, 'skills/list'), { authorization: '' });
    expect(noToken.status).toBe(401);
    const rebinding = await post(host, modern(2, 'skills/list'), { host: 'evil.example:80' });
    expect(rebinding.status).toBe(403);
    const wrongType = await post(host, modern(3, 'skills/get', { uri: 42 }));
    expect(wrongType.body.error).toMatchObject({
      code: -32602,
      message: 'In skills/get, "uri" must be text (a string), not a number.',
    });
  });

  it('HTTP: a listen stream gets the ack first, then only what it asked for, tagged with its id; it takes no request slot', async () => {
    const dir = await tempDir();
    await writeTree(dir.path, {
      'one/SKILL.md': skillMd('name: one\ndescription: The first one.'),
      'one/notes.md': 'v1\n',
    });
    const live = new LiveCatalog([dir.path], { watch: false });
    await live.load();
    const tight = await startHttpHost(live, { maxConcurrent: 1 });
    try {
      const stream = await listen(tight, {
        resourceSubscriptions: ['skill://one/notes.md'],
        resourcesListChanged: true,
      });
      expect(await stream.next()).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: {
          _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
          notifications: {
            resourceSubscriptions: ['skill://one/notes.md'],
            resourcesListChanged: true,
          },
        },
      });
      // With one request slot and the stream open, requests are still answered.
      expect((await post(tight, modern(1, 'skills/list'))).status).toBe(200);
      await writeTree(dir.path, {
        'one/notes.md': 'v2\n',
        'two/SKILL.md': skillMd('name: two\ndescription: The second one.'),
      });
      await live.rebuild();
      const seen = [await stream.next(), await stream.next()];
      expect(seen.map((e) => e.method).sort()).toEqual([
        'notifications/resources/list_changed',
        'notifications/resources/updated',
      ]);
      for (const e of seen)
        expect(e.params?._meta).toMatchObject({
          'io.modelcontextprotocol/subscriptionId': 'listen-1',
        });
      expect(seen.find((e) => e.method === 'notifications/resources/updated')?.params?.uri).toBe(
        'skill://one/notes.md',
      );
      stream.close();
      expect(tight.stats().inFlight).toBe(0);
    } finally {
      await tight.close();
      live.close();
      await dir.remove();
    }
  });

  it('HTTP: fifty modern requests leave no session, no request and no catalog listener behind', async () => {
    const before = catalog.listenerCount('changed');
    for (let i = 0; i < 50; i++)
      expect(
        (await post(host, modern(i, 'resources/read', { uri: 'skill://alpha/SKILL.md' }))).status,
      ).toBe(200);
    expect(catalog.listenerCount('changed')).toBe(before);
    expect(host.stats()).toMatchObject({ inFlight: 0, pendingAnswers: 0 });
  });
});
