/**
 * The inspector's HTTP client: a `fetch` for the SDK's Streamable HTTP and SSE transports, over
 * undici's `request` on one keep-alive connection pool, that refuses response bodies larger than
 * a bound. Why not the global `fetch`: it costs about 0.8 ms of CPU per request in this process
 * (WHATWG streams, a Response and Headers per body, per-request abort bookkeeping), which made
 * reading a large server client-bound; `request` gives the body as a Node stream and costs about
 * a third of that. What the SDK sees is still a standard `Response`.
 *
 * Bodies of POST answers (the JSON-RPC results) are bounded: a declared length over the bound is
 * refused before reading, and a body that grows past it is cut off. A JSON answer is read whole
 * before the Response is handed over; an event stream is handed over as it arrives. GET event
 * streams carry notifications, not results, and are not bounded.
 */
import { STATUS_CODES } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { InspectorError } from './errors';

/** The fetch signature the SDK transports take. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

let pool: Dispatcher | undefined;

/** One keep-alive pool for every session of this process. */
function dispatcher(): Dispatcher {
  pool ??= new Agent();
  return pool;
}

/** The request headers as a plain record (what `request` takes). */
function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** undici's response headers as a `Headers`. */
function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * Stop reading a body. Why the error listener: undici's body emits an "aborted" error when it
 * is destroyed unread, and an error nobody listens to would end the process.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function tooLarge(detail: string, maxBytes: number): InspectorError {
  return new InspectorError(
    'too-large',
    `The server sent more than ${maxBytes} bytes in one response; it was cut off.`,
    detail,
  );
}

/** Send once; errors look like fetch's (a TypeError "fetch failed" with the cause), so ./errors.ts reads them the same. */
async function send(
  url: string | URL,
  init: RequestInit,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  try {
    return await request(url, {
      method: (init.method ?? 'GET').toUpperCase(),
      headers: plainHeaders(init.headers),
      body: (init.body ?? undefined) as string | Uint8Array | undefined,
      signal,
      dispatcher: dispatcher(),
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: error });
  }
}

/**
 * A fetch that refuses POST response bodies larger than `maxBytes`. Each call gets its own abort
 * signal, linked to the caller's only until the body is done. Why: the SDK passes one
 * long-lived signal to every call; a link left behind per request piles up abort listeners.
 * Only `redirect: 'manual'` calls are sent here: the SDK asks for that on every transport request
 * and follows a redirect itself, and only within the server's origin; a redirect comes back as
 * the 3xx answer with its Location, as fetch gives it. Other calls (bodies other than strings and
 * bytes, such as an OAuth form, or redirects left to fetch) go to the global fetch unchanged.
 */
export function boundedFetch(maxBytes: number): FetchLike {
  return async (url, init = {}) => {
    const body = init.body;
    if (
      (body !== undefined &&
        body !== null &&
        typeof body !== 'string' &&
        !(body instanceof Uint8Array)) ||
      init.redirect !== 'manual'
    )
      return fetch(url, init);
    const outer = init.signal ?? undefined;
    const ac = new AbortController();
    const onAbort = (): void => ac.abort(outer?.reason);
    if (outer?.aborted) ac.abort(outer.reason);
    else outer?.addEventListener('abort', onAbort, { once: true });
    const unlink = (): void => outer?.removeEventListener('abort', onAbort);
    try {
      let res: Dispatcher.ResponseData;
      try {
        res = await send(url, init, ac.signal);
      } catch (e) {
        // Why one retry: a kept-alive socket the server closed while idle fails before the request
        // was read ("other side closed", undici UND_ERR_SOCKET); sending it again is safe then.
        const cause = (e as { cause?: { code?: unknown } }).cause;
        if (cause?.code !== 'UND_ERR_SOCKET' || ac.signal.aborted) throw e;
        res = await send(url, init, ac.signal);
      }
      const method = (init.method ?? 'GET').toUpperCase();
      const headers = responseHeaders(res.headers);
      const meta = {
        status: res.statusCode,
        statusText: STATUS_CODES[res.statusCode] ?? '',
        headers,
      };
      if (res.statusCode < 200 || res.statusCode > 599) {
        discard(res.body);
        throw new TypeError('fetch failed', {
          cause: new Error(`the server answered with HTTP status ${res.statusCode}`),
        });
      }
      if (method === 'HEAD' || [204, 205, 304].includes(res.statusCode)) {
        res.body.resume();
        unlink();
        return new Response(null, meta);
      }
      const bounded = method === 'POST';
      const declared = Number(headers.get('content-length') ?? 'NaN');
      if (bounded && Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        unlink();
        throw new InspectorError(
          'too-large',
          `The server sent a response of ${declared} bytes, more than the ${maxBytes}-byte bound.`,
        );
      }
      const streamed = (headers.get('content-type') ?? '').includes('text/event-stream');
      if (bounded && !streamed) {
        // A JSON answer: read whole, counting, then handed over.
        const chunks: Buffer[] = [];
        let seen = 0;
        try {
          for await (const chunk of res.body as AsyncIterable<Buffer>) {
            seen += chunk.length;
            if (seen > maxBytes) {
              discard(res.body);
              throw tooLarge(`more than ${maxBytes} bytes read`, maxBytes);
            }
            chunks.push(chunk);
          }
        } catch (e) {
          if (ac.signal.aborted && !(e instanceof InspectorError)) throw ac.signal.reason;
          throw e;
        } finally {
          unlink();
        }
        const bytes = Buffer.concat(chunks, seen);
        return new Response(res.statusCode === 202 && seen === 0 ? null : bytes, meta);
      }
      // A stream: handed over as it arrives (bounded when it answers a POST).
      let seen = 0;
      const counted = res.body.pipe(
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            seen += chunk.length;
            if (bounded && seen > maxBytes)
              done(tooLarge(`more than ${maxBytes} bytes read from an event stream`, maxBytes));
            else done(null, chunk);
          },
        }),
      );
      res.body.on('error', (e) => counted.destroy(e));
      counted.on('close', () => {
        unlink();
        // Why: a reader that cancels the Response stops the stream; the socket is let go too.
        discard(res.body);
      });
      return new Response(Readable.toWeb(counted) as ReadableStream<Uint8Array>, meta);
    } catch (e) {
      unlink();
      throw e;
    }
  };
}
