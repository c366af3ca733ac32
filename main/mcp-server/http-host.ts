/**
 * The Streamable HTTP host for the embedded skills server, speaking both protocol revisions
 * on one endpoint (MCP 2026-07-28, versioning §"Backward Compatibility": a dual-era server),
 * hardened like the MCP Inspector's local server (docs/conventions.md §9): binds 127.0.0.1
 * unless told otherwise, requires a bearer token, checks Host and Origin against DNS
 * rebinding, bounds request bodies (size and time), requests in flight (server-wide and per
 * session), sessions, idle connections and event-stream buffers.
 *
 * - 2025-11-25 (and older) clients open a session with `initialize`: one SDK `Server` per
 *   session, on our own session transport (`http-transport.ts`).
 * - 2026-07-28 clients send requests that carry the per-request `_meta`; each is answered on
 *   its own by the SDK's stateless entry (`createMcpHandler`: `server/discover`, the header
 *   and version checks, `subscriptions/listen`), with a `Server` made for that request. The
 *   checks and limits above come first, here, for both.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  createMcpHandler,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';
import { listenHttp } from './http-listener';
import type { HttpListener } from './http-listener';
import { HttpSessionTransport, writeJson } from './http-transport';
import { errorResponse, frameMessages, isRequest, RpcCode } from './jsonrpc';
import type { LiveCatalog } from './live-catalog';
import { changeNotifications, createSkillsServer, onCatalogChange } from './mcp-server';
import type { RequestLogEntry, SkillsServerFeatures, SkillsServerHandle } from './mcp-server';
import { paramsError } from './params';
import { secretMatcher } from '../platform/secret';

/** Options for {@link startHttpHost}. */
export interface HttpHostOptions extends SkillsServerFeatures {
  /** Interface to bind. Default `127.0.0.1`. `localhost` means `127.0.0.1` (the address, not the name). */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Bearer token; generated (32 random bytes, base64url) when absent. */
  token?: string;
  /** Allow binding an address other than loopback. Default false. */
  allowNonLoopback?: boolean;
  /**
   * Test-only: accept requests without a token. Refused unless the bind is loopback. Exists so
   * the MCP conformance suite, which sends no Authorization header, can run against us; never
   * offered in the app and only reachable from the CLI through a flag whose name says so.
   */
  insecureNoAuthLoopbackOnly?: boolean;
  /** Extra allowed `Origin` values (exact match), e.g. a web shell's own origin. */
  allowedOrigins?: string[];
  /** Largest accepted request body, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Requests answered at once, server-wide (event streams not counted). A request counts from
   * the moment its whole body has arrived until its answer has been taken by the client, so a
   * body that trickles in takes no slot. Default 32.
   */
  maxConcurrent?: number;
  /** The same bound for one session, so one client cannot take every slot. Default 8. */
  maxConcurrentPerSession?: number;
  /** Sessions kept at once; the least recently used is closed beyond it. Default 64. */
  maxSessions?: number;
  /**
   * `subscriptions/listen` streams (protocol 2026-07-28) open at once; beyond it a new one is
   * refused with -32603 (the SDK's answer). They take no request slot. Default 64.
   */
  maxListenStreams?: number;
  /** Resources one session may subscribe to. Default 4,096. */
  maxSubscriptions?: number;
  /** Time allowed for a request's headers to arrive, in ms. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time allowed for a request's whole body to arrive once its headers have, in ms; then 408 and the connection is closed. Default 10 s. */
  bodyTimeoutMs?: number;
  /**
   * A connection on which nothing moves, in either direction, for this long (ms) is closed: this
   * drops a client that stops reading its answers. Event streams send a comment at half this
   * interval, so a quiet stream that is read stays open. Default 30 s.
   */
  idleTimeoutMs?: number;
  /** Bytes an event stream may hold for a client that does not read it; past this it is closed. Default 1 MiB. */
  maxStreamBufferBytes?: number;
  onRequest?: (entry: RequestLogEntry) => void;
  serverInfo?: { name: string; version: string };
}

/** What the host holds right now (for the panel and for tests of the limits). */
export interface HttpHostStats {
  sessions: number;
  /** Requests whose whole body has arrived and whose answer the client has not taken yet. */
  inFlight: number;
  /** Requests the sessions' transports still wait to answer. */
  pendingAnswers: number;
  /** Open TCP connections. */
  connections: number;
}

/** A running HTTP host. */
export interface HttpHost {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  host: string;
  port: number;
  /** The bearer token, or undefined in the test-only no-auth mode. */
  token: string | undefined;
  /** Replace the token; open sessions are closed so old credentials stop working at once. */
  setToken(token: string): Promise<void>;
  /** Number of open MCP sessions. */
  sessionCount(): number;
  stats(): HttpHostStats;
  close(): Promise<void>;
}

/** The path the MCP endpoint answers on. */
export const MCP_PATH = '/mcp';

/**
 * A new random bearer token: 32 bytes from the OS CSPRNG, base64url, never starting with "-".
 * Why: one in 64 tokens did, and a command line that gives it after an option (`--token TOKEN`,
 * ours or another tool's) reads it as an option; drawing again costs log2(64/63) of 256 bits.
 */
export function generateToken(): string {
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    if (!token.startsWith('-')) return token;
  }
}

interface Session {
  transport: HttpSessionTransport;
  handle: SkillsServerHandle;
  /** Requests of this session being answered. */
  inFlight: number;
}

/** Most messages in one POSTed batch (protocol revisions before 2025-06-18 allow batches). */
const MAX_BATCH = 16;

/**
 * Write a web-standard response to Node's. A JSON body is written in one go; an event stream
 * (a `subscriptions/listen` answer) is copied as it comes, and dropped, like the 2025-era GET
 * stream, when its client leaves more than `maxBuffer` bytes unread.
 */
async function writeWebResponse(
  response: Response,
  res: ServerResponse,
  maxBuffer: number,
  onDropped: () => void,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    // Why its stream read directly: the bytes (one chunk for the SDK's JSON answers) go out as they
    // are; text() or arrayBuffer() cost twice as much per answer.
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks.push(r.value);
      size += r.value.byteLength;
    }
    headers['content-length'] = String(size);
    res
      .writeHead(response.status, headers)
      .end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || res.destroyed) break;
      if (res.writableLength + value.byteLength > maxBuffer) {
        res.destroy();
        onDropped();
        break;
      }
      res.write(value);
    }
  } catch {
    // The stream was cancelled (the client left); nothing more to write.
  } finally {
    res.off('close', stop);
    stop();
    if (!res.destroyed) res.end();
  }
}

/**
 * Whether a message is a request (not `initialize`) whose `params._meta` carries the 2026-07-28
 * protocol-version claim: the SDK's entry classifies every such request as modern traffic (its
 * answer or its refusal belongs to the modern path; `isLegacyRequest` says so), so it is routed
 * there without classifying it twice. Anything else is asked of `isLegacyRequest`.
 */
function claimsModernRevision(message: JSONRPCMessage): boolean {
  if (!isRequest(message) || message.method === 'initialize') return false;
  if ('result' in message || 'error' in message) return false;
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    !Array.isArray(meta) &&
    PROTOCOL_VERSION_META_KEY in meta
  );
}

/** Start the HTTP host over a loaded catalog. Rejects with a plain sentence for unsafe options. */
export async function startHttpHost(
  catalog: LiveCatalog,
  options: HttpHostOptions = {},
  /** A socket bound with {@link listenHttp} and the same options; bound here when absent. */
  bound?: HttpListener,
): Promise<HttpHost> {
  let token: string | undefined = options.insecureNoAuthLoopbackOnly
    ? undefined
    : (options.token ?? generateToken());
  if (token !== undefined && token.length < 16)
    throw new Error('The token must be at least 16 characters long.');
  // Why bound first (unless the caller bound it already): the address checks and the port fail
  // at once, and a caller can bind before its slow work (`serve` reads the library after).
  const listener = bound ?? (await listenHttp(options));
  const { host: bindHost, server: http } = listener;
  if (options.insecureNoAuthLoopbackOnly && !listener.loopback)
    throw new Error('The no-token test mode only works on a loopback address.');
  let tokenMatches = token === undefined ? undefined : secretMatcher(token);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const maxConcurrent = options.maxConcurrent ?? 32;
  const perSession = options.maxConcurrentPerSession ?? 8;
  const maxSessions = options.maxSessions ?? 64;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const bodyTimeout = options.bodyTimeoutMs ?? 10_000;
  const idleTimeout = options.idleTimeoutMs ?? 30_000;
  const maxStreamBuffer = options.maxStreamBufferBytes ?? 1024 * 1024;
  /** Sessions in least-recently-used order (a Map keeps insertion order; a use re-inserts). */
  const sessions = new Map<string, Session>();
  let inFlight = 0;
  /** Slot releases per connection, run when it closes (one listener per socket, not one per request). */
  const slotsOf = new WeakMap<Socket, Set<() => void>>();
  const port = listener.port;

  const httpLog = (
    method: string,
    status: number,
    started: number,
    message: string,
    session?: string,
  ): void => {
    options.onRequest?.({
      time: Date.now(),
      transport: 'http',
      session,
      method,
      status,
      ms: performance.now() - started,
      message,
    });
  };
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    started: number,
    headers: Record<string, string> = {},
    code: number = RpcCode.ConnectionClosed,
  ): void => {
    httpLog(`HTTP ${req.method ?? '?'}`, status, started, message);
    writeJson(res, status, errorResponse(null, code, message), headers);
  };
  /** Refuse and close the connection once the answer is out (the rest of the body is not read). */
  const refuseAndClose = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    started: number,
  ): void => {
    res.once('finish', () => req.socket.destroy());
    refuse(req, res, status, message, started, { connection: 'close' });
  };
  /** The Host and Origin values accepted, made once the port is known (they are checked on every request). */
  let allowed: { port: number; hosts: Set<string>; origins: Set<string> } | undefined;
  const allowedNames = (): { hosts: Set<string>; origins: Set<string> } => {
    if (allowed?.port === port) return allowed;
    // Why canonical for IPv6: a client sends the address as its URL parser writes it.
    const own = bindHost.includes(':') ? new URL(`http://[${bindHost}]/`).host : bindHost;
    const names =
      own === '[::1]'
        ? ['[::1]', 'localhost']
        : bindHost === '127.0.0.1'
          ? ['127.0.0.1', 'localhost', '[::1]']
          : [own];
    const hosts = new Set(names.map((n) => `${n}:${port}`));
    const origins = new Set([
      ...[...hosts].map((h) => `http://${h}`),
      ...(options.allowedOrigins ?? []),
    ]);
    allowed = { port, hosts, origins };
    return allowed;
  };
  const allowedHosts = (): Set<string> => allowedNames().hosts;
  const allowedOrigins = (): Set<string> => allowedNames().origins;

  const closeSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    s.handle.dispose();
    await s.transport.close().catch(() => undefined);
  };
  const touch = (id: string, s: Session): void => {
    sessions.delete(id);
    sessions.set(id, s);
  };

  /**
   * The whole body, or undefined when it was refused (too large: 413; not complete within
   * `bodyTimeoutMs`: 408) or the client went away. Either refusal closes the connection.
   */
  const readBody = (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
  ): Promise<Buffer | undefined> =>
    new Promise((resolve) => {
      const tooLarge = `The request is larger than ${maxBody} bytes.`;
      if (Number(req.headers['content-length'] ?? '0') > maxBody) {
        refuseAndClose(req, res, 413, tooLarge, started);
        resolve(undefined);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (body: Buffer | undefined): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('close', onClose);
        resolve(body);
      };
      // Why a deadline for the whole body: a body trickling in at 1 byte/s is never idle, so only this ends it.
      const timer = setTimeout(() => {
        refuseAndClose(
          req,
          res,
          408,
          `The request body did not arrive within ${bodyTimeout / 1000} s.`,
          started,
        );
        finish(undefined);
      }, bodyTimeout);
      const onData = (c: Buffer): void => {
        size += c.length;
        if (size > maxBody) {
          refuseAndClose(req, res, 413, tooLarge, started);
          finish(undefined);
        } else chunks.push(c);
      };
      const onEnd = (): void => finish(Buffer.concat(chunks, size));
      const onClose = (): void => finish(undefined);
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('close', onClose);
    });

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    // The endpoint's own path as sent needs no parsing (most requests).
    const pathname =
      req.url === MCP_PATH ? MCP_PATH : new URL(req.url ?? '/', 'http://placeholder').pathname;
    // Why: DNS rebinding — a page on evil.example resolving to 127.0.0.1 sends its own Host/Origin; refuse both (MCP spec 2025-11-25, transports §security warning; GHSA-w48q-cv73-mx4w).
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts().has(host))
      return refuse(
        req,
        res,
        403,
        `The Host header "${host}" is not this server's address. Requests must come to ${[...allowedHosts()].join(' or ')}.`,
        started,
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin))
      return refuse(
        req,
        res,
        403,
        `Requests from the web page at ${origin} are not allowed.`,
        started,
      );
    if (pathname !== MCP_PATH)
      return refuse(
        req,
        res,
        404,
        `Nothing is served at ${pathname}; the MCP endpoint is ${MCP_PATH}.`,
        started,
      );
    if (tokenMatches !== undefined) {
      // Why: a bearer token keeps other local users and processes out (MCP authorization §2.6; docs/conventions.md §9).
      // Checked before the body is read, so without the token nothing larger than headers is taken in.
      const auth = req.headers.authorization ?? '';
      const m = /^Bearer\s+(\S+)$/i.exec(auth);
      if (!m || !tokenMatches(m[1])) {
        return refuse(
          req,
          res,
          401,
          'A valid bearer token is required (Authorization: Bearer <token>). The token is shown in the Skillbench server panel or printed by `skillbench serve --http`.',
          started,
          { 'www-authenticate': 'Bearer realm="skillbench"' },
        );
      }
    }
    const method = req.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE')
      return refuse(req, res, 405, `The method ${method} is not supported here.`, started, {
        allow: 'GET, POST, DELETE',
      });
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
    const known = sessionId !== undefined ? sessions.get(sessionId) : undefined;
    const accept = req.headers.accept ?? '';
    // Why: after initialize, an unknown protocol version in the header is refused (transports
    // §protocol version header). Only in a session we know: a 2026-07-28 request ignores the
    // session header (MCP 2026-07-28, transports §"Earlier Streamable HTTP Revisions").
    const version = req.headers['mcp-protocol-version'];
    if (
      known !== undefined &&
      typeof version === 'string' &&
      !SUPPORTED_PROTOCOL_VERSIONS.includes(version)
    )
      return refuse(
        req,
        res,
        400,
        `This server does not speak protocol version ${version}; it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
        started,
      );
    if (method === 'GET' || method === 'DELETE') {
      if (!known || sessionId === undefined)
        return refuse(
          req,
          res,
          sessionId ? 404 : 400,
          sessionId
            ? 'This session has ended. Start a new one with initialize.'
            : 'The Mcp-Session-Id header is missing.',
          started,
        );
      touch(sessionId, known);
      if (method === 'DELETE') {
        await closeSession(sessionId);
        httpLog('HTTP DELETE', 200, started, 'Session ended by the client.', sessionId);
        res.writeHead(200).end();
        return;
      }
      if (!accept.includes('text/event-stream'))
        return refuse(
          req,
          res,
          406,
          'The event stream is sent as text/event-stream; the Accept header must list it.',
          started,
        );
      // The long-lived event stream takes no request slot; its buffer is bounded instead.
      if (!known.transport.openEventStream(res))
        return refuse(req, res, 409, 'This session already has an open event stream.', started);
      httpLog('HTTP GET', 200, started, 'Event stream opened.', sessionId);
      return;
    }
    // Why both: the client MUST accept JSON and event streams (transports §sending messages), as the SDK checks.
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return refuse(
        req,
        res,
        406,
        'The Accept header must list both application/json and text/event-stream.',
        started,
      );
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
      return refuse(req, res, 415, 'Send the request as Content-Type: application/json.', started);
    const body = await readBody(req, res, started);
    if (body === undefined) return;
    const framed = frameMessages(body.toString('utf8'), MAX_BATCH);
    if (!framed.ok) {
      httpLog('HTTP POST', 400, started, framed.error.error.message);
      writeJson(res, 400, framed.error);
      return;
    }
    // Why the SDK's own test: a request that carries the per-request `_meta` (or a modern
    // MCP-Protocol-Version header) is 2026-07-28 traffic, anything else 2025-era; asking the entry
    // that serves it means the two can never disagree (MCP 2026-07-28, versioning §"Backward
    // Compatibility"). A known session is 2025-era by definition.
    const single = framed.batch ? undefined : framed.messages[0];
    if (!known && single !== undefined) {
      const web = webRequest(req);
      if (claimsModernRevision(single) || !(await isLegacyRequest(web.request, single)))
        return serveModern(req, res, web, single, started);
    }
    if (sessionId !== undefined && !known)
      return refuse(
        req,
        res,
        404,
        'This session has ended. Start a new one with initialize.',
        started,
      );
    const initialize = framed.messages.find((m) => isRequest(m) && m.method === 'initialize') as
      JSONRPCRequest | undefined;
    if (known && initialize)
      return refuse(
        req,
        res,
        400,
        'This session is already initialized; start a new session without the Mcp-Session-Id header.',
        started,
        {},
        RpcCode.InvalidRequest,
      );
    if (!known) {
      if (!initialize || framed.messages.length !== 1)
        return refuse(
          req,
          res,
          400,
          'Start a session with an initialize request first (no Mcp-Session-Id header was sent).',
          started,
        );
      const problem = paramsError(initialize);
      if (problem) {
        httpLog('initialize', 400, started, problem.error.message);
        writeJson(res, 400, problem);
        return;
      }
    }
    const hasRequests = framed.messages.some(isRequest);
    if (hasRequests && inFlight >= maxConcurrent)
      return refuse(req, res, 503, 'The server is busy. Try again in a moment.', started, {
        'retry-after': '1',
      });
    // Why per session too: one client must not be able to take every slot (the server-wide bound alone let it).
    if (hasRequests && known && known.inFlight >= perSession)
      return refuse(
        req,
        res,
        429,
        `This session already has ${perSession} requests being answered. Wait for their answers first.`,
        started,
        { 'retry-after': '1' },
      );
    let session = known;
    let id = sessionId;
    if (!session || id === undefined) {
      if (sessions.size >= maxSessions) {
        const oldest = sessions.keys().next();
        if (!oldest.done) await closeSession(oldest.value);
      }
      id = randomUUID();
      const sid = id;
      const handle = createSkillsServer(catalog, {
        ...options,
        transport: 'http',
        era: 'legacy',
        session: sid,
        onRequest: options.onRequest,
        serverInfo: options.serverInfo,
      });
      const transport = new HttpSessionTransport(sid, {
        maxStreamBufferBytes: maxStreamBuffer,
        keepAliveMs: Math.max(10, Math.floor(idleTimeout / 2)),
        onStreamDropped: () =>
          httpLog(
            'HTTP GET',
            413,
            performance.now(),
            'Closed an event stream whose client did not read it.',
            sid,
          ),
      });
      session = { transport, handle, inFlight: 0 };
      const created = session;
      transport.onclose = () => {
        if (sessions.get(sid) === created) {
          sessions.delete(sid);
          handle.dispose();
        }
      };
      await handle.server.connect(transport);
      sessions.set(sid, session);
    } else touch(id, session);
    if (hasRequests) takeSlot(req, res, session);
    session.transport.post(framed.messages, framed.batch, res);
  };

  /**
   * Count a request against the bounds until its answer is out ('close' after 'finish') or the
   * connection is gone. A pipelined answer still queued behind another gets no 'close' of its
   * own then, so the socket's close releases it too.
   */
  const takeSlot = (req: IncomingMessage, res: ServerResponse, session?: Session): void => {
    inFlight++;
    if (session) session.inFlight++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      inFlight--;
      if (session) session.inFlight--;
      slotsOf.get(req.socket)?.delete(release);
    };
    res.once('close', release);
    let slots = slotsOf.get(req.socket);
    if (!slots) {
      const set = new Set<() => void>();
      slots = set;
      slotsOf.set(req.socket, set);
      req.socket.once('close', () => {
        for (const r of [...set]) r();
      });
    }
    slots.add(release);
  };

  /** The SDK's stateless entry for 2026-07-28 requests, each answered by a `Server` made for it. */
  const modernEntry = createMcpHandler(
    () =>
      createSkillsServer(catalog, {
        ...options,
        transport: 'http',
        era: 'modern',
        // Why: the instance lives for one request; changes go out on the listen streams below.
        notify: false,
      }).server,
    {
      // 2025-era requests never reach the entry: they are routed to the sessions above.
      legacy: 'reject',
      // The default response mode answers with one JSON body: our handlers send nothing before their result.
      maxSubscriptions: options.maxListenStreams ?? 64,
      // Why: a quiet listen stream must move within the idle timeout, or it is dropped as idle.
      keepAliveMs: Math.max(10, Math.floor(idleTimeout / 2)),
      maxRequestBodySize: maxBody,
    },
  );
  const stopPublishing = onCatalogChange(catalog, (change) => {
    const n = changeNotifications(change, { prompts: options.prompts !== false });
    if (n.resourcesListChanged) modernEntry.notify.resourcesChanged();
    if (n.promptsListChanged) modernEntry.notify.promptsChanged();
    for (const uri of n.updated) modernEntry.notify.resourceUpdated(uri);
  });

  /**
   * The request as the SDK's web-standard entry takes it; aborted when the client goes away.
   * Why without its body: the message is always handed over parsed (`parsedBody`), so the entry
   * never reads it, and a body costs a web stream per request (a third of a request's CPU).
   */
  const webRequest = (req: IncomingMessage): { request: Request; abort: AbortController } => {
    const abort = new AbortController();
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? MCP_PATH}`, {
      method: 'POST',
    });
    // Set on the request's own Headers: one given in the init would be copied into it.
    const headers = request.headers;
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && name !== 'content-length')
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    // Why the signal set on the request rather than passed in its init: given one, a Request makes
    // a second signal that follows it, which cost two thirds of making the Request. The entry
    // only reads `request.signal` (to cancel the request, or end a listen stream, when the client
    // goes away).
    Object.defineProperty(request, 'signal', { value: abort.signal });
    return { request, abort };
  };

  /**
   * Answer one 2026-07-28 message. A request takes a slot like any other (a listen stream takes
   * none: it is bounded by `maxListenStreams` and by its buffer instead). Closing the
   * connection cancels the request (MCP 2026-07-28, transports §Streamable HTTP
   * "Cancellation").
   */
  const serveModern = async (
    req: IncomingMessage,
    res: ServerResponse,
    web: { request: Request; abort: AbortController },
    message: JSONRPCMessage,
    started: number,
  ): Promise<void> => {
    const request = isRequest(message) ? message : undefined;
    const listen = request?.method === 'subscriptions/listen';
    if (request && !listen) {
      if (inFlight >= maxConcurrent)
        return refuse(req, res, 503, 'The server is busy. Try again in a moment.', started, {
          'retry-after': '1',
        });
      takeSlot(req, res);
    }
    res.once('close', () => {
      if (!res.writableFinished) web.abort.abort();
    });
    const response = await modernEntry.fetch(web.request, { parsedBody: message });
    // The SDK answers these two itself; the handlers log the rest (the Server tab's request log).
    if (response.status < 400 && (request?.method === 'server/discover' || listen))
      options.onRequest?.({
        time: Date.now(),
        transport: 'http',
        method: request?.method ?? '',
        status: 'ok',
        ms: performance.now() - started,
      });
    if (response.status >= 400)
      httpLog(
        request?.method ?? 'HTTP POST',
        response.status,
        started,
        `Refused a 2026-07-28 request (HTTP ${response.status}).`,
      );
    await writeWebResponse(response, res, maxStreamBuffer, () =>
      httpLog(
        'subscriptions/listen',
        413,
        performance.now(),
        'Closed a listen stream whose client did not read it.',
      ),
    );
  };

  listener.serve((req, res) => {
    onRequest(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        refuse(
          req,
          res,
          500,
          `The server failed: ${e instanceof Error ? e.message : String(e)}`,
          performance.now(),
          {},
          RpcCode.InternalError,
        );
      else res.end();
    });
  });
  // Why: slow-loris protection for headers; bodies have their own deadline (bodyTimeoutMs) in readBody.
  http.headersTimeout = headersTimeout;
  http.requestTimeout = 0;
  // Why: a connection where nothing moves is dropped, so a client that stops reading cannot pin its answers in memory.
  http.timeout = idleTimeout;
  http.on('timeout', (socket: Socket) => {
    httpLog(
      'HTTP',
      408,
      performance.now(),
      `Closed a connection on which nothing moved for ${idleTimeout / 1000} s (its client stopped reading or sending).`,
    );
    socket.destroy();
  });
  const urlHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    host: bindHost,
    port,
    get token() {
      return token;
    },
    async setToken(next: string) {
      if (options.insecureNoAuthLoopbackOnly)
        throw new Error('This server runs without a token (test mode).');
      if (next.length < 16) throw new Error('The token must be at least 16 characters long.');
      token = next;
      tokenMatches = secretMatcher(next);
      await Promise.all([...sessions.keys()].map(closeSession));
    },
    sessionCount: () => sessions.size,
    stats: () => ({
      sessions: sessions.size,
      inFlight,
      pendingAnswers: [...sessions.values()].reduce((n, s) => n + s.transport.pendingCount, 0),
      connections: listener.connections(),
    }),
    async close() {
      stopPublishing();
      await modernEntry.close();
      await Promise.all([...sessions.keys()].map(closeSession));
      await listener.close();
    },
  };
}
