/**
 * The Streamable HTTP host (MCP 2025-11-25 transports) for the embedded skills server,
 * hardened like the MCP Inspector's local server (CONVENTIONS 9): binds 127.0.0.1 unless told
 * otherwise, requires a bearer token, checks Host and Origin against DNS rebinding, bounds
 * request bodies, requests in flight and sessions. One SDK `Server` per session.
 */
import { randomBytes, randomUUID, createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LiveCatalog } from './live-catalog';
import { createSkillsServer } from './mcp-server';
import type { RequestLogEntry, SkillsServerFeatures, SkillsServerHandle } from './mcp-server';

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
  /** Requests processed at once (long-lived event streams not counted). Default 32. */
  maxConcurrent?: number;
  /** Sessions kept at once; the least recently used is closed beyond it. Default 64. */
  maxSessions?: number;
  onRequest?: (entry: RequestLogEntry) => void;
  serverInfo?: { name: string; version: string };
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
  close(): Promise<void>;
}

/** The path the MCP endpoint answers on. */
export const MCP_PATH = '/mcp';

/** Loopback addresses we bind by address (CONVENTIONS 9: "binds 127.0.0.1 (the address, not the name)"). */
const LOOPBACK = new Set(['127.0.0.1', '::1']);

/** A new random bearer token: 32 bytes from the OS CSPRNG, base64url. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

function sameSecret(a: string, b: string): boolean {
  // Why: compare digests in constant time so response timing does not leak the token prefix.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

interface Session {
  transport: StreamableHTTPServerTransport;
  handle: SkillsServerHandle;
  lastUsed: number;
}

/** Start the HTTP host over a loaded catalog. Rejects with a plain sentence for unsafe options. */
export async function startHttpHost(
  catalog: LiveCatalog,
  options: HttpHostOptions = {},
): Promise<HttpHost> {
  const bindHost =
    options.host === undefined || options.host === 'localhost' ? '127.0.0.1' : options.host;
  const loopback = LOOPBACK.has(bindHost);
  // Why: a server on every interface is reachable from the network; refuse unless asked (MCP transports spec, security warning).
  if (!loopback && !options.allowNonLoopback) {
    throw new Error(
      `Refusing to listen on ${bindHost}: only 127.0.0.1 and ::1 are allowed unless you pass the explicit allow flag.`,
    );
  }
  if (options.insecureNoAuthLoopbackOnly && !loopback)
    throw new Error('The no-token test mode only works on a loopback address.');
  let token: string | undefined = options.insecureNoAuthLoopbackOnly
    ? undefined
    : (options.token ?? generateToken());
  if (token !== undefined && token.length < 16)
    throw new Error('The token must be at least 16 characters long.');
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const maxConcurrent = options.maxConcurrent ?? 32;
  const maxSessions = options.maxSessions ?? 64;
  const sessions = new Map<string, Session>();
  let inFlight = 0;
  let port = 0;

  const httpLog = (
    req: IncomingMessage,
    status: number,
    started: number,
    message: string,
  ): void => {
    options.onRequest?.({
      time: Date.now(),
      transport: 'http',
      method: `HTTP ${req.method ?? '?'}`,
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
  ): void => {
    httpLog(req, status, started, message);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  const allowedHosts = (): Set<string> => {
    const names =
      bindHost === '::1'
        ? ['[::1]', 'localhost']
        : loopback
          ? ['127.0.0.1', 'localhost', '[::1]']
          : [bindHost.includes(':') ? `[${bindHost}]` : bindHost];
    return new Set(names.map((n) => `${n}:${port}`));
  };
  const allowedOrigins = (): Set<string> =>
    new Set([...[...allowedHosts()].map((h) => `http://${h}`), ...(options.allowedOrigins ?? [])]);

  const closeSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    s.handle.dispose();
    await s.transport.close().catch(() => undefined);
  };

  const readBody = (req: IncomingMessage): Promise<Buffer | 'too-large'> =>
    new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length'] ?? '0');
      if (declared > maxBody) {
        resolve('too-large');
        req.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBody) over = true;
        else if (!over) chunks.push(c);
      });
      req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
      req.on('error', reject);
    });

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://placeholder');
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
    if (url.pathname !== MCP_PATH)
      return refuse(
        req,
        res,
        404,
        `Nothing is served at ${url.pathname}; the MCP endpoint is ${MCP_PATH}.`,
        started,
      );
    if (token !== undefined) {
      // Why: a bearer token keeps other local users and processes out (MCP authorization §2.6; CONVENTIONS 9).
      const auth = req.headers.authorization ?? '';
      const m = /^Bearer\s+(\S+)$/i.exec(auth);
      if (!m || !sameSecret(m[1], token)) {
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
    if (method === 'GET' || method === 'DELETE') {
      const s = sessionId ? sessions.get(sessionId) : undefined;
      if (!s)
        return refuse(
          req,
          res,
          sessionId ? 404 : 400,
          sessionId
            ? 'This session has ended. Start a new one with initialize.'
            : 'The Mcp-Session-Id header is missing.',
          started,
        );
      s.lastUsed = Date.now();
      // Long-lived event stream (GET) is not counted against the concurrency bound.
      await s.transport.handleRequest(req, res);
      return;
    }
    // Why: bounded concurrency keeps one client from starving the app (issue 5 point 6).
    if (inFlight >= maxConcurrent)
      return refuse(req, res, 503, 'The server is busy. Try again in a moment.', started, {
        'retry-after': '1',
      });
    inFlight++;
    try {
      const body = await readBody(req);
      // Why: bounded request size (issue 5 point 6); MCP requests from clients are small.
      if (body === 'too-large')
        return refuse(req, res, 413, `The request is larger than ${maxBody} bytes.`, started);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return refuse(req, res, 400, 'The request body is not valid JSON.', started);
      }
      if (sessionId) {
        const s = sessions.get(sessionId);
        if (!s)
          return refuse(
            req,
            res,
            404,
            'This session has ended. Start a new one with initialize.',
            started,
          );
        s.lastUsed = Date.now();
        await s.transport.handleRequest(req, res, parsed);
        return;
      }
      if (!isInitializeRequest(parsed))
        return refuse(
          req,
          res,
          400,
          'Start a session with an initialize request first (no Mcp-Session-Id header was sent).',
          started,
        );
      if (sessions.size >= maxSessions) {
        const oldest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
        if (oldest) await closeSession(oldest[0]);
      }
      const handle = createSkillsServer(catalog, {
        ...options,
        transport: 'http',
        onRequest: options.onRequest,
        serverInfo: options.serverInfo,
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, handle, lastUsed: Date.now() });
        },
      });
      transport.onclose = () => {
        const id = transport.sessionId;
        if (id && sessions.has(id)) {
          sessions.delete(id);
          handle.dispose();
        }
      };
      await handle.server.connect(transport);
      await transport.handleRequest(req, res, parsed);
    } finally {
      inFlight--;
    }
  };

  const http: HttpServer = createServer((req, res) => {
    onRequest(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        refuse(
          req,
          res,
          500,
          `The server failed: ${e instanceof Error ? e.message : String(e)}`,
          performance.now(),
        );
      else res.end();
    });
  });
  // Why: slow-loris protection; MCP request bodies are small, event streams are exempt via keep-alive data.
  http.headersTimeout = 10_000;
  http.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, bindHost, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
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
      await Promise.all([...sessions.keys()].map(closeSession));
    },
    sessionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions.keys()].map(closeSession));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
