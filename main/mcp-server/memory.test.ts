/**
 * Memory stays bounded in a long HTTP session, and across many 2026-07-28 requests. The SDK v1 server transport in JSON-response
 * mode kept every answer until its session closed; these tests read a 256 KiB file in a loop
 * and check that nothing is kept: in a real server process with a small heap, in the host's own
 * bookkeeping, and (for the move to SDK v2) in the SDK v2 transport itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2ClientTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport as V1WebTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Server as V2Server,
  WebStandardStreamableHTTPServerTransport as V2WebTransport,
} from '@modelcontextprotocol/server';
import { startHttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import {
  bundleCli,
  skillMd,
  startServeProcess,
  tempDir,
  writeTree,
} from '../testing/skill-library';

const BIG = 256 * 1024;
const BIG_URI = 'skill://big/references/big.md';

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'memory-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    }),
  );
  return client;
}

describe('one long HTTP session keeps no answers', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;

  beforeAll(async () => {
    lib = await tempDir();
    await writeTree(lib.path, {
      'big/SKILL.md': skillMd('name: big\ndescription: Holds one large reference file.'),
      'big/references/big.md': 'x'.repeat(BIG),
    });
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
  }, 120_000);

  afterAll(async () => {
    await lib?.remove();
    await build?.remove();
  });

  it('a server process with a 96 MiB heap answers 600 reads of a 256 KiB file in one session and stays up', async () => {
    // Before the fix every answer stayed in the session: this process ran out of heap after ~314 reads.
    const server = await startServeProcess(
      cli,
      ['--no-watch', '--insecure-no-auth-loopback-only', lib.path],
      { nodeArgs: ['--max-old-space-size=96'] },
    );
    const client = await connect(server.url);
    try {
      for (let i = 0; i < 600; i++) {
        const r = await client.readResource({ uri: BIG_URI });
        expect((r.contents[0] as { text?: string }).text?.length).toBe(BIG);
      }
      expect(server.child.exitCode).toBeNull();
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  it('the same process answers 600 such reads on protocol 2026-07-28, one request at a time, and stays up', async () => {
    // No session on the new revision: each request gets a server of its own, dropped after its answer.
    const server = await startServeProcess(
      cli,
      ['--no-watch', '--insecure-no-auth-loopback-only', lib.path],
      { nodeArgs: ['--max-old-space-size=96'] },
    );
    const client = new V2Client(
      { name: 'memory-test', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new V2ClientTransport(new URL(server.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      for (let i = 0; i < 600; i++) {
        const r = await client.readResource({ uri: BIG_URI });
        expect((r.contents[0] as { text?: string }).text?.length).toBe(BIG);
      }
      expect(server.child.exitCode).toBeNull();
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  it('the host holds no request and no answer once the answers are delivered', async () => {
    const catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    const host = await startHttpHost(catalog, {});
    const client = await connect(host.url, host.token);
    try {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < 25; i++) await client.readResource({ uri: BIG_URI });
        }),
      );
      expect(host.stats()).toMatchObject({ sessions: 1, inFlight: 0, pendingAnswers: 0 });
    } finally {
      await client.close();
      await host.close();
      catalog.close();
    }
  });
});

/** Drive a web-standard transport with fetch `Request`s the way the Node adapters do. */
async function post(
  handle: (req: Request) => Promise<Response>,
  body: unknown,
  session?: string,
): Promise<Response> {
  return handle(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
}

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
};
const READS = 50;
const CONTENTS = { contents: [{ uri: BIG_URI, mimeType: 'text/markdown', text: 'x'.repeat(BIG) }] };

/** Entries left in a web-standard transport's per-POST map after `READS` answered reads. */
async function entriesLeft(
  transport: { handleRequest(req: Request): Promise<Response> },
  connectServer: () => Promise<void>,
): Promise<number> {
  await connectServer();
  const handle = (req: Request): Promise<Response> => transport.handleRequest(req);
  const init = await post(handle, INIT);
  const session = init.headers.get('mcp-session-id') ?? undefined;
  await init.text();
  await (
    await post(handle, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)
  ).text();
  for (let id = 1; id <= READS; id++) {
    const r = await post(
      handle,
      { jsonrpc: '2.0', id, method: 'resources/read', params: { uri: BIG_URI } },
      session,
    );
    expect(((await r.json()) as { result?: unknown }).result).toEqual(CONTENTS);
  }
  return (transport as unknown as { _streamMapping: Map<unknown, unknown> })._streamMapping.size;
}

describe('SDK server transports in JSON-response mode (why ours, and what a move to SDK v2 would bring)', () => {
  it('SDK v2 (@modelcontextprotocol/server 2.4) releases each answer once it is sent', async () => {
    const server = new V2Server({ name: 'v2', version: '1' }, { capabilities: { resources: {} } });
    server.setRequestHandler('resources/read', () => CONTENTS);
    const transport = new V2WebTransport({
      sessionIdGenerator: () => 'v2-session',
      enableJsonResponse: true,
    });
    expect(await entriesLeft(transport, () => server.connect(transport))).toBe(0);
    await server.close();
  });

  it('SDK v1 (@modelcontextprotocol/sdk 1.32) keeps one entry, holding its answer, per POST until the session closes', async () => {
    // If this starts failing, SDK v1 has fixed the leak; http-transport.ts says why we replaced it.
    const server = new V1Server({ name: 'v1', version: '1' }, { capabilities: { resources: {} } });
    server.setRequestHandler(ReadResourceRequestSchema, () => CONTENTS);
    const transport = new V1WebTransport({
      sessionIdGenerator: () => 'v1-session',
      enableJsonResponse: true,
    });
    expect(await entriesLeft(transport, () => server.connect(transport))).toBe(READS + 1);
    await server.close();
  });
});
