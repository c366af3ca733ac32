/**
 * The HTTP peer for the benchmarks: the official SDK v2 skills server (`loadSkills` + `attach`,
 * as bench/server/peer-server.ts serves it over stdio) on the official Node Streamable HTTP
 * transport (`NodeStreamableHTTPServerTransport` of @modelcontextprotocol/node, which the bench
 * installs beside the other peers, never into the project). Set up as that package documents a
 * stateful server: one transport and one McpServer per session, found by `mcp-session-id`, the
 * Host header checked for localhost. Answers come as JSON (`enableJsonResponse`), as ours do.
 * Bound to 127.0.0.1 on a free port; prints "listening on URL" on stderr.
 *
 * Why plain JavaScript: its transport package is not one of the project's dependencies, so the
 * type checker could not see it; bench/speed/run.mjs bundles this file with that package.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  localhostHostValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: peer-http-server <library>\n');
  process.exit(2);
}
const skills = await loadSkills(root, { onWarning: () => undefined });
/** Session id → its transport. */
const sessions = new Map();
const hostIsLocal = localhostHostValidation();

async function open() {
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => void sessions.set(id, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  const mcp = new McpServer({ name: 'sdk-v2-skills', version: '2.4.0' });
  skills.attach(mcp);
  await mcp.connect(transport);
  return transport;
}

const server = createServer((req, res) => {
  if (!hostIsLocal(req, res)) return;
  const id = req.headers['mcp-session-id'];
  const known = typeof id === 'string' ? sessions.get(id) : undefined;
  if (id !== undefined && !known) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32001, message: 'Session not found' },
      }),
    );
    return;
  }
  void (known ? Promise.resolve(known) : open())
    .then((transport) => transport.handleRequest(req, res))
    .catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`);
});
// Why: the bench stops its servers with SIGTERM; nothing is left behind.
process.on('SIGTERM', () => process.exit(0));
