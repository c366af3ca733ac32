/**
 * The HTTP host stays available when some clients misbehave: bodies that trickle in take no
 * request slot and are cut off at a deadline, headers likewise, a client that stops reading its
 * answers is disconnected (its answers are not kept), and one session cannot take every slot.
 * Every case uses real sockets (`node:net`) against a real host on 127.0.0.1; timeouts are set
 * short and the tests wait for outcomes (a closed socket, a log entry, an answer), never for time.
 */
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListSkillsResultSchema } from '../../shared/sep';
import { startHttpHost } from './http-host';
import type { HttpHost, HttpHostOptions } from './http-host';
import { LiveCatalog } from './live-catalog';
import type { RequestLogEntry } from './mcp-server';
import { makeTestLibrary, tempDir, writeTree, skillMd } from '../testing/skill-library';

/** Larger than what a loopback connection absorbs for a peer that does not read (~4 MiB here), so its answer stalls. */
const HUGE = 6 * 1024 * 1024;
const HUGE_URI = 'skill://huge/references/huge.md';

let lib: Awaited<ReturnType<typeof tempDir>>;
let catalog: LiveCatalog;
const hosts: HttpHost[] = [];
const sockets: Socket[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  lib = await tempDir();
  await makeTestLibrary(lib.path);
  await writeTree(lib.path, {
    'huge/SKILL.md': skillMd('name: huge\ndescription: Holds one very large reference file.'),
    'huge/references/huge.md': 'y'.repeat(HUGE),
  });
  catalog = new LiveCatalog([lib.path], { watch: false });
  await catalog.load();
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(hosts.map((h) => h.close()));
  catalog?.close();
  await lib?.remove();
});

/** A host whose log can be awaited: `when(test)` resolves with the first entry that passes. */
async function hostWithLog(options: HttpHostOptions): Promise<{
  host: HttpHost;
  when: (test: (e: RequestLogEntry) => boolean) => Promise<RequestLogEntry>;
  log: RequestLogEntry[];
}> {
  const log: RequestLogEntry[] = [];
  const waiters: {
    test: (e: RequestLogEntry) => boolean;
    resolve: (e: RequestLogEntry) => void;
  }[] = [];
  const host = await startHttpHost(catalog, {
    ...options,
    onRequest: (e) => {
      log.push(e);
      for (const w of [...waiters])
        if (w.test(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(e);
        }
    },
  });
  hosts.push(host);
  return {
    host,
    log,
    when: (test) => {
      const hit = log.find(test);
      return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push({ test, resolve }));
    },
  };
}

async function client(host: HttpHost): Promise<Client> {
  const c = new Client({ name: 'limits-test', version: '1' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(host.url), {
      requestInit: { headers: { Authorization: `Bearer ${host.token}` } },
    }),
  );
  clients.push(c);
  return c;
}

/** A raw connection to the host that records what it receives and resolves `closed` at the end. */
function rawSocket(host: HttpHost): Promise<{
  socket: Socket;
  received(): string;
  bytes(): number;
  closed: Promise<void>;
  waitFor(text: string): Promise<void>;
}> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(host.port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    let bytes = 0;
    const waiters: { text: string; resolve: () => void }[] = [];
    socket.on('data', (c: Buffer) => {
      bytes += c.length;
      if (text.length < 64 * 1024) text += c.toString('latin1');
      for (const w of [...waiters])
        if (text.includes(w.text)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        bytes: () => bytes,
        closed,
        waitFor: (t) =>
          text.includes(t)
            ? Promise.resolve()
            : new Promise((r) => waiters.push({ text: t, resolve: r })),
      }),
    );
    socket.once('error', reject);
  });
}

function head(host: HttpHost, extra: Record<string, string>, length: number): string {
  const headers = {
    Host: `127.0.0.1:${host.port}`,
    Authorization: `Bearer ${host.token}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Content-Length': String(length),
    ...extra,
  };
  return `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

/** A session made over plain HTTP, for raw sockets that pipeline requests in it. */
async function rawSession(host: HttpHost): Promise<string> {
  const r = await fetch(host.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${host.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  await r.text();
  return r.headers.get('mcp-session-id') ?? '';
}

function pipelinedReads(host: HttpHost, session: string, count: number): string {
  let out = '';
  for (let id = 1; id <= count; id++) {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'resources/read',
      params: { uri: HUGE_URI },
    });
    out +=
      head(
        host,
        { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-11-25' },
        Buffer.byteLength(body),
      ) + body;
  }
  return out;
}

describe('HTTP host under misbehaving clients', () => {
  it('40 requests whose bodies trickle in take no request slot: another client is answered meanwhile', async () => {
    // Before: each trickling body counted as in flight, so 40 of them made every other client get 503.
    const { host } = await hostWithLog({ bodyTimeoutMs: 120_000 });
    const trickles = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const raw = await rawSocket(host);
        // Expect: 100-continue makes the server say when it has the headers and runs the request.
        raw.socket.write(head(host, { Expect: '100-continue' }, 200));
        await raw.waitFor('HTTP/1.1 100 Continue');
        raw.socket.write('{');
        return raw;
      }),
    );
    const c = await client(host);
    const list = await c.request({ method: 'skills/list', params: {} }, ListSkillsResultSchema);
    expect(list.skills.length).toBeGreaterThan(0);
    expect((await c.readResource({ uri: 'skill://alpha/SKILL.md' })).contents).toHaveLength(1);
    expect(host.stats().inFlight).toBe(0);
    expect(trickles.every((t) => t.socket.readyState === 'open')).toBe(true);
  });

  it('a body that does not arrive within bodyTimeoutMs gets 408 and its connection is closed', async () => {
    const { host } = await hostWithLog({ bodyTimeoutMs: 200 });
    const raw = await rawSocket(host);
    raw.socket.write(head(host, {}, 200));
    raw.socket.write('{');
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(raw.received()).toContain('did not arrive within 0.2 s');
  });

  it('headers that do not arrive within headersTimeoutMs: the connection is closed', async () => {
    const { host } = await hostWithLog({ headersTimeoutMs: 200 });
    const raw = await rawSocket(host);
    raw.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n`);
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a client that stops reading its answers is disconnected, and nothing of its requests is kept', async () => {
    // Before: a client that never read kept its answers in memory for as long as it stayed connected.
    const { host, when } = await hostWithLog({ idleTimeoutMs: 500 });
    const session = await rawSession(host);
    const raw = await rawSocket(host);
    raw.socket.pause();
    raw.socket.write(pipelinedReads(host, session, 3));
    const dropped = await when((e) => e.status === 408 && e.method === 'HTTP');
    expect(dropped.message).toContain('stopped reading');
    raw.socket.resume();
    await raw.closed;
    // Less than one whole answer reached the client: the rest was dropped with the connection.
    expect(raw.bytes()).toBeLessThan(HUGE);
    expect(host.stats()).toMatchObject({ inFlight: 0, pendingAnswers: 0 });
  });

  it('a request its client cancels frees its slot at once: the POST ends with 202 instead of waiting for the idle timeout', async () => {
    const { host } = await hostWithLog({ maxConcurrentPerSession: 1 });
    const session = await rawSession(host);
    for (let id = 1; id <= 3; id++) {
      // One slot for the session: a cancelled request that kept it would block the next POST (429).
      const r = await fetch(host.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': session,
        },
        body: JSON.stringify([
          { jsonrpc: '2.0', id, method: 'resources/read', params: { uri: HUGE_URI } },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } },
        ]),
      });
      expect(r.status).toBe(202);
      expect(await r.text()).toBe('');
    }
    expect(host.stats()).toMatchObject({ inFlight: 0, pendingAnswers: 0 });
  });

  it('one session cannot take every request slot: its extra requests get 429 while another session is answered', async () => {
    const { host, log, when } = await hostWithLog({ maxConcurrent: 4, maxConcurrentPerSession: 2 });
    const session = await rawSession(host);
    const raw = await rawSocket(host);
    raw.socket.pause();
    // Six pipelined reads of a file too large to leave: the first answer stalls, so two slots stay taken.
    raw.socket.write(pipelinedReads(host, session, 6));
    await when((e) => log.filter((x) => x.status === 429).length === 4 || e.status === 503);
    expect(log.filter((e) => e.status === 429)).toHaveLength(4);
    expect(log.filter((e) => e.status === 503)).toHaveLength(0);
    expect(host.stats().inFlight).toBe(2);
    const other = await client(host);
    expect((await other.readResource({ uri: 'skill://alpha/SKILL.md' })).contents).toHaveLength(1);
    raw.socket.destroy();
  });
});
