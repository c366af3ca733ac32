/**
 * The right JSON-RPC error codes on both transports (JSON-RPC 2.0 §5.1): -32700 for text that
 * is not JSON, -32600 for JSON that is not a request (and for a line over the limit), -32602
 * with a plain sentence for parameters of the wrong type, and the server stays up after each.
 * Subscriptions are bounded and refused for URIs that are not served. One catalog listener
 * serves any number of sessions.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import { bundleCli, makeTestLibrary, tempDir } from '../testing/skill-library';

const Loose = z.looseObject({});

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A stdio server process spoken to line by line, raw. */
interface RawStdio {
  child: ChildProcessWithoutNullStreams;
  write(text: string | Buffer): Promise<void>;
  next(): Promise<Answer>;
  /** Resolves once stderr holds `text` (stdout and stderr are separate pipes: no order between them). */
  stderrHas(text: string): Promise<void>;
}

function rawStdio(cli: string, lib: string): RawStdio {
  const child = spawn(process.execPath, [cli, 'serve', '--stdio', '--no-watch', lib]);
  let out = '';
  let err = '';
  const lines: Answer[] = [];
  const waiters: ((a: Answer) => void)[] = [];
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    let nl: number;
    while ((nl = out.indexOf('\n')) !== -1) {
      const answer = JSON.parse(out.slice(0, nl)) as Answer;
      out = out.slice(nl + 1);
      const w = waiters.shift();
      if (w) w(answer);
      else lines.push(answer);
    }
  });
  const stderrWaiters: { text: string; resolve: () => void }[] = [];
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    for (const w of [...stderrWaiters])
      if (err.includes(w.text)) {
        stderrWaiters.splice(stderrWaiters.indexOf(w), 1);
        w.resolve();
      }
  });
  return {
    child,
    write: (text) =>
      new Promise((resolve, reject) => child.stdin.write(text, (e) => (e ? reject(e) : resolve()))),
    next: () => {
      const a = lines.shift();
      return a ? Promise.resolve(a) : new Promise((resolve) => waiters.push(resolve));
    },
    stderrHas: (text) =>
      err.includes(text)
        ? Promise.resolve()
        : new Promise((resolve) => stderrWaiters.push({ text, resolve })),
  };
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

function line(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

async function expectCode(p: Promise<unknown>, code: number): Promise<McpError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).code).toBe(code);
    return e as McpError;
  }
  throw new Error(`expected error ${code}, got a result`);
}

describe('JSON-RPC errors', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  let catalog: LiveCatalog;
  let host: HttpHost;
  const clients: Client[] = [];
  const children: ChildProcessWithoutNullStreams[] = [];

  beforeAll(async () => {
    lib = await tempDir();
    await makeTestLibrary(lib.path);
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
    catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    host = await startHttpHost(catalog, { maxSubscriptions: 2 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    for (const c of children) c.kill();
    await host?.close();
    catalog?.close();
    await lib?.remove();
    await build?.remove();
  });

  async function httpClient(): Promise<Client> {
    const client = new Client({ name: 'errors-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(host.url), {
        requestInit: { headers: { Authorization: `Bearer ${host.token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  function stdio(): RawStdio {
    const s = rawStdio(cli, lib.path);
    children.push(s.child);
    return s;
  }

  function rawPost(body: string): Promise<{ status: number; body: Answer }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            authorization: `Bearer ${host.token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          let data = '';
          res.on('data', (c: Buffer) => (data += c.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) as Answer }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('stdio: text that is not JSON gets -32700, JSON that is not a request gets -32600, and the server goes on', async () => {
    const s = stdio();
    await s.write('this is not json\n');
    expect(await s.next()).toMatchObject({ id: null, error: { code: -32700 } });
    await s.write(line({ hello: 'world' }));
    expect(await s.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await s.write(line({ jsonrpc: '2.0', id: 7, method: 5 }));
    expect(await s.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    await s.write(line([{ jsonrpc: '2.0', id: 8, method: 'ping' }]));
    expect(await s.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await s.write(line(INIT));
    expect(await s.next()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    await s.write(line({ jsonrpc: '2.0', id: 2, method: 'ping' }));
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('stdio: a 12 MiB line gets an error answer, a sentence on stderr, and the server stays up', async () => {
    // Before: the SDK's stdio transport closed on a line over 10 MB and the process exited 0 without a word.
    const s = stdio();
    await s.write(line(INIT));
    await s.next();
    const huge = line({
      jsonrpc: '2.0',
      id: 3,
      method: 'ping',
      params: { pad: 'a'.repeat(12 * 1024 * 1024) },
    });
    await s.write(huge);
    const refused = await s.next();
    expect(refused).toMatchObject({ id: null, error: { code: -32600 } });
    expect(refused.error?.message).toContain('larger than the 4.2 MB');
    await s.write(line({ jsonrpc: '2.0', id: 4, method: 'ping' }));
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    expect(s.child.exitCode).toBeNull();
    await s.stderrHas('ignored a message of 12.6 MB; one line may hold at most 4.2 MB.');
  });

  it('stdio: parameters of the wrong type get -32602 with a plain sentence, not -32603 with a validator dump', async () => {
    const s = stdio();
    await s.write(line({ ...INIT, params: { ...INIT.params, protocolVersion: 20251125 } }));
    const init = await s.next();
    expect(init).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(init.error?.message).toBe(
      'In initialize, "protocolVersion" must be text (a string), not a number.',
    );
    await s.write(line(INIT));
    await s.next();
    await s.write(line({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 5 } }));
    const read = await s.next();
    expect(read).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(read.error?.message).toBe(
      'In resources/read, "uri" must be text (a string), not a number.',
    );
    expect(read.error?.data).toEqual({
      issues: [{ path: 'params.uri', message: 'Invalid input: expected string, received number' }],
    });
    await s.write(line({ jsonrpc: '2.0', id: 6, method: 'skills/get', params: {} }));
    const get = await s.next();
    expect(get).toMatchObject({ id: 6, error: { code: -32602 } });
    expect(get.error?.message).toBe('skills/get needs "uri", which must be text (a string).');
  });

  it('stdio: requests the client cancels do not keep their places (the server never answers them)', async () => {
    const s = stdio();
    const exited = new Promise<number | null>((resolve) =>
      s.child.once('exit', (code) => resolve(code)),
    );
    await s.write(line(INIT));
    await s.next();
    // Forty requests, each cancelled right behind it: more than the 16 answered at once.
    let batch = '';
    for (let id = 100; id < 140; id++)
      batch +=
        line({
          jsonrpc: '2.0',
          id,
          method: 'resources/read',
          params: { uri: 'skill://alpha/SKILL.md' },
        }) + line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
    s.child.stdin.end(batch + line({ jsonrpc: '2.0', id: 'after', method: 'ping' }));
    let answer: Answer;
    do answer = await s.next();
    while (answer.id !== 'after');
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
    // The server closes once nothing is waiting for an answer: a cancelled request still counted would keep it running.
    expect(await exited).toBe(0);
  });

  it('stdio: when the client closes its side, what it sent is still answered and the process exits 0', async () => {
    const s = stdio();
    const exited = new Promise<number | null>((resolve) =>
      s.child.once('exit', (code) => resolve(code)),
    );
    s.child.stdin.end(line(INIT) + line({ jsonrpc: '2.0', id: 2, method: 'ping' }));
    expect(await s.next()).toMatchObject({ id: 1 });
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(await exited).toBe(0);
  });

  it('HTTP: a body that is not JSON gets 400 with -32700; JSON that is not a request gets -32600', async () => {
    const bad = await rawPost('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ id: null, error: { code: -32700 } });
    const notRpc = await rawPost(JSON.stringify({ hello: 'world' }));
    expect(notRpc.status).toBe(400);
    expect(notRpc.body).toMatchObject({ error: { code: -32600 } });
    const badInit = await rawPost(
      JSON.stringify({ ...INIT, params: { ...INIT.params, capabilities: 'all' } }),
    );
    expect(badInit.status).toBe(400);
    expect(badInit.body).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(badInit.body.error?.message).toBe(
      'In initialize, "capabilities" must be an object, not a string.',
    );
    expect(host.sessionCount()).toBe(0);
  });

  it('HTTP: parameters of the wrong type get -32602 with a plain sentence', async () => {
    const client = await httpClient();
    const e = await expectCode(
      client.request(
        { method: 'resources/read', params: { uri: ['skill://alpha/SKILL.md'] } },
        Loose,
      ),
      -32602,
    );
    expect(e.message).toContain('In resources/read, "uri" must be text (a string), not a list.');
    expect(e.message).not.toContain('Invalid input');
    await expectCode(
      client.request(
        { method: 'prompts/get', params: { name: 'alpha', arguments: { arguments: 42 } } },
        Loose,
      ),
      -32602,
    );
    await expectCode(
      client.request({ method: 'resources/directory/read', params: { uri: null } }, Loose),
      -32602,
    );
    // The session is still good.
    expect((await client.readResource({ uri: 'skill://alpha/SKILL.md' })).contents).toHaveLength(1);
  });

  it('resources/subscribe refuses URIs that are not served (-32602) and more than the cap per session (-32600)', async () => {
    const client = await httpClient();
    await expectCode(client.subscribeResource({ uri: 'skill://nope/SKILL.md' }), -32602);
    await expectCode(client.subscribeResource({ uri: 'skill://alpha/missing.md' }), -32602);
    await client.subscribeResource({ uri: 'skill://alpha/SKILL.md' });
    await client.subscribeResource({ uri: 'skill://index.json' });
    // Subscribing again to the same URI is not a new subscription.
    await client.subscribeResource({ uri: 'skill://alpha/SKILL.md' });
    const e = await expectCode(
      client.subscribeResource({ uri: 'skill://alpha/references/guide.md' }),
      -32600,
    );
    expect(e.message).toContain('already follows 2 resources');
    await client.unsubscribeResource({ uri: 'skill://index.json' });
    await client.subscribeResource({ uri: 'skill://alpha/references/guide.md' });
  });

  it('twelve sessions share one catalog listener (no MaxListenersExceededWarning)', async () => {
    const before = catalog.listenerCount('changed');
    const many = await Promise.all(Array.from({ length: 12 }, () => httpClient()));
    expect(many).toHaveLength(12);
    expect(host.sessionCount()).toBeGreaterThanOrEqual(12);
    expect(catalog.listenerCount('changed')).toBe(Math.max(before, 1));
    expect(catalog.listenerCount('changed')).toBeLessThanOrEqual(1);
  });
});
