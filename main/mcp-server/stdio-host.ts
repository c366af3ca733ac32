/**
 * The stdio transport: the command a user pastes into Claude Desktop
 * (`skillbench serve --stdio LIB...`). stdout carries the protocol and nothing else.
 */
import type { Readable, Writable } from 'node:stream';
import type { LiveCatalog } from './live-catalog';
import { createSkillsServer } from './mcp-server';
import type { RequestLogEntry, SkillsServerFeatures } from './mcp-server';
import { StdioLineTransport } from './stdio-transport';
import type { StdioTransportOptions } from './stdio-transport';

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
  const handle = createSkillsServer(catalog, { ...options, transport: 'stdio' });
  const transport = new StdioLineTransport(
    options.stdin ?? process.stdin,
    options.stdout ?? process.stdout,
    options,
  );
  // Set before connect: the SDK's Protocol keeps this handler and calls it when the transport closes.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await handle.connect(transport);
  try {
    await closed;
  } finally {
    handle.dispose();
  }
}
