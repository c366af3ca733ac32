/**
 * Test and bench support for the inspector: real MCP servers on 127.0.0.1 free ports, started
 * and stopped by the caller — the embedded server, the official SDK v2 skills server, and
 * fixture servers (SDK v1 `Server`) whose handlers a test writes, including hostile ones.
 * Node only; no test framework imports.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  GetSkillRequestSchema,
  ListSkillsRequestSchema,
  ReadDirectoryRequestSchema,
  SKILLS_EXTENSION_ID,
} from '../../shared/sep';
import type { SecretBox } from '../library/secret-store';
import { LiveCatalog } from '../mcp-server/live-catalog';
import { startHttpHost } from '../mcp-server/http-host';
import type { SkillsServerFeatures } from '../mcp-server/mcp-server';
import { sha256Digest } from '../inspector/verify';

/** A running loopback server. */
export interface RunningServer {
  url: string;
  /** Bearer token to send, when the server wants one. */
  token?: string;
  close(): Promise<void>;
}

function listen(server: HttpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Why: tests bind the loopback address on a free port and never leave the machine.
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The embedded Skillbench server (main/mcp-server) over HTTP on a library folder. */
export async function startEmbeddedHttp(
  libRoot: string,
  features: SkillsServerFeatures = {},
): Promise<RunningServer> {
  const catalog = new LiveCatalog([libRoot], { watch: false });
  await catalog.load();
  const host = await startHttpHost(catalog, { ...features });
  return {
    url: host.url,
    token: host.token,
    close: async () => {
      await host.close();
      catalog.close();
    },
  };
}

async function readBody(req: IncomingMessage, max = 4 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > max) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Serve a web-standard fetch handler on loopback HTTP (for the SDK v2 `createMcpHandler`). */
export async function serveFetch(
  handler: (req: Request) => Promise<Response>,
  path = '/mcp',
): Promise<RunningServer> {
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body =
          req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === 'string') headers.set(k, v);
        const ac = new AbortController();
        res.on('close', () => ac.abort());
        const response = await handler(
          new Request(`http://127.0.0.1${req.url ?? '/'}`, {
            method: req.method,
            headers,
            body,
            signal: ac.signal,
          }),
        );
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        if (response.body) Readable.fromWeb(response.body).pipe(res);
        else res.end();
      } catch {
        if (!res.headersSent) res.writeHead(500).end();
        else res.end();
      }
    })();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}${path}`, close: () => closeServer(server) };
}

/** The official SDK v2 skills server (`@modelcontextprotocol/server` `ext/skills`) over HTTP on a library folder. */
export async function startSdkV2Http(
  libRoot: string,
  options: { pageSize?: number } = {},
): Promise<RunningServer> {
  const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
  const { loadSkills } = await import('@modelcontextprotocol/server/ext/skills/node');
  const catalog = await loadSkills(libRoot, {
    pageSize: options.pageSize ?? 100,
    onWarning: () => undefined,
  });
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: 'sdk-v2-skills', version: '2.4.0' });
    catalog.attach(mcp);
    return mcp;
  });
  const running = await serveFetch((req) => handler.fetch(req));
  return {
    url: running.url,
    close: async () => {
      await handler.close();
      await running.close();
    },
  };
}

/** A file a fixture serves. */
export interface FixtureFile {
  text?: string;
  blob?: Uint8Array;
  mimeType?: string;
}

/** How a fixture server behaves; every handler is optional. */
export interface FixtureSpec {
  name?: string;
  /** Declare the Skills extension with these settings; `false`/absent: not declared. */
  extension?: { directoryRead?: boolean } | false;
  listSkills?: (cursor: string | undefined) => { skills: unknown[]; nextCursor?: string };
  getSkill?: (uri: string) => unknown;
  /** Files by URI for `resources/read`. */
  files?: Record<string, FixtureFile>;
  /** Entries of `resources/list` (one page). */
  resources?: { uri: string; name: string; mimeType?: string; description?: string }[];
  templates?: { uriTemplate: string; name: string; description?: string }[];
  readDirectory?: (
    uri: string,
    cursor: string | undefined,
  ) => { resources: unknown[]; nextCursor?: string } | undefined;
  /** Delay before every answer, ms (a slow server). */
  delayMs?: number;
  /** Never answer the requests for which this returns true (until the server is closed). */
  stall?: (method: string, params: unknown) => boolean;
  /** Called for every request (method, params) — for "no prefetch" checks. */
  onRequest?: (method: string, params: unknown) => void;
  /** Bearer token the server requires; absent: none. */
  requireToken?: string;
  /** Extra HTTP route handler run first (e.g. OAuth metadata); return true when handled. */
  route?: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>;
  /** Checks the Authorization header; return false to answer 401 with this WWW-Authenticate. */
  authorize?: (
    authorization: string | undefined,
    req: IncomingMessage,
  ) => { ok: true } | { ok: false; wwwAuthenticate: string };
}

/** A promise that never settles: the default "closed" signal of a fixture nobody closes. */
const NEVER = new Promise<void>(() => undefined);

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/**
 * Build the SDK v1 `Server` of a fixture (also used over stdio by fixture scripts). A stalled
 * request waits for `closed`, so a closed fixture leaves nothing pending behind it.
 */
export function fixtureServer(spec: FixtureSpec, closed: Promise<void> = NEVER): Server {
  const caps: Record<string, unknown> = { resources: {} };
  if (spec.extension) caps.extensions = { [SKILLS_EXTENSION_ID]: spec.extension };
  const server = new Server(
    { name: spec.name ?? 'fixture', version: '1.0.0' },
    { capabilities: caps },
  );
  const wait = async (method: string, params: unknown): Promise<void> => {
    spec.onRequest?.(method, params);
    if (spec.stall?.(method, params)) {
      await closed;
      throw new McpError(ErrorCode.InternalError, 'The fixture was closed.');
    }
    if (spec.delayMs) await new Promise((r) => setTimeout(r, spec.delayMs));
  };
  server.setRequestHandler(ListSkillsRequestSchema, async (req) => {
    await wait(req.method, req.params);
    if (!spec.listSkills) throw new McpError(ErrorCode.MethodNotFound, 'no skills/list');
    return spec.listSkills(req.params?.cursor);
  });
  server.setRequestHandler(GetSkillRequestSchema, async (req) => {
    await wait(req.method, req.params);
    const entry = spec.getSkill?.(req.params.uri);
    if (!entry) throw invalid(`Unknown skill: ${req.params.uri}`);
    return { skill: entry };
  });
  server.setRequestHandler(ReadDirectoryRequestSchema, async (req) => {
    await wait(req.method, req.params);
    const page = spec.readDirectory?.(req.params.uri, req.params.cursor);
    if (!page) throw invalid(`Not a directory: ${req.params.uri}`);
    return page;
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    await wait(req.method, req.params);
    const f = spec.files?.[req.params.uri];
    if (!f) throw invalid(`Unknown resource: ${req.params.uri}`);
    const base = { uri: req.params.uri, mimeType: f.mimeType ?? 'text/plain' };
    return {
      contents: [
        f.blob
          ? { ...base, blob: Buffer.from(f.blob).toString('base64') }
          : { ...base, text: f.text ?? '' },
      ],
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
    await wait(req.method, req.params);
    return { resources: spec.resources ?? [] };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (req) => {
    await wait(req.method, req.params);
    return { resourceTemplates: spec.templates ?? [] };
  });
  return server;
}

/** Start a fixture server on loopback Streamable HTTP (stateless, JSON responses). */
export async function startFixture(
  spec: FixtureSpec,
): Promise<RunningServer & { requests: { method: string; params: unknown }[] }> {
  const requests: { method: string; params: unknown }[] = [];
  let release = (): void => undefined;
  const closed = new Promise<void>((resolve) => (release = resolve));
  const userOnRequest = spec.onRequest;
  const withLog: FixtureSpec = {
    ...spec,
    onRequest: (method, params) => {
      requests.push({ method, params });
      userOnRequest?.(method, params);
    },
  };
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
        if (spec.route && (await spec.route(req, res, body))) return;
        if (spec.requireToken && req.headers.authorization !== `Bearer ${spec.requireToken}`) {
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end('{"error":"unauthorized"}');
          return;
        }
        if (spec.authorize) {
          const a = spec.authorize(req.headers.authorization, req);
          if (!a.ok) {
            res
              .writeHead(401, {
                'www-authenticate': a.wwwAuthenticate,
                'content-type': 'application/json',
              })
              .end('{"error":"invalid_token"}');
            return;
          }
        }
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        // Why stateless: one Server per request is the SDK's documented stateless pattern and needs no session bookkeeping.
        const mcp = fixtureServer(withLog, closed);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on('close', () => {
          void transport.close();
          void mcp.close();
        });
        await mcp.connect(transport);
        await transport.handleRequest(req, res, JSON.parse(body.toString('utf8')));
      } catch {
        if (!res.headersSent) res.writeHead(500).end();
      }
    })();
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () => {
      release();
      return closeServer(server);
    },
  };
}

/** A skill's entry and files from path → content (for fixtures), with correct digests and sizes. */
export function fixtureSkill(
  skillPath: string,
  frontmatter: Record<string, unknown>,
  files: Record<string, string | Uint8Array>,
): {
  entry: {
    uri: string;
    frontmatter: Record<string, unknown>;
    resources: { uri: string; digest: string; size: number }[];
  };
  files: Record<string, FixtureFile>;
} {
  const root = `skill://${skillPath}`;
  const out: Record<string, FixtureFile> = {};
  const resources = Object.entries(files).map(([path, content]) => {
    const uri = `${root}/${path}`;
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    out[uri] =
      typeof content === 'string'
        ? { text: content, mimeType: path === 'SKILL.md' ? 'text/markdown' : 'text/plain' }
        : { blob: content, mimeType: 'application/octet-stream' };
    return { uri, digest: sha256Digest(bytes), size: bytes.byteLength };
  });
  return { entry: { uri: `${root}/SKILL.md`, frontmatter, resources }, files: out };
}

/** Start a fixture server on the legacy HTTP+SSE transport (GET /sse, POST /messages), optionally requiring a bearer token. */
export async function startSseFixture(
  spec: FixtureSpec,
): Promise<RunningServer & { requests: { method: string; params: unknown }[] }> {
  const requests: { method: string; params: unknown }[] = [];
  const mcp = fixtureServer({
    ...spec,
    onRequest: (method, params) => requests.push({ method, params }),
  });
  let transport: SSEServerTransport | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      if (spec.requireToken && req.headers.authorization !== `Bearer ${spec.requireToken}`) {
        res.writeHead(401).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/sse') {
        transport = new SSEServerTransport('/messages', res);
        await mcp.connect(transport);
      } else if (
        req.method === 'POST' &&
        url.pathname === '/messages' &&
        transport &&
        url.searchParams.get('sessionId') === transport.sessionId
      ) {
        await transport.handlePostMessage(req, res);
      } else res.writeHead(404).end();
    })();
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/sse`,
    requests,
    close: async () => {
      await mcp.close();
      await closeServer(server);
    },
  };
}

/** A real SecretBox for tests: AES-256-GCM with a random key (the app uses Electron safeStorage). */
export function aesBox(): SecretBox {
  const key = randomBytes(32);
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
    },
    decrypt(sealed) {
      const raw = Buffer.from(sealed, 'base64');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
  };
}
