/**
 * A hostile skill server over stdio, run as a child process by the inspector under test:
 * `node hostile-stdio-server.mjs <scenario> <request-log>`. Each request is appended to the log
 * file (one JSON line, written before the answer) so a test can tell what the inspector asked
 * for. Stdio-only misbehaviours: `garbage-on-stdout` writes lines that are not MCP messages
 * around every answer; `closes-mid-listing` exits when asked for the second page.
 * Stops by itself when its stdin closes.
 */
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GARBAGE_LINES, HOSTILE_SCENARIOS, isHostileName } from './hostile-servers';
import { fixtureServer } from './inspector-servers';

const [name = '', logFile = ''] = process.argv.slice(2);
if (!isHostileName(name) || !logFile) {
  process.stderr.write('usage: hostile-stdio-server <scenario> <request-log>\n');
  process.exit(64);
}
let release = (): void => undefined;
const closed = new Promise<void>((resolve) => (release = resolve));
const { spec } = HOSTILE_SCENARIOS[name]();
const server = fixtureServer(
  {
    ...spec,
    onRequest: (method, params) => {
      appendFileSync(logFile, `${JSON.stringify({ method, params })}\n`);
      // Why exit rather than answer: the inspector must see the connection close mid-listing.
      if (
        name === 'closes-mid-listing' &&
        method === 'skills/list' &&
        (params as { cursor?: unknown } | undefined)?.cursor !== undefined
      )
        process.exit(0);
    },
  },
  closed,
);
const transport = new StdioServerTransport();
if (name === 'garbage-on-stdout') {
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage): Promise<void> => {
    for (const line of GARBAGE_LINES) process.stdout.write(`${line}\n`);
    await send(message);
  };
}
process.stdin.on('end', () => {
  release();
  process.exit(0);
});
await server.connect(transport);
