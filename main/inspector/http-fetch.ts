/**
 * The inspector's HTTP client: a `fetch` for the SDK's Streamable HTTP and SSE transports, over
 * undici's `request` on one keep-alive connection pool, that refuses response bodies larger than
 * a bound. Why not the global `fetch`: it costs about 0.8 ms of CPU per request in this process
 * (WHATWG streams, a Response and Headers per body, per-request abort bookkeeping), which made
 * reading a large server client-bound; `request` gives the body as a Node stream and costs about
 * a third of that. What the SDK sees is still a standard `Response`.
 *
 * Bodies are bounded (POST answers, the JSON-RPC results, and any other document such as OAuth
 * metadata): a declared length over the bound is refused before reading, and a body that grows
 * past it is cut off. A JSON answer is read whole before the Response is handed over; an event
 * stream is handed over as it arrives. A GET event stream lives as long as the session and, over
 * the legacy SSE transport, carries every answer, so its whole length is not bounded; each event
 * in it is (see {@link EventLength}).
 */
import { grouped } from '../../shared/text/words';
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
  // The SDK transports pass a Headers; only other shapes need one made.
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** What a {@link BufferedResponse} is made with besides its bytes. */
interface ResponseMeta {
  status: number;
  statusText: string;
  /** Name and value pairs, as the server sent them (a Response makes its own Headers from them). */
  headers: [string, string][];
}

/** What one {@link BufferedResponse} holds: its bytes, and the stream made if a reader asks for one. */
interface Held {
  bytes: Buffer;
  meta: ResponseMeta;
  stream: Response | undefined;
  used: boolean;
}

/**
 * A standard `Response` over a body already read whole. Why: a `Response` made from bytes wraps
 * them in a web stream (and `json()` reads them back through it), which cost about a quarter of
 * the client's CPU per request; here `text()`, `json()` and `arrayBuffer()` read the bytes
 * directly, and `body` (or any other reader) makes the stream only when it is asked for. Reading
 * the body twice fails as it does for any Response. Its readers live on the prototype (below), so
 * they are made once, not for every answer; they are set there rather than declared in the class
 * because Node's types declare a Response's readers as properties.
 */
class BufferedResponse extends Response {
  readonly #held: Held;

  constructor(bytes: Buffer, meta: ResponseMeta) {
    super(null, meta);
    this.#held = { bytes, meta, stream: undefined, used: false };
  }

  /** What `response` holds (the readers below are not methods of the class, so they ask here). */
  static held(response: BufferedResponse): Held {
    return response.#held;
  }
}

/** The stream's Response, made once, from the bytes unless they were taken. */
function streamedOf(held: Held): Response {
  if (!held.stream) {
    held.stream = new Response(held.used ? null : held.bytes, held.meta);
    held.used = true;
  }
  return held.stream;
}

/** The bytes, once. */
function take(held: Held): Buffer {
  if (held.used) throw new TypeError('Body is unusable: Body has already been read');
  held.used = true;
  return held.bytes;
}

/** The stream's Response for a reader that needs one; refused once the bytes were taken. */
function unread(held: Held): Response {
  if (held.used && !held.stream)
    throw new TypeError('Body is unusable: Body has already been read');
  return streamedOf(held);
}

/** A reader a Response has that goes through the stream (not every Node has `bytes`). */
type StreamReader = 'blob' | 'bytes' | 'formData';

const heldBy = (r: unknown): Held => BufferedResponse.held(r as BufferedResponse);
const protoMethod = (value: unknown): PropertyDescriptor => ({
  value,
  writable: true,
  configurable: true,
});
Object.defineProperties(BufferedResponse.prototype, {
  body: {
    get(this: BufferedResponse) {
      return streamedOf(heldBy(this)).body;
    },
    configurable: true,
  },
  bodyUsed: {
    get(this: BufferedResponse) {
      const held = heldBy(this);
      return held.used && (!held.stream || held.stream.bodyUsed);
    },
    configurable: true,
  },
  text: protoMethod(async function (this: BufferedResponse): Promise<string> {
    const held = heldBy(this);
    return held.stream ? held.stream.text() : take(held).toString('utf8');
  }),
  json: protoMethod(async function (this: BufferedResponse): Promise<unknown> {
    const held = heldBy(this);
    return held.stream ? held.stream.json() : (JSON.parse(take(held).toString('utf8')) as unknown);
  }),
  arrayBuffer: protoMethod(async function (this: BufferedResponse): Promise<ArrayBuffer> {
    const held = heldBy(this);
    if (held.stream) return held.stream.arrayBuffer();
    const b = take(held);
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }),
  ...Object.fromEntries(
    (['blob', 'bytes', 'formData'] as StreamReader[])
      .filter((name) => name in Response.prototype)
      .map((name) => [
        name,
        protoMethod(async function (this: BufferedResponse): Promise<unknown> {
          const stream = unread(heldBy(this)) as unknown as Record<
            StreamReader,
            () => Promise<unknown>
          >;
          return stream[name]();
        }),
      ]),
  ),
  clone: protoMethod(function (this: BufferedResponse): Response {
    const held = heldBy(this);
    if (held.stream) return held.stream.clone();
    if (held.used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BufferedResponse(held.bytes, held.meta);
  }),
});

/** undici's response headers as name and value pairs, in the order they came. */
function responseHeaders(raw: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name in raw) {
    const value = raw[name];
    if (Array.isArray(value)) for (const v of value) pairs.push([name, v]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

/** A response header's value as `Headers.get` gives it (several joined with ", "), or null. */
function headerOf(raw: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = raw[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
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
    `The server sent more than ${grouped(maxBytes)} bytes in one response; it was cut off.`,
    detail,
  );
}

/**
 * The length of the event an event stream is in the middle of (`text/event-stream`: lines end
 * with CRLF, LF or CR, an empty line ends an event, and a line starting with a colon is a comment
 * the reader drops once it ends). Why: the reader holds an event in memory until it ends, so a
 * server that starts one and never ends it would fill this process's memory (the app's main
 * process, with every window) however long the stream may rightly live. A comment line is held
 * too until its line ends, so it counts while it lasts, and not after.
 */
export class EventLength {
  private bytes = 0;
  private lineEmpty = true;
  private afterCR = false;
  private inComment = false;
  private commentBytes = 0;

  /** Count `chunk`; the most bytes the reader holds at once for it (an event, or a comment line). */
  push(chunk: Uint8Array): number {
    let longest = this.bytes;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x0a && this.afterCR) {
        // The LF of a CRLF: the CR already ended the line.
        this.afterCR = false;
        continue;
      }
      if (b === 0x0a || b === 0x0d) {
        this.afterCR = b === 0x0d;
        if (this.lineEmpty) this.bytes = 0;
        this.lineEmpty = true;
        this.inComment = false;
        this.commentBytes = 0;
        continue;
      }
      this.afterCR = false;
      if (this.lineEmpty && b === 0x3a) this.inComment = true;
      this.lineEmpty = false;
      if (this.inComment) {
        // Why against the event too: the event it sits in is still held while the comment is read.
        if (++this.commentBytes + this.bytes > longest) longest = this.commentBytes + this.bytes;
        continue;
      }
      this.bytes++;
      if (this.bytes > longest) longest = this.bytes;
    }
    return longest;
  }
}

/** A body whose declared length is over the bound: refused before a byte of it is read. */
function declaredTooLarge(declared: number, maxBytes: number): InspectorError {
  return new InspectorError(
    'too-large',
    `The server sent a response of ${grouped(declared)} bytes, more than the ${grouped(maxBytes)}-byte bound.`,
  );
}

/** A whole body, refused once it grows past `maxBytes` (the rest is not read). */
function readBounded(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      body.off('data', onData);
      discard(body);
      reject(tooLarge(`more than ${maxBytes} bytes read`, maxBytes));
    };
    body.on('data', onData);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, seen)));
    body.once('error', reject);
  });
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

/** Statuses whose Response has no body (a Response made with one throws). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A call the global fetch makes (see {@link boundedFetch}), its body bounded like ours: a declared
 * length over the bound is refused, a body that grows past it is cut off. Why: an authorization
 * server's token answer is as much the server's to send as any other, and one that never ends
 * would otherwise be read into memory whole.
 */
async function boundedGlobalFetch(
  url: string | URL,
  init: RequestInit,
  maxBytes: number,
): Promise<Response> {
  const res = await fetch(url, init);
  if (!res.body || NULL_BODY_STATUSES.has(res.status)) return res;
  const declared = Number(res.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body.cancel().catch(() => undefined);
    throw declaredTooLarge(declared, maxBytes);
  }
  let seen = 0;
  const limited = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(tooLarge(`more than ${maxBytes} bytes`, maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(limited, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  // Why: a Response made here has no URL of its own; the SDK reads where a redirect ended.
  Object.defineProperty(out, 'url', { value: res.url });
  Object.defineProperty(out, 'redirected', { value: res.redirected });
  return out;
}

/** The requests being read under one caller's signal, and the one listener that aborts them. */
interface Link {
  controllers: Set<AbortController>;
  onAbort: () => void;
}

const links = new WeakMap<AbortSignal, Link>();

/**
 * Abort `ac` when `outer` aborts, until the returned function is called (it may be called more
 * than once). Why one listener per caller's signal, not one per request: the SDK passes one signal
 * for a whole session, and `inspect` reads files and walks folders under it at once (up to 12
 * requests); from the 11th listener on one signal, Node prints a MaxListenersExceededWarning
 * ("possible memory leak") to whoever runs the command. The listener goes when the last request
 * under it is done, so none is left behind either.
 */
function linkTo(outer: AbortSignal | undefined, ac: AbortController): () => void {
  if (outer === undefined) return () => undefined;
  if (outer.aborted) {
    ac.abort(outer.reason);
    return () => undefined;
  }
  let link = links.get(outer);
  if (!link) {
    const controllers = new Set<AbortController>();
    const made: Link = {
      controllers,
      onAbort: () => {
        links.delete(outer);
        for (const c of controllers) c.abort(outer.reason);
        controllers.clear();
      },
    };
    links.set(outer, made);
    outer.addEventListener('abort', made.onAbort, { once: true });
    link = made;
  }
  const mine = link;
  mine.controllers.add(ac);
  return () => {
    if (!mine.controllers.delete(ac) || mine.controllers.size > 0) return;
    if (links.get(outer) === mine) links.delete(outer);
    outer.removeEventListener('abort', mine.onAbort);
  };
}

/**
 * A fetch that refuses response bodies larger than `maxBytes` (see the file comment). Each call
 * gets its own abort signal, linked to the caller's only until the body is done (see
 * {@link linkTo}). Why: the SDK passes one long-lived signal to every call; a link left behind
 * per request piles up abort listeners. Only `redirect: 'manual'` calls are sent with our client: the SDK asks for that on
 * every transport request and follows a redirect itself, and only within the server's origin; a
 * redirect comes back as the 3xx answer with its Location, as fetch gives it. Other calls (bodies
 * other than strings and bytes, such as an OAuth form, or redirects left to fetch) go to the
 * global fetch, their bodies bounded the same way.
 */
export function boundedFetch(
  maxBytes: number,
  options: {
    /**
     * Told when a GET event stream is cut off for an event over the bound. Why: the event source
     * reading it would otherwise connect again and again, and the requests waiting for answers on
     * that stream would wait for their timeouts; the session closes with the reason instead.
     */
    onStreamCut?: (error: InspectorError) => void;
  } = {},
): FetchLike {
  return async (url, init = {}) => {
    const body = init.body;
    if (
      (body !== undefined &&
        body !== null &&
        typeof body !== 'string' &&
        !(body instanceof Uint8Array)) ||
      init.redirect !== 'manual'
    )
      return boundedGlobalFetch(url, init, maxBytes);
    const ac = new AbortController();
    const unlink = linkTo(init.signal ?? undefined, ac);
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
      const meta: ResponseMeta = {
        status: res.statusCode,
        statusText: STATUS_CODES[res.statusCode] ?? '',
        headers: responseHeaders(res.headers),
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
      const streamed = (headerOf(res.headers, 'content-type') ?? '').includes('text/event-stream');
      // Why every body but a GET event stream is bounded whole: an answer, OAuth metadata or any
      // other document is one message; a GET event stream lives as long as the session.
      const bounded = method === 'POST' || !streamed;
      const declared = Number(headerOf(res.headers, 'content-length') ?? 'NaN');
      if (bounded && Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        unlink();
        throw declaredTooLarge(declared, maxBytes);
      }
      if (bounded && !streamed) {
        // A JSON answer or document: read whole, counting, then handed over.
        let bytes: Buffer;
        try {
          bytes = await readBounded(res.body, maxBytes);
        } catch (e) {
          if (ac.signal.aborted && !(e instanceof InspectorError)) throw ac.signal.reason;
          throw e;
        } finally {
          unlink();
        }
        if (res.statusCode === 202 && bytes.byteLength === 0) return new Response(null, meta);
        return new BufferedResponse(bytes, meta);
      }
      // A stream: handed over as it arrives (the whole of it bounded when it answers a POST; each
      // event of a GET stream bounded).
      let seen = 0;
      const events = new EventLength();
      const counted = res.body.pipe(
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            seen += chunk.length;
            if (bounded && seen > maxBytes)
              done(tooLarge(`more than ${maxBytes} bytes read from an event stream`, maxBytes));
            else if (!bounded && events.push(chunk) > maxBytes) {
              const cut = tooLarge(
                `an event of more than ${maxBytes} bytes in an event stream`,
                maxBytes,
              );
              options.onStreamCut?.(cut);
              done(cut);
            } else done(null, chunk);
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
