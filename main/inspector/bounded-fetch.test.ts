/**
 * The inspector's fetch (boundedFetch, over undici's request) against a real HTTP server on
 * 127.0.0.1: bodies over the bound are refused or cut off, the link to the caller's long-lived
 * abort signal lasts only while a response is being read (whether its body is read to the end,
 * refused, cut off or cancelled unread), aborting the caller stops a body that trickles, and the
 * answer is a standard Response (status, headers, redirects followed as fetch follows them).
 * Why the link matters: the SDK passes one signal for a whole session, so a link left behind
 * per request piles up abort listeners (MaxListenersExceededWarning in long runs).
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { boundedFetch, EventLength } from './http-fetch';
import { InspectorSession } from './session';

describe('boundedFetch', () => {
  let server: Server;
  let url: string;
  const trickling = new Set<ServerResponse>();
  /** Answers held open by `/hold` until the client goes away. */
  const holding = new Set<ServerResponse>();
  const flooding = new Set<ServerResponse>();
  /** Write `piece` again and again, as fast as the client reads, until the connection ends. */
  const flood = (res: ServerResponse, piece: string): void => {
    flooding.add(res);
    const go = (): void => {
      while (!res.destroyed && res.write(piece));
      if (!res.destroyed) res.once('drain', go);
    };
    go();
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/accepted') res.writeHead(202).end();
      else if (req.url === '/big') {
        // Written in pieces, without a length: the bound is found while reading.
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 4; i++) res.write('x'.repeat(1024));
        res.end();
      } else if (req.url === '/document') {
        // A document (not an event stream) with empty lines in it: 8 KB in all.
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 8; i++) res.write(`${'x'.repeat(1000)}\n\n`);
        res.end();
      } else if (req.url === '/many-headers') {
        // 5,000 headers (~100 KB before the body): more than any client should hold for one answer.
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        for (let i = 0; i < 5000; i++) headers[`x-h-${i}`] = 'v'.repeat(10);
        res.writeHead(200, headers);
        res.end('{}');
      } else if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.end('x'.repeat(5000));
      } else if (req.url === '/events') {
        // Eight events of 906 bytes, ended each way the format allows: 7 KB in all.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const ends = ['\n\n', '\r\n\r\n', '\r\r', '\n\r\n'];
        for (let i = 0; i < 8; i++) res.write(`data: ${'y'.repeat(900)}${ends[i % 4]}`);
        res.end();
      } else if (req.url === '/endless-comment') {
        // One comment line that never ends: the reader holds it until its line ends.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': ');
        flood(res, 'z'.repeat(4000));
      } else if (req.url === '/endless-event') {
        // One event that never ends: lines of data, never an empty line.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        flood(res, `data: ${'z'.repeat(500)}\r\n`);
      } else if (req.url === '/trickle') {
        // One byte now, the rest never: only an abort ends this answer.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        trickling.add(res);
      } else if (req.url === '/hold') {
        // Like /trickle, but let go of once the client has gone.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        holding.add(res);
        res.once('close', () => holding.delete(res));
      } else if (req.url === '/moved') res.writeHead(307, { location: '/json' }).end();
      else if (req.url === '/echo') {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          res.writeHead(200, {
            'content-type': 'application/json',
            'x-seen': req.method ?? '',
            'set-cookie': ['a=1', 'b=2'],
          });
          res.end(JSON.stringify({ body, auth: req.headers.authorization }));
        });
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of [...trickling, ...flooding, ...holding]) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('hands over a JSON answer read whole as a Response whose body reads like any other', async () => {
    const base = boundedFetch(1 << 20);
    const post = (): Promise<Response> =>
      base(`${url}/echo`, { method: 'POST', body: '{"a":1}', redirect: 'manual' });
    const expected = { body: '{"a":1}' };
    // Read once: the second read fails, as for any Response.
    const once = await post();
    expect(once.bodyUsed).toBe(false);
    expect(await once.json()).toEqual(expected);
    expect(once.bodyUsed).toBe(true);
    await expect(once.text()).rejects.toThrow(TypeError);
    // A clone reads the same bytes; so do text() and arrayBuffer().
    const twice = await post();
    const copy = twice.clone();
    expect(JSON.parse(await twice.text())).toEqual(expected);
    expect(JSON.parse(Buffer.from(await copy.arrayBuffer()).toString('utf8'))).toEqual(expected);
    expect(() => twice.clone()).toThrow(TypeError);
    // The body as a stream, when someone asks for it, then read through it.
    const streamed = await post();
    const reader = streamed.body?.getReader();
    expect(reader).toBeDefined();
    let text = '';
    for (let r = await reader!.read(); !r.done; r = await reader!.read())
      text += Buffer.from(r.value).toString('utf8');
    expect(JSON.parse(text)).toEqual(expected);
    expect(streamed.bodyUsed).toBe(true);
    expect(await (await post()).blob().then((b) => b.text())).toContain('"a\\":1');
    const bytes = await (await post()).bytes();
    expect(JSON.parse(Buffer.from(bytes).toString('utf8'))).toEqual(expected);
    // The headers as sent, a repeated one too; and it is a Response to anyone who checks.
    const headers = await post();
    expect(headers).toBeInstanceOf(Response);
    expect(headers.ok).toBe(true);
    expect(headers.headers.get('x-seen')).toBe('POST');
    expect(headers.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('answers as fetch does: status, headers, body, a redirect given back to follow', async () => {
    const base = boundedFetch(1 << 20);
    // Why manual: the SDK sends every transport request so, and follows redirects itself.
    const fetchFn: typeof base = (u, init) => base(u, { ...init, redirect: 'manual' });
    const res = await fetchFn(`${url}/echo`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(res.statusText).toBe('OK');
    expect(res.headers.get('x-seen')).toBe('POST');
    expect(await res.json()).toEqual({ body: '{"a":1}', auth: 'Bearer t' });
    const moved = await fetchFn(`${url}/moved`, { method: 'POST', body: '{}' });
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('/json');
    // Anything else goes to the global fetch, which follows.
    const followed = await base(`${url}/moved`, { method: 'POST', body: '{}' });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual({ ok: true });
    const accepted = await fetchFn(`${url}/accepted`, { method: 'POST', body: '{}' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toBeNull();
  });

  it('refuses a declared length over the bound and cuts off a body that grows past it', async () => {
    const base = boundedFetch(1024);
    const fetchFn: typeof base = (u, init) => base(u, { ...init, redirect: 'manual' });
    await expect(fetchFn(`${url}/declared`, { method: 'POST' })).rejects.toThrow(
      /response of 5,000 bytes, more than the 1,024-byte bound/,
    );
    await expect(fetchFn(`${url}/big`, { method: 'POST' })).rejects.toThrow(
      /more than 1,024 bytes in one response; it was cut off/,
    );
    const events = await fetchFn(`${url}/events`, { method: 'POST' });
    await expect(events.text()).rejects.toThrow(/more than 1,024 bytes/);
    // Any other GET body is one document, bounded whole, empty lines or not.
    await expect(fetchFn(`${url}/big`)).rejects.toThrow(/more than 1,024 bytes in one response/);
    await expect(fetchFn(`${url}/document`)).rejects.toThrow(/more than 1,024 bytes/);
    // A GET event stream lives as long as the session: its length is not bounded, each event is.
    const notifications = await fetchFn(`${url}/events`);
    expect((await notifications.text()).length).toBeGreaterThan(7000);
  });

  it('bounds what the global fetch reads for it too (an OAuth form, a redirect left to fetch)', async () => {
    const fetchFn = boundedFetch(1024);
    // Without redirect: 'manual' the call goes to the global fetch; its body is bounded all the same.
    await expect((await fetchFn(`${url}/big`)).text()).rejects.toThrow(/more than 1,024 bytes/);
    await expect(fetchFn(`${url}/declared`)).rejects.toThrow(/5,000 bytes, more than the 1,024/);
    const moved = await fetchFn(`${url}/moved`);
    expect([moved.status, moved.redirected, moved.url]).toEqual([200, true, `${url}/json`]);
    expect(await moved.json()).toEqual({ ok: true });
  });

  it('cuts off a GET event stream whose event never ends, however the server writes it', async () => {
    const base = boundedFetch(4096);
    const stream = await base(`${url}/endless-event`, { redirect: 'manual' });
    await expect(stream.text()).rejects.toThrow(/more than 4,096 bytes in one response/);
    const comment = await base(`${url}/endless-comment`, { redirect: 'manual' });
    await expect(comment.text()).rejects.toThrow(/more than 4,096 bytes in one response/);
  });

  it('leaves no abort listener on the caller’s signal, whatever happened to the body', async () => {
    const session = new AbortController();
    const base = boundedFetch(1024);
    const fetchFn: typeof base = (u, init) => base(u, { ...init, redirect: 'manual' });
    for (let i = 0; i < 20; i++) {
      const read = await fetchFn(`${url}/json`, { method: 'POST', signal: session.signal });
      expect(await read.json()).toEqual({ ok: true });
      const unread = await fetchFn(`${url}/accepted`, { method: 'POST', signal: session.signal });
      expect(unread.status).toBe(202);
      await expect(
        fetchFn(`${url}/big`, { method: 'POST', signal: session.signal }),
      ).rejects.toThrow(/more than 1,024 bytes/);
      const events = await fetchFn(`${url}/events`, { signal: session.signal });
      await events.body?.cancel();
    }
    await expect.poll(() => getEventListeners(session.signal, 'abort').length).toBe(0);
  });

  it('while a body is being read the link holds: aborting the session stops a trickling body', async () => {
    const session = new AbortController();
    const pending = boundedFetch(1 << 20)(`${url}/trickle`, {
      method: 'POST',
      signal: session.signal,
      redirect: 'manual',
    });
    await expect.poll(() => trickling.size).toBe(1);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
    session.abort(new Error('closed'));
    await expect(pending).rejects.toThrow('closed');
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('many requests under one signal share one abort listener: no warning, and aborting the session stops them all', async () => {
    // What `inspect --verify` does: reads and folder walks at once under the session's one signal.
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const session = new AbortController();
      const base = boundedFetch(1 << 20);
      const pending = Array.from({ length: 16 }, () =>
        base(`${url}/hold`, { method: 'POST', signal: session.signal, redirect: 'manual' }),
      );
      await expect.poll(() => holding.size, { timeout: 10_000 }).toBe(16);
      expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
      session.abort(new Error('closed'));
      for (const p of pending) await expect(p).rejects.toThrow('closed');
      expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
      await expect.poll(() => holding.size, { timeout: 10_000 }).toBe(0);
      // Node emits a warning on a later turn of the event loop.
      await new Promise((done) => setImmediate(done));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a request that ends while others under the same signal go on leaves the others linked', async () => {
    const session = new AbortController();
    const base = boundedFetch(1 << 20);
    const held = base(`${url}/hold`, {
      method: 'POST',
      signal: session.signal,
      redirect: 'manual',
    });
    await expect.poll(() => holding.size, { timeout: 10_000 }).toBe(1);
    for (let i = 0; i < 3; i++) {
      const quick = await base(`${url}/json`, {
        method: 'POST',
        signal: session.signal,
        redirect: 'manual',
      });
      expect(await quick.json()).toEqual({ ok: true });
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
    session.abort(new Error('closed'));
    await expect(held).rejects.toThrow('closed');
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    await expect.poll(() => holding.size, { timeout: 10_000 }).toBe(0);
  });

  it('a session already closed sends nothing and leaves no listener', async () => {
    const session = new AbortController();
    session.abort(new Error('closed'));
    const before = holding.size;
    await expect(
      boundedFetch(1 << 20)(`${url}/hold`, {
        method: 'POST',
        signal: session.signal,
        redirect: 'manual',
      }),
    ).rejects.toThrow('closed');
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    expect(holding.size).toBe(before);
  });

  it('refuses an answer with a flood of headers as fetch fails, without reading them all into a Response', async () => {
    const base = boundedFetch(1 << 20);
    await expect(
      base(`${url}/many-headers`, { method: 'POST', body: '{}', redirect: 'manual' }),
    ).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { code: 'UND_ERR_HEADERS_OVERFLOW' },
    });
  });

  it('a server that is not there fails as fetch fails (TypeError "fetch failed" with the cause)', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const error = await boundedFetch(1024)(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      redirect: 'manual',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a session whose server redirects to another port on 127.0.0.1 never sends it a request', async () => {
    const hits: string[] = [];
    const other = createServer((req, res) => {
      hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
    const redirecting = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: otherUrl }).end();
    });
    await new Promise<void>((done) => redirecting.listen(0, '127.0.0.1', done));
    try {
      const port = (redirecting.address() as AddressInfo).port;
      await expect(
        InspectorSession.open({
          kind: 'http',
          label: 'redirecting',
          url: `http://127.0.0.1:${port}/mcp`,
        }),
      ).rejects.toThrow();
      expect(hits).toEqual([]);
    } finally {
      redirecting.closeAllConnections();
      other.closeAllConnections();
      await new Promise<void>((done) => redirecting.close(() => done()));
      await new Promise<void>((done) => other.close(() => done()));
    }
  });
});

describe('EventLength: the event an event stream is in the middle of', () => {
  const lengths = (chunks: string[]): number[] => {
    const counter = new EventLength();
    return chunks.map((c) => counter.push(Buffer.from(c)));
  };

  it('ends an event at an empty line of any ending (LF, CRLF, CR), also across chunks', () => {
    expect(lengths(['data: abc\n', '\n', 'data: x\n\n'])).toEqual([9, 9, 7]);
    expect(lengths(['data: abc\r', '\n\r', '\ndata: x'])).toEqual([9, 9, 7]);
    expect(lengths(['data: abc\r\r', 'data: x'])).toEqual([9, 7]);
    // A CR then an LF in the next chunk is one line ending, not an empty line.
    expect(lengths(['data: abc\r', '\ndata: more'])).toEqual([9, 19]);
  });

  it('counts every line of an event that has no empty line', () => {
    expect(lengths(['data: a\ndata: b\n', 'data: c\n'])).toEqual([14, 21]);
  });

  it('does not add up comment lines, which the reader drops (keep-alives without an empty line)', () => {
    expect(lengths([': ping\n: ping\n', ': ping\n', 'data: x\n'])).toEqual([6, 6, 7]);
    // A colon later in a line is part of the field, and counted.
    expect(lengths(['data: a:b\n'])).toEqual([9]);
  });

  it('counts a comment line while it lasts: the reader holds it until its line ends', () => {
    // Before, a comment line that never ended was not counted at all, and never cut off.
    expect(lengths([': ', 'z'.repeat(5000), 'z'.repeat(5000)])).toEqual([2, 5002, 10002]);
    expect(lengths(['data: abc\n: zz', 'z'])).toEqual([13, 14]);
    expect(lengths([': zzz\n', 'data: x'])).toEqual([5, 7]);
  });

  it('gives the same lengths however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '\n', '\r', ':'), { maxLength: 200 }),
        fc.array(fc.nat(200), { maxLength: 10 }),
        (chars, cuts) => {
          const text = chars.join('');
          const whole = new EventLength().push(Buffer.from(text));
          const points = [...new Set(cuts.filter((c) => c < text.length))].sort((a, b) => a - b);
          const pieces: string[] = [];
          let at = 0;
          for (const p of points) {
            pieces.push(text.slice(at, p));
            at = p;
          }
          pieces.push(text.slice(at));
          expect(Math.max(0, ...lengths(pieces))).toBe(whole);
        },
      ),
    );
  });
});
