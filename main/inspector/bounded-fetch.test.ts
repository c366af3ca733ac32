/**
 * The inspector's fetch (boundedFetch) against a real HTTP server on 127.0.0.1: the link to the
 * caller's long-lived abort signal lasts only while a response is being read, whether its body
 * is read to the end, cancelled unread (the SDK does that with a 202 answer) or cut off at the
 * bound. Why it matters: the SDK passes one signal for a whole session, so a link left behind per
 * request piles up abort listeners (MaxListenersExceededWarning in long runs).
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch } from './session';

describe('boundedFetch: no abort listener left behind on the caller’s signal', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/accepted') res.writeHead(202, { 'content-type': 'text/plain' }).end('ok');
      else if (req.url === '/big') {
        // Written in pieces, without a length: the bound is found while reading.
        res.writeHead(200);
        for (let i = 0; i < 4; i++) res.write('x'.repeat(1024));
        res.end();
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('after bodies read, cancelled unread and cut off at the bound', async () => {
    const session = new AbortController();
    const fetchFn = boundedFetch(1024);
    for (let i = 0; i < 20; i++) {
      const read = await fetchFn(`${url}/json`, { method: 'POST', signal: session.signal });
      expect(await read.json()).toEqual({ ok: true });
      const unread = await fetchFn(`${url}/accepted`, { method: 'POST', signal: session.signal });
      expect(unread.status).toBe(202);
      await unread.body?.cancel();
      const big = await fetchFn(`${url}/big`, { method: 'POST', signal: session.signal });
      await expect(big.text()).rejects.toThrow(/more than 1024 bytes/);
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('while a body is being read the link holds: aborting the session aborts the read', async () => {
    const session = new AbortController();
    const res = await boundedFetch(1 << 20)(`${url}/json`, {
      method: 'POST',
      signal: session.signal,
    });
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
    session.abort(new Error('closed'));
    await expect(res.text()).rejects.toThrow();
  });
});
