/**
 * The stdio transport: the command a user pastes into Claude Desktop
 * (`skillbench serve --stdio LIB...`). stdout carries the protocol and nothing else.
 *
 * The SDK's serving entry decides the protocol era from the client's first message (MCP
 * 2026-07-28, transports §stdio "Backward Compatibility"): `initialize` pins the connection
 * to 2025-11-25 (or older), `server/discover` or any request with the per-request `_meta` to
 * 2026-07-28. Both are answered by the same handlers (`createSkillsServer`), over our own
 * bounded line transport.
 */
import type { Readable, Writable } from 'node:stream';
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { isRequest } from './jsonrpc';
import type { LiveCatalog } from './live-catalog';
import { createSkillsServer } from './mcp-server';
import type { RequestLogEntry, SkillsServerFeatures } from './mcp-server';
import { paramsError } from './params';
import { StdioLineTransport } from './stdio-transport';
import type { StdioTransportOptions } from './stdio-transport';

/** `subscriptions/listen` streams one stdio connection may hold open (2026-07-28). */
export const MAX_LISTEN_STREAMS = 16;

/** Options for {@link serveStdio}. */
export interface StdioHostOptions extends SkillsServerFeatures, StdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  onRequest?: (entry: RequestLogEntry) => void;
  serverInfo?: { name: string; version: string };
}

/** Serve the catalog over stdio; resolves when the client closes the connection (stdin ends). */
export async function serveStdio(
  catalog: LiveCatalog,
  options: StdioHostOptions = {},
): Promise<void> {
  const log = options.onRequest;
  const transport = new StdioLineTransport(
    options.stdin ?? process.stdin,
    options.stdout ?? process.stdout,
    {
      ...options,
      // The opening `initialize` is the SDK's; its parameters are checked here (see precheck).
      precheck: (message: JSONRPCMessage) => {
        if (!isRequest(message) || message.method !== 'initialize') return undefined;
        const refused = paramsError(message);
        if (refused)
          log?.({
            time: Date.now(),
            transport: 'stdio',
            method: message.method,
            status: refused.error.code,
            ms: 0,
            message: refused.error.message,
          });
        return refused;
      },
    },
  );
  const disposers = new Set<() => void>();
  const connection = serveSdkStdio(
    ({ era }) => {
      const handle = createSkillsServer(catalog, { ...options, transport: 'stdio', era });
      disposers.add(handle.dispose);
      // An instance the entry discards (a `server/discover` probe followed by `initialize`) or closes stops listening too.
      handle.server.onclose = () => {
        handle.dispose();
        disposers.delete(handle.dispose);
      };
      return handle.server;
    },
    // Why a bound: each open subscription is written to for every change, whether or not the
    // client reads; far more than any client opens (one per kind of notification it follows).
    { transport, maxSubscriptions: MAX_LISTEN_STREAMS },
  );
  try {
    await transport.closed;
  } finally {
    await connection.close().catch(() => undefined);
    for (const dispose of disposers) dispose();
  }
}
