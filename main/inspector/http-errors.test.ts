/**
 * What `connect` says when the address answers, but not with MCP: an HTTP error status, a web
 * page, JSON that is no JSON-RPC message, a redirect, a dropped connection, https to a plain
 * http server. Each is one plain sentence (docs/conventions.md §7), never the SDK's wording or a
 * validator's dump. Real servers on 127.0.0.1, each closed by its test.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveCatalog } from '../mcp-server/live-catalog';
import { startHttpHost } from '../mcp-server/http-host';
import { tempDir } from '../testing/skill-library';
import { InspectorService } from './service';
import type { ConnectionInput } from './types';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An HTTP server on 127.0.0.1 answering every request with `answer`; its base URL. */
async function answering(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The message of a failed connect to `url`. */
async function connectError(
  url: string,
  extra: Partial<Pick<ConnectionInput, 'bearerToken' | 'headers'>> = {},
  kind: 'http' | 'sse' = 'http',
): Promise<string> {
  const data = await tempDir('skillbench-insp-http-');
  const service = new InspectorService({ dataDir: data.path });
  cleanups.push(async () => {
    await service.close();
    await data.remove();
  });
  try {
    await service.connect({ label: 'x', kind, url, headers: [], oauth: false, ...extra });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('connect did not fail');
}

const CHECK = 'Check the address: it must be the MCP endpoint itself';

describe('inspector: an address that answers, but not with MCP', () => {
  it("JSON that is not an MCP message: one sentence, not the validator's list of issues", async () => {
    const url = await answering((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"hello":"world"}');
    });
    const message = await connectError(`${url}/mcp`);
    expect(message).toBe(
      `The server at ${url}/mcp answered with something that is not an MCP message. ${CHECK} (for skillbench serve, http://127.0.0.1:PORT/mcp).`,
    );
  });

  it('a web page', async () => {
    const url = await answering((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
    });
    expect(await connectError(`${url}/`)).toMatch(
      new RegExp(`^The server at ${url}/ answered with a web page, not with MCP\\. ${CHECK}`),
    );
  });

  it('an HTTP error status, with or without a body', async () => {
    const empty = await answering((_, res) => {
      res.writeHead(404);
      res.end();
    });
    expect(await connectError(`${empty}/mcp`)).toMatch(
      new RegExp(
        `^The server at ${empty}/mcp answered with HTTP status 404, not with MCP\\. ${CHECK}`,
      ),
    );
    const broken = await answering((_, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    });
    expect(await connectError(`${broken}/mcp`)).toBe(
      `The server at ${broken}/mcp failed with HTTP status 500 ("Internal Server Error"). It may be broken or busy; try again later.`,
    );
    // A plain web server answers POST with 501: not an MCP endpoint, not a broken one.
    const plain = await answering((_, res) => {
      res.writeHead(501, { 'content-type': 'text/plain' });
      res.end('Unsupported method');
    });
    expect(await connectError(`${plain}/`)).toMatch(
      new RegExp(
        `^The server at ${plain}/ answered with HTTP status 501 \\("Unsupported method"\\): it does not take the POST requests MCP sends, so this is not an MCP endpoint\\. ${CHECK}`,
      ),
    );
  });

  it('our own server at a path other than /mcp: its own sentence, and the address to check', async () => {
    const lib = await tempDir();
    const catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    const host = await startHttpHost(catalog);
    cleanups.push(async () => {
      await host.close();
      catalog.close();
      await lib.remove();
    });
    const root = host.url.replace(/\/mcp$/, '/');
    const message = await connectError(root);
    expect(message).toMatch(
      new RegExp(
        `^The server at ${root} refused the request with HTTP status 404 \\("Nothing is served at /; the MCP endpoint is /mcp\\."\\)\\. ${CHECK}`,
      ),
    );
  });

  it('a 403 that says why (our server refusing an Origin) is that reason, not "check the token"', async () => {
    const lib = await tempDir();
    const catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    const host = await startHttpHost(catalog);
    cleanups.push(async () => {
      await host.close();
      catalog.close();
      await lib.remove();
    });
    const message = await connectError(host.url, {
      bearerToken: host.token,
      headers: [{ name: 'Origin', value: 'http://evil.example' }],
    });
    expect(message).toBe(
      `The server at ${host.url} refused the request with HTTP status 403 ("Requests from the web page at http://evil.example are not allowed.").`,
    );
  });

  it('the older SSE transport: nothing listening, and a Streamable HTTP server refusing it', async () => {
    // An address nobody listens on: a server's, once it has closed.
    const url = await answering((_, res) => res.end());
    await cleanups.pop()?.();
    expect(await connectError(`${url}/sse`, {}, 'sse')).toBe(
      `Nothing is listening at ${url}/sse. Is the server running?`,
    );
    const lib = await tempDir();
    const catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    const host = await startHttpHost(catalog);
    cleanups.push(async () => {
      await host.close();
      catalog.close();
      await lib.remove();
    });
    expect(await connectError(host.url, { bearerToken: host.token }, 'sse')).toBe(
      `The server at ${host.url} refused the older HTTP+SSE transport (HTTP status 400). Most servers today, skillbench serve among them, speak Streamable HTTP: connect with that instead (without --sse on the command line).`,
    );
  });

  it('a redirect, which is not followed', async () => {
    const url = await answering((_, res) => {
      res.writeHead(302, { location: 'http://192.0.2.1/mcp' });
      res.end();
    });
    expect(await connectError(`${url}/mcp`)).toBe(
      `The server at ${url}/mcp sends you on to http://192.0.2.1/mcp, which is not followed. If you trust that address, inspect it instead.`,
    );
  });

  it('a connection dropped without an answer', async () => {
    const url = await answering((req) => req.socket.destroy());
    expect(await connectError(`${url}/mcp`)).toBe(
      `The server at ${url}/mcp dropped the connection without answering.`,
    );
  });

  it('https to a server that speaks plain http says to use http://', async () => {
    const url = await answering((_, res) => res.end());
    const https = url.replace(/^http:/, 'https:');
    expect(await connectError(`${https}/mcp`)).toBe(
      `The server at ${https}/mcp does not answer secure (https) connections. If it serves plain http, as skillbench serve does, use the same address with http://.`,
    );
  });

  it('an Authorization header and a bearer token together are refused, and nothing is sent', async () => {
    let requests = 0;
    const url = await answering((_, res) => {
      requests++;
      res.end();
    });
    expect(
      await connectError(`${url}/mcp`, {
        headers: [{ name: 'authorization', value: 'Bearer a' }],
        bearerToken: 'b',
      }),
    ).toBe(
      'Both an Authorization header and a bearer token were given, but a request carries only one. Remove the Authorization header or the token.',
    );
    expect(requests).toBe(0);
  });
});
