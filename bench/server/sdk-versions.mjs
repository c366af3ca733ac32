// The MCP SDK's own cost per read over stdio, without Skillbench: a bare server answering
// `resources/read` with a fixed 1.6 kB text, once on the SDK v1 package (@modelcontextprotocol/sdk,
// what the server used before the one-owner restructure) and once on the SDK v2 server package
// (@modelcontextprotocol/server, what it uses now), driven by the same raw JSON-RPC client with 8
// reads in flight, in turns. Prints reads per second and the server's CPU per read (from /proc).
// Why: it separates what the SDK costs per message from what our server adds (bench/server/README.md).
// Usage: node bench/server/sdk-versions.mjs [--pairs 3] [--reads 20000]   (Linux: reads /proc)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TEXT = 'x'.repeat(1600);

if (args[0] === '--serve') {
  // One bare server on stdio, on the SDK version asked for.
  const require = createRequire(import.meta.url);
  if (args[1] === 'v1') {
    const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
    const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
    const { ReadResourceRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
    const server = new Server({ name: 'v1', version: '1' }, { capabilities: { resources: {} } });
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
      contents: [{ uri: request.params.uri, mimeType: 'text/markdown', text: TEXT }],
    }));
    await server.connect(new StdioServerTransport());
  } else {
    const { Server } = await import('@modelcontextprotocol/server');
    const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    const server = new Server({ name: 'v2', version: '1' }, { capabilities: { resources: {} } });
    server.setRequestHandler('resources/read', async (request) => ({
      contents: [{ uri: request.params.uri, mimeType: 'text/markdown', text: TEXT }],
    }));
    await server.connect(new StdioServerTransport());
  }
} else {
  const pairs = option('--pairs', 3);
  const reads = option('--reads', 20000);
  const results = { v1: [], v2: [] };
  for (let i = 0; i < pairs; i++)
    for (const version of ['v1', 'v2']) results[version].push(await drive(version, reads));
  console.log(
    `${reads} reads of a 1.6 kB text per run, 8 in flight, after 5,000 to warm up; ${pairs} pairs in turns, Node ${process.version}`,
  );
  for (const [version, runs] of Object.entries(results)) {
    const perSec = runs.map((r) => r.perSec);
    const cpu = runs.map((r) => r.cpuMicros);
    console.log(
      `SDK ${version}: ${Math.min(...perSec).toFixed(0)}–${Math.max(...perSec).toFixed(0)} reads/s, server CPU ${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)} µs per read`,
    );
  }
}

/** Start a bare server and time `reads` reads after a warm-up. */
async function drive(version, reads) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', version], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiters = new Map();
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let end; (end = buffered.indexOf('\n')) >= 0;) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiters.get(message.id)?.(message);
      waiters.delete(message.id);
    }
  });
  let id = 0;
  const call = (method, params) =>
    new Promise((resolve) => {
      const key = ++id;
      waiters.set(key, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: key, method, params })}\n`);
    });
  const init = await call('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'sdk-versions', version: '1' },
  });
  if (init.error) throw new Error(`${version}: ${JSON.stringify(init.error)}`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const readAll = async (count) => {
    let sent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < count) {
          sent++;
          const answer = await call('resources/read', { uri: 'skill://x/SKILL.md' });
          if (answer.error) throw new Error(`${version}: ${JSON.stringify(answer.error)}`);
        }
      }),
    );
  };
  const cpu = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  };
  await readAll(5000);
  const cpu0 = cpu();
  const t0 = performance.now();
  await readAll(reads);
  const ms = performance.now() - t0;
  const cpuMs = cpu() - cpu0;
  child.stdin.end();
  child.kill();
  return { perSec: (reads / ms) * 1000, cpuMicros: (cpuMs / reads) * 1000 };
}
