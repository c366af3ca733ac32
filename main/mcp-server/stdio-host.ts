/**
 * The stdio transport: the command a user pastes into Claude Desktop
 * (`skillbench serve --stdio LIB...`). stdout carries the protocol and nothing else.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import type { LiveCatalog } from './live-catalog';
import { createSkillsServer } from './mcp-server';
import type { RequestLogEntry, SkillsServerFeatures } from './mcp-server';

/** Options for {@link serveStdio}. */
export interface StdioHostOptions extends SkillsServerFeatures {
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
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // Why: the SDK's stdio transport does not notice stdin ending; a client that exits must stop us.
    stdin.once('end', () => void transport.close());
    stdin.once('close', () => void transport.close());
  });
  await handle.server.connect(transport);
  try {
    await closed;
  } finally {
    handle.dispose();
  }
}
