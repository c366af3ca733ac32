import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve } from 'node:path';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import type { Dispatch } from '../api/dispatch';
import { listenError } from '../platform/listen-error';
import { MIME_TYPES, SECURITY_HEADERS } from '../security/csp';
import { resolveStaticFile } from '../security/static-path';
import { checkOrigin, checkRequest } from './request-guard';

/** Options for {@link startWebHost}. */
export interface WebHostOptions {
  /** The one dispatch both shells use (main/api/dispatch.ts). */
  dispatch: Dispatch;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to a fresh random token. */
  token?: string;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes?: number;
}

/** A running browser-shell host. */
export interface WebHost {
  /** The address to open, token included (the page trades it for a cookie and drops it from the URL). */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Push an event to every connected page (Server-Sent Events). */
  emit<K extends EventName>(event: K, payload: EventPayload<K>): void;
  close(): Promise<void>;
}

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
};

/**
 * Start the browser shell: the built renderer and the same API as the Electron window, over
 * HTTP on 127.0.0.1 only (the address, never the name or all interfaces: docs/conventions.md §9).
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const maxBody = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const rendererDir = resolve(options.rendererDir);
  const streams = new Set<ServerResponse>();
  let port = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendJson(response, 500, {
          ok: false,
          error: {
            code: 'internal',
            message: 'Skillbench hit an internal error.',
            detail: String(error),
          },
        });
      } else {
        response.destroy();
      }
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const headers = {
      host: request.headers.host,
      origin: request.headers.origin,
      authorization: request.headers.authorization,
    };

    // Why the page itself needs no token: it is the built UI, public code; the token it was
    // opened with (`?token=`) is kept by the page in its own session storage and sent with every
    // API call in a header. Host and Origin are checked for everything (DNS rebinding).
    if (!url.pathname.startsWith('/api/')) {
      const where = checkOrigin(headers, port);
      if (!where.ok) return refuse(response, where.status, where.reason);
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return refuse(response, 405, 'Method not allowed');
      return serveStatic(url.pathname, response);
    }

    const verdict = checkRequest(headers, port, token);
    if (!verdict.ok) return refuse(response, verdict.status, verdict.reason);

    if (url.pathname === '/api/events') {
      if (request.method !== 'GET') return refuse(response, 405, 'Method not allowed');
      response.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      response.write(': connected\n\n');
      streams.add(response);
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 25_000);
      request.on('close', () => {
        clearInterval(keepAlive);
        streams.delete(response);
      });
      return;
    }

    if (url.pathname.startsWith('/api/')) {
      if (request.method !== 'POST') return refuse(response, 405, 'Method not allowed');
      // Why: a JSON content type cannot be sent by a plain HTML form, a second line against CSRF.
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return refuse(response, 415, 'Requests must be JSON');
      }
      let name: string;
      try {
        name = decodeURIComponent(url.pathname.slice('/api/'.length));
      } catch {
        name = url.pathname;
      }
      const body = await readBody(request, maxBody);
      if (body === null)
        return sendJson(response, 413, {
          ok: false,
          error: { code: 'too-large', message: 'That request is too large.' },
        });
      let raw: unknown;
      try {
        raw = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
      } catch {
        return sendJson(response, 400, {
          ok: false,
          error: {
            code: 'invalid-input',
            message: 'Skillbench received a request it could not understand.',
          },
        });
      }
      const result = await options.dispatch(name, raw);
      // Why these statuses: HTTP tools see a missing channel or a malformed request for what it is;
      // the body is the same Result the Electron shell returns.
      const status =
        !result.ok && result.error.code === 'unknown-channel'
          ? 404
          : !result.ok && result.error.code === 'invalid-input'
            ? 400
            : 200;
      return sendJson(response, status, result);
    }

    return refuse(response, 404, 'Not found');
  }

  async function serveStatic(pathname: string, response: ServerResponse): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return refuse(response, 404, 'Not found');
    }
    const file = resolveStaticFile(rendererDir, decoded);
    if (!file) return refuse(response, 404, 'Not found');
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      return refuse(response, 404, 'Not found');
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': extname(file) === '.html' ? 'no-store' : 'max-age=3600',
    });
    response.end(bytes);
  }

  // Why: a request whose headers or body trickle in must not hold a connection forever; the
  // event stream is a response, which these limits do not cut.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', (error) =>
      rejectListen(listenError(error, '127.0.0.1', options.port ?? 0)),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    emit(event, payload) {
      const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
      for (const stream of streams) stream.write(frame);
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const stream of streams) stream.end();
        streams.clear();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

function refuse(response: ServerResponse, status: number, reason: string): void {
  const page =
    status === 401
      ? 'Skillbench needs its access token. Open the full address that `npm start` or `skillbench web` printed (it ends with ?token=...).'
      : reason;
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(`${page}\n`);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, JSON_HEADERS);
  response.end(JSON.stringify(value));
}

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
