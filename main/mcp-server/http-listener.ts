/**
 * The socket of the skills server's HTTP host, bound before anything else is done: the address
 * checks (loopback unless allowed, no wildcard) and the port are settled first, so a busy port or
 * a refused address fails at once, before a large library is read and checked. Requests that
 * arrive before the host is ready wait for it. Kept apart from `http-host.ts` so binding does not
 * wait for the MCP SDK to load.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { listenError } from '../platform/listen-error';

/** What binding needs to know (the same fields of HttpHostOptions). */
export interface HttpListenOptions {
  /** Interface to bind. Default `127.0.0.1`. `localhost` means `127.0.0.1` (the address, not the name). */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Allow binding an address other than loopback. Default false. */
  allowNonLoopback?: boolean;
  /** Test-only no-token mode; refused unless the bind is loopback. */
  insecureNoAuthLoopbackOnly?: boolean;
  /** Time allowed for a request's headers to arrive, in ms. Default 10 s. */
  headersTimeoutMs?: number;
}

/** A bound HTTP socket that a host takes over with {@link HttpListener.serve}. */
export interface HttpListener {
  /** The address bound (IPv6 without brackets). */
  host: string;
  port: number;
  /** Whether {@link host} is a loopback address of this computer. */
  loopback: boolean;
  server: HttpServer;
  /** Open TCP connections. */
  connections(): number;
  /** Answer requests with `handler` from now on, and the ones that waited for it. */
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

/**
 * Whether `host` is a loopback address: 127.0.0.0/8 (RFC 1122 §3.2.1.3: every address of it is
 * this computer's own, never sent on a network), `::1`, or 127.x written as an IPv4-mapped IPv6
 * address. A name is not an address, so it is not loopback here.
 */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(bare)) return Number(bare.split('.')[0]) === 127;
  if (!isIPv6(bare)) return false;
  const canonical = new URL(`http://[${bare}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** Whether `host` is the wildcard address of IPv4 or IPv6 (0.0.0.0, ::, 0:0:0:0:0:0:0:0). */
function isWildcard(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(bare)) return bare.split('.').every((part) => Number(part) === 0);
  return isIPv6(bare) && new URL(`http://[${bare}]/`).hostname === '[::]';
}

/** Check the address and bind it. Rejects with a plain sentence for unsafe options or a failed bind. */
export async function listenHttp(options: HttpListenOptions = {}): Promise<HttpListener> {
  const given =
    options.host === undefined || options.host === 'localhost' ? '127.0.0.1' : options.host;
  const bindHost = given.replace(/^\[(.*)\]$/, '$1');
  const loopback = isLoopbackAddress(bindHost);
  // Why: a server on an address other computers reach is reachable from the network; refuse
  // unless asked (MCP transports spec, security warning).
  if (!loopback && !options.allowNonLoopback) {
    throw new Error(
      `Refusing to listen on ${given}: other computers on the network could reach it there. Only this computer's own loopback addresses (127.0.0.1, any other 127.x.x.x, ::1) are used unless that is allowed explicitly (skillbench serve --allow-remote).`,
    );
  }
  if (options.insecureNoAuthLoopbackOnly && !loopback)
    throw new Error('The no-token test mode only works on a loopback address.');
  // Why: requests are accepted only for the address bound (the host's Host check, against DNS
  // rebinding), and no client addresses a request to "every address", so nothing could connect.
  if (isWildcard(bindHost))
    throw new Error(
      `${given} means every address of this computer, but requests are accepted only when they are sent to the address the server listens on, so no client could use it. Give one address of this computer that the clients reach it by (such as 192.168.1.20).`,
    );
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const server = createServer(
    // Why: Node checks the headers deadline on this interval; the default (30 s) would make it late.
    { connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 2))) },
    (req, res) => {
      if (handler) handler(req, res);
      else waiting.push([req, res]);
    },
  );
  // Why: slow-loris protection for headers, from the first connection on.
  server.headersTimeout = headersTimeout;
  server.requestTimeout = 0;
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    socket.once('close', () => connections--);
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error): void => reject(listenError(e, bindHost, options.port ?? 0));
    server.once('error', failed);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return {
    host: bindHost,
    port: (server.address() as AddressInfo).port,
    loopback,
    server,
    connections: () => connections,
    serve(next) {
      handler = next;
      for (const [req, res] of waiting.splice(0)) if (!res.destroyed) next(req, res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
