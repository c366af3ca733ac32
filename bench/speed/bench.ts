/**
 * The four workloads of the speed issue, each beside its peer from the same run, timed in turns
 * (ours, peer, ours, peer …; the ratio is the median of the pairs' ratios, so load that drifts
 * over seconds hits both sides of a pair alike). Prints a table; never asserts
 * (docs/conventions.md §10). Bundled and started by bench/speed/run.mjs.
 *
 * 1. `serve --stdio`: process start → first `skills/list` answer, against the official SDK v2
 *    skills server (`loadSkills` + `attach`), both driven by the same raw JSON-RPC client.
 * 2. Reads with digest check, 8 in flight, over Streamable HTTP against ours over stdio (the
 *    same SDK v1 `Client` on both): a fresh server's first pass over every file, and its pass
 *    after --warm-passes more (2 by default), as two rows. In the same turns, the official SDK v2
 *    server read the same two ways, over its own Node HTTP transport (@modelcontextprotocol/node,
 *    installed and bundled by run.mjs) and over stdio: two rows of ours over HTTP against it over
 *    HTTP, and its own HTTP-to-stdio ratio beside ours, for what the HTTP goal asks.
 * 3. `skillbench validate LIB --format json` as a whole process against `skill-check check LIB
 *    --no-security-scan --format json` (skill-check 1.2.0, installed by run.mjs).
 * 4. `skillbench inspect --verify URL` against the official MCP Inspector CLI's `--verify`
 *    (Node 22 through npx, as main/testing/npx-tools.ts runs it), on our HTTP server.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { boundedFetch } from '../../main/inspector/http-fetch';
import { mapLimit } from '../../main/platform/concurrency';
import { median, readVerified } from '../support';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  const n = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
const SKILLS = arg('--skills', 1000);
const PAIRS = arg('--pairs', 5);
const READ_PAIRS = Math.min(PAIRS, 3);
const INSPECT = !args.includes('--no-inspect');
/** Passes over every file after a server's first, before its warm figure is taken. */
const WARM_PASSES = arg('--warm-passes', 2);
const WORK = process.env.BENCH_WORK ?? join(process.cwd(), 'bench', '.work', 'speed');
const ROOT = process.env.BENCH_REPO ?? process.cwd();
const CLI = join(ROOT, 'out', 'main', 'cli.js');
const BIN = join(ROOT, 'main', 'cli', 'skillbench.mjs');
const PEER_SERVER = join(WORK, 'peer-server.mjs');
/** The official server on the official Node HTTP transport (bundled by run.mjs when it could install it). */
const PEER_HTTP_SERVER = join(WORK, 'peer-http-server.mjs');
const SKILL_CHECK = join(
  ROOT,
  'bench',
  '.work',
  'peers',
  'node_modules',
  'skill-check',
  'bin',
  'skill-check.js',
);
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const LIB = join(WORK, `lib-${SKILLS}`);
const USER_DATA = join(WORK, 'user-data');
const IN_FLIGHT = 8;
/**
 * Another build of Skillbench to time against this one (`run.mjs --against COMMIT` builds the
 * commit into its own folder and names it here): start-up and a full validate only, in turns.
 */
const AGAINST = process.env.BENCH_AGAINST;
const AGAINST_LABEL = process.env.BENCH_AGAINST_LABEL ?? AGAINST ?? '';

/** The library: SKILLS skills × 4 files (SKILL.md, a guide, a script, 2 KiB of binary). Kept between runs. */
async function generate(): Promise<void> {
  const stamp = join(LIB, '.generated');
  if (existsSync(stamp)) return;
  await rm(LIB, { recursive: true, force: true });
  const names = Array.from({ length: SKILLS }, (_, i) => i);
  await mapLimit(names, 32, async (i) => {
    const name = `skill-${String(i).padStart(5, '0')}`;
    const dir = join(LIB, name);
    await mkdir(join(dir, 'references'), { recursive: true });
    await mkdir(join(dir, 'scripts'));
    await mkdir(join(dir, 'assets'));
    // Deterministic bytes for the binary file, so every run serves the same library.
    const bin = createHash('sha512').update(name).digest();
    await Promise.all([
      writeFile(
        join(dir, 'SKILL.md'),
        `---\nname: ${name}\ndescription: Benchmark skill number ${i}. Use it when measuring the server.\nlicense: MIT\nmetadata:\n  group: g${i % 10}\n---\n# ${name}\n\nRead [the guide](references/guide.md).\n\n${'Some instructions. '.repeat(40)}\n`,
      ),
      writeFile(
        join(dir, 'references', 'guide.md'),
        `# Guide ${i}\n\n${'Reference text. '.repeat(120)}\n`,
      ),
      writeFile(join(dir, 'scripts', 'run.py'), `print("skill ${i}")\n${'# padding\n'.repeat(30)}`),
      writeFile(join(dir, 'assets', 'data.bin'), Buffer.concat(Array(32).fill(bin) as Buffer[])),
    ]);
  });
  await writeFile(stamp, '');
}

/** A memory figure of a live process in MB (Linux /proc/<pid>/status), or undefined. */
function statusMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): number | undefined {
  if (!pid) return undefined;
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident memory of a live process in MB, or undefined. */
const peakRss = (pid: number | undefined): number | undefined => statusMb(pid, 'VmHWM');

/** Watch a child's peak RSS until it exits (the last reading before exit is kept). */
function watchRss(child: ChildProcess): () => number | undefined {
  let peak: number | undefined;
  const read = (): void => {
    const v = peakRss(child.pid);
    if (v !== undefined) peak = Math.max(peak ?? 0, v);
  };
  const timer = setInterval(read, 25);
  child.once('exit', () => clearInterval(timer));
  return () => {
    read();
    return peak;
  };
}

interface Timed {
  ms: number;
  rss?: number;
  code?: number | null;
  out?: string;
}

/**
 * Run a whole process to its end: wall time, exit code, stdout, peak RSS. Its stdout goes to a
 * file, as `> report.json` would send it: a pipe would let skill-check exit before most of its
 * report is out (65,536 of ~650 kB arrive), so it would be timed without writing it.
 */
let outFiles = 0;
function runProcess(cmd: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Timed> {
  const file = join(WORK, `out-${process.pid}-${outFiles++}.txt`);
  const fd = openSync(file, 'w');
  return new Promise<Timed>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, {
      stdio: ['ignore', fd, 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', ...env },
    });
    const rss = watchRss(child);
    child.stderr?.resume();
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - t0, code, rss: rss() }));
  }).then(
    (t) => {
      closeSync(fd);
      const out = readFileSync(file, 'utf8');
      rmSync(file, { force: true });
      return { ...t, out };
    },
    (e: unknown) => {
      closeSync(fd);
      rmSync(file, { force: true });
      throw e;
    },
  );
}

/**
 * Spawn a stdio server and time process start → the first `skills/list` answer, with a raw
 * JSON-RPC client (initialize, initialized, skills/list). Then stdin is closed and the process
 * waited for (a server that keeps its findings writes them on the way out).
 */
function firstList(argv: string[], userData = USER_DATA): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, SKILLBENCH_USER_DATA: userData },
    });
    const rss = watchRss(child);
    const send = (m: unknown): void => void child.stdin.write(`${JSON.stringify(m)}\n`);
    let buf = '';
    let ms = NaN;
    let peak: number | undefined;
    child.once('error', reject);
    child.once('exit', () => resolve({ ms, rss: peak }));
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const m = JSON.parse(buf.slice(0, i)) as { id?: number; error?: unknown };
        buf = buf.slice(i + 1);
        if (m.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'skills/list', params: {} });
        } else if (m.id === 2) {
          ms = performance.now() - t0;
          peak = rss();
          if (m.error) reject(new Error(`skills/list failed: ${JSON.stringify(m.error)}`));
          child.stdin.end();
          // Why a bound: a server that does not end with its input is stopped.
          setTimeout(() => child.kill('SIGTERM'), 3000).unref();
        }
      }
    });
  });
}

const ListSchema = z.looseObject({
  skills: z.array(
    z.looseObject({
      uri: z.string(),
      resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
    }),
  ),
  nextCursor: z.string().optional(),
});
type Resource = z.infer<typeof ListSchema>['skills'][number]['resources'][number];

/** List every skill, then read every file 8 at a time, checking each digest. */
async function readAll(client: Client): Promise<{ files: number; ms: number; failures: number }> {
  const resources: Resource[] = [];
  let cursor: string | undefined;
  do {
    const r = await client.request(
      { method: 'skills/list', params: cursor ? { cursor } : {} },
      ListSchema,
    );
    for (const s of r.skills) resources.push(...s.resources);
    cursor = r.nextCursor;
  } while (cursor);
  const t0 = performance.now();
  const { failures } = await readVerified(client, resources, IN_FLIGHT);
  return { files: resources.length, ms: performance.now() - t0, failures };
}

interface ReadRun {
  filesPerSec: number;
  failures: number;
  /** The server's peak resident memory so far, and its resident memory at the end of the pass (MB). */
  rss?: number;
  rssNow?: number;
  /** CPU per file read, in ms: this (client) process and the server process. */
  clientCpu: number;
  serverCpu: number;
}

/** One server's reads: its first pass, and its last after WARM_PASSES more. */
interface ReadPasses {
  first: ReadRun;
  warm: ReadRun;
  /** Digest or size mismatches over every pass, the ones between included. */
  failures: number;
  /**
   * The server's resident memory (MB) before the first pass (connected, nothing listed yet), at
   * the end of each pass, and its peak: whether reading is streaming work (what a pass leaves
   * behind is collected) or grows.
   */
  memory: { before?: number; after: (number | undefined)[]; peak?: number };
}

/**
 * Where a live process's CPU time stood (Linux /proc): each thread's in nanoseconds
 * (`task/<tid>/schedstat`) and the whole process's in clock ticks (`stat`: utime + stime, which
 * keeps the time of threads that have ended). Undefined when the process cannot be read.
 */
interface CpuMark {
  ticksMs: number;
  threadsNs: Map<string, number>;
}

function cpuMark(pid: number | undefined): CpuMark | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    const ticksMs = (Number(fields[11]) + Number(fields[12])) * 10;
    const threadsNs = new Map<string, number>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        threadsNs.set(tid, ns);
      } catch {
        // The thread ended between the listing and the read: the ticks below count it.
        threadsNs.set(tid, NaN);
      }
    }
    return { ticksMs, threadsNs };
  } catch {
    return undefined;
  }
}

/**
 * The CPU time (ms) a process spent since `mark`. Why two clocks: ticks are 10 ms apart, a tenth
 * of what a pass of 4,000 reads costs a warm server, while the threads' own clocks count
 * nanoseconds but lose a thread that ends. The threads' sum is used when the same threads ran
 * from mark to end, the ticks otherwise.
 */
function cpuSince(pid: number | undefined, mark: CpuMark | undefined): number {
  const now = cpuMark(pid);
  if (!mark || !now) return NaN;
  const same =
    now.threadsNs.size === mark.threadsNs.size &&
    [...now.threadsNs.keys()].every((tid) => mark.threadsNs.has(tid));
  if (!same) return now.ticksMs - mark.ticksMs;
  let ns = 0;
  for (const [tid, end] of now.threadsNs) ns += end - (mark.threadsNs.get(tid) ?? NaN);
  return Number.isFinite(ns) ? ns / 1e6 : now.ticksMs - mark.ticksMs;
}

/** Read everything through `client`, with both sides' CPU per file. */
async function measuredReads(client: Client, pid: number | undefined): Promise<ReadRun> {
  const c0 = process.cpuUsage();
  const s0 = cpuMark(pid);
  const r = await readAll(client);
  const c = process.cpuUsage(c0);
  return {
    filesPerSec: (r.files / r.ms) * 1000,
    failures: r.failures,
    rss: peakRss(pid),
    rssNow: statusMb(pid, 'VmRSS'),
    clientCpu: (c.user + c.system) / 1000 / r.files,
    serverCpu: cpuSince(pid, s0) / r.files,
  };
}

/**
 * The reads of one server: its first pass over every file (a fresh process: Node's HTTP stack,
 * the SDK and our code still run unoptimized), then WARM_PASSES more; the last is the warm figure.
 */
async function passes(client: Client, pid: number | undefined): Promise<ReadPasses> {
  const before = statusMb(pid, 'VmRSS');
  const first = await measuredReads(client, pid);
  let last = first;
  let failures = first.failures;
  const after = [first.rssNow];
  for (let i = 0; i < WARM_PASSES; i++) {
    last = await measuredReads(client, pid);
    failures += last.failures;
    after.push(last.rssNow);
  }
  return { first, warm: last, failures, memory: { before, after, peak: last.rss } };
}

/** The reads over stdio from ours, or from the official server (`peer`). */
async function readsOverStdio(peer = false): Promise<ReadPasses> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: peer ? [PEER_SERVER, LIB] : [CLI, 'serve', '--stdio', '--no-watch', LIB],
    env: { ...(process.env as Record<string, string>), SKILLBENCH_USER_DATA: USER_DATA },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const run = await passes(client, transport.pid ?? undefined);
  await client.close();
  return run;
}

/**
 * Start `serve --http` (with `token`), or the official server on its HTTP transport (no token: it
 * has no sign-in), and wait for its "listening on" line.
 */
async function startHttp(token: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  const argv =
    token === undefined ? [PEER_HTTP_SERVER, LIB] : [CLI, 'serve', '--http', '--no-watch', LIB];
  const child = spawn(process.execPath, argv, {
    stdio: ['ignore', 'ignore', 'pipe'],
    // The token goes through the environment: a --token argument is visible to every local user.
    env: {
      ...process.env,
      SKILLBENCH_USER_DATA: USER_DATA,
      ...(token === undefined ? {} : { SKILLBENCH_TOKEN: token }),
    },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (\S+)/.exec(err);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  return { url, child };
}

/** The reads over HTTP from ours, or from the official server on its HTTP transport (`peer`). */
async function readsOverHttp(peer = false): Promise<ReadPasses> {
  const token = peer ? undefined : randomBytes(24).toString('base64url');
  const { url, child } = await startHttp(token);
  try {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      ...(token === undefined
        ? {}
        : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      // The inspector's own HTTP client (undici's request, bodies bounded, one abort link per
      // request): what Skillbench itself reads a server with.
      fetch: boundedFetch(64 * 1024 * 1024),
    });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport);
    const run = await passes(client, child.pid);
    await client.close();
    return run;
  } finally {
    child.kill('SIGTERM');
  }
}

/** One table row. */
interface Row {
  workload: string;
  ours: string;
  peer: string;
  ratio: string;
  goal: string;
  status: string;
  rss: string;
}

const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
const mb = (n: number | undefined): string => (n === undefined ? 'n/a' : `${fmt(n)} MB`);
const ratioText = (rs: number[]): string =>
  `${fmt(median(rs), 2)}× [pairs ${fmt(Math.min(...rs), 2)}–${fmt(Math.max(...rs), 2)}]`;

async function startRow(rows: Row[], extra: string[]): Promise<void> {
  // The first start ever (no findings kept): for reference, not in the pairs.
  await rm(USER_DATA, { recursive: true, force: true });
  const fresh = await firstList([CLI, 'serve', '--stdio', '--no-watch', LIB]);
  const ours: Timed[] = [];
  const peer: Timed[] = [];
  const watching: Timed[] = [];
  for (let i = 0; i < PAIRS; i++) {
    ours.push(await firstList([CLI, 'serve', '--stdio', '--no-watch', LIB]));
    peer.push(await firstList([PEER_SERVER, LIB]));
    // As MCP clients start it: watching the library for changes (the default).
    watching.push(await firstList([CLI, 'serve', '--stdio', LIB]));
  }
  const ratios = ours.map((o, i) => (peer[i]?.ms ?? NaN) / o.ms);
  const oursMs = median(ours.map((o) => o.ms));
  const met = median(ratios) >= 2 && oursMs < 500;
  rows.push({
    workload: '`serve --stdio`: process start → first `skills/list` answer',
    ours: `${fmt(oursMs)} ms`,
    peer: `${fmt(median(peer.map((p) => p.ms)))} ms (official SDK v2 server)`,
    ratio: ratioText(ratios),
    goal: '≥ 2× the peer, and < 500 ms',
    status: met ? 'met' : 'missed',
    rss: `${mb(median(ours.map((o) => o.rss ?? NaN)))} / ${mb(median(peer.map((p) => p.rss ?? NaN)))}`,
  });
  extra.push(
    `first start ever (nothing kept from an earlier run): ${fmt(fresh.ms)} ms; the pairs reuse the checks kept by the run before (every file still read and digested)`,
    `start → first \`skills/list\` with the library watched for changes (the default, as MCP clients start it; the row above is \`--no-watch\`, as the peer watches nothing), same turns: ${fmt(median(watching.map((w) => w.ms)))} ms`,
  );
}

/** One pass of a transport's floor: requests per second and CPU per request (ms) on each side. */
interface FloorPass {
  perSec: number;
  server: number;
  client: number;
}

/** The fixed answer both floors send: a `resources/read` result about the size of a library file's. */
const FLOOR_ANSWER = `JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'skill://a/b.md', mimeType: 'text/markdown', text: 'x'.repeat(1500) }] } })`;

/** The request both floors are sent. */
const floorRequest = (id: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri: 'skill://a/b.md' },
  });

/**
 * Time a floor server (its own process, `child`) the way the rows time ours: one request (as each
 * row's client lists the skills before its first pass), a first pass of `requests`, then
 * WARM_PASSES more, IN_FLIGHT at a time; `one` sends one request and reads its answer.
 */
async function floorPasses(
  child: ChildProcess,
  requests: number,
  one: (id: number) => Promise<void>,
): Promise<{ first: FloorPass; warm: FloorPass }> {
  const pass = async (): Promise<FloorPass> => {
    const s0 = cpuMark(child.pid);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < requests) await one(next++);
      }),
    );
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return {
      perSec: (requests / ms) * 1000,
      server: cpuSince(child.pid, s0) / requests,
      client: (c.user + c.system) / 1000 / requests,
    };
  };
  await one(0);
  const first = await pass();
  let warm = first;
  for (let i = 0; i < WARM_PASSES; i++) warm = await pass();
  return { first, warm };
}

/**
 * The floor of an HTTP request on this machine, for the HTTP rows' goal: a bare `node:http`
 * server (its own process) answering every POST with a fixed ~1.6 KB JSON-RPC result, driven by
 * undici on one keep-alive pool, IN_FLIGHT at a time. It parses each body and writes the answer,
 * nothing more: no MCP, no catalog, no checks. Timed the way the rows time our servers: a fresh
 * server's first pass of as many requests as files are read, then its pass after WARM_PASSES more.
 * Why both: a fresh HTTP stack costs several times per request what a warm one does (on both
 * sides), so a floor timed at one warmth says nothing of a row timed at another.
 */
async function httpFloor(requests: number): Promise<{ first: FloorPass; warm: FloorPass }> {
  const server = `
    const body = ${FLOOR_ANSWER};
    require('node:http').createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    }).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });`;
  const child = spawn(process.execPath, ['-e', server], { stdio: ['ignore', 'pipe', 'ignore'] });
  const agent = new Agent({ connections: IN_FLIGHT });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
    });
    return await floorPasses(child, requests, async (id) => {
      const r = await request(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: floorRequest(id),
      });
      await r.body.json();
    });
  } finally {
    await agent.close();
    child.kill();
  }
}

/**
 * The floor of a stdio request, the same way: a bare process that parses each line it reads and
 * answers it with the same fixed result, the answers of one read in one write (as our server
 * writes the answers of one tick), and a client that writes each request as a line and parses
 * each answer line. Why: our rows' CPU per read over stdio includes what the pipe costs each side,
 * which a read over HTTP does not pay; this is that part, to take out of the HTTP bound below.
 */
async function stdioFloor(requests: number): Promise<{ first: FloorPass; warm: FloorPass }> {
  const server = `
    const body = ${FLOOR_ANSWER} + '\\n';
    let held = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d) => {
      held += d;
      let out = '';
      for (let i = held.indexOf('\\n'); i >= 0; i = held.indexOf('\\n')) {
        JSON.parse(held.slice(0, i));
        held = held.slice(i + 1);
        out += body;
      }
      if (out) process.stdout.write(out);
    });`;
  const child = spawn(process.execPath, ['-e', server], { stdio: ['pipe', 'pipe', 'ignore'] });
  // Answers come in the order asked, so the oldest waiting request takes the next answer.
  const waiting: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let ended: Error | undefined;
  let held = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => {
    held += d;
    for (let i = held.indexOf('\n'); i >= 0; i = held.indexOf('\n')) {
      JSON.parse(held.slice(0, i));
      held = held.slice(i + 1);
      waiting.shift()?.resolve();
    }
  });
  // Why: a floor process that ends (or cannot start) would otherwise leave the bench waiting.
  const end = (e: Error): void => {
    ended = e;
    for (const w of waiting.splice(0)) w.reject(e);
  };
  child.once('exit', (code) => end(new Error(`the stdio floor exited with ${code}`)));
  child.once('error', end);
  // A write after the process ended fails too; the exit above already says why.
  child.stdin?.on('error', () => undefined);
  try {
    return await floorPasses(
      child,
      requests,
      (id) =>
        new Promise<void>((resolve, reject) => {
          if (ended) return reject(ended);
          waiting.push({ resolve, reject });
          child.stdin?.write(`${floorRequest(id)}\n`);
        }),
    );
  } finally {
    child.kill();
  }
}

async function readRow(rows: Row[], extra: string[]): Promise<void> {
  const stdioPasses: ReadPasses[] = [];
  const httpPasses: ReadPasses[] = [];
  // The official server read the same ways in the same turns: what its own HTTP transport reaches.
  const withPeer = existsSync(PEER_HTTP_SERVER);
  const peerHttp: ReadPasses[] = [];
  const peerStdio: ReadPasses[] = [];
  for (let i = 0; i < READ_PAIRS; i++) {
    httpPasses.push(await readsOverHttp());
    stdioPasses.push(await readsOverStdio());
    if (!withPeer) continue;
    peerHttp.push(await readsOverHttp(true));
    peerStdio.push(await readsOverStdio(true));
  }
  const failures = [...httpPasses, ...stdioPasses, ...peerHttp, ...peerStdio].reduce(
    (n, r) => n + r.failures,
    0,
  );
  const cpu = (runs: ReadRun[], side: 'clientCpu' | 'serverCpu'): string =>
    fmt(median(runs.map((r) => r[side])), 3);
  for (const pass of ['first', 'warm'] as const) {
    const http = httpPasses.map((p) => p[pass]);
    const stdio = stdioPasses.map((p) => p[pass]);
    const ratios = http.map((h, i) => h.filesPerSec / (stdio[i]?.filesPerSec ?? NaN));
    rows.push({
      workload:
        pass === 'first'
          ? `reads with digest check, ${IN_FLIGHT} in flight, over HTTP: a fresh server's first pass over every file`
          : `the same reads, warm: the server's pass after ${WARM_PASSES} more over every file`,
      ours: `${fmt(median(http.map((h) => h.filesPerSec)))} files/s`,
      peer: `${fmt(median(stdio.map((s) => s.filesPerSec)))} files/s (ours over stdio, same pass)`,
      ratio: ratioText(ratios),
      goal: 'HTTP ≥ 0.8× stdio',
      status: median(ratios) >= 0.8 && failures === 0 ? 'met' : 'missed',
      rss: `${mb(median(http.map((h) => h.rss ?? NaN)))} / ${mb(median(stdio.map((s) => s.rss ?? NaN)))}`,
    });
    extra.push(
      `CPU per file read (ms), client / server, ${pass === 'first' ? 'first pass' : 'warm'}: HTTP ${cpu(http, 'clientCpu')} / ${cpu(http, 'serverCpu')}, stdio ${cpu(stdio, 'clientCpu')} / ${cpu(stdio, 'serverCpu')}`,
    );
  }
  for (const pass of withPeer ? (['first', 'warm'] as const) : []) {
    const ours = httpPasses.map((p) => p[pass]);
    const theirs = peerHttp.map((p) => p[pass]);
    const theirsStdio = peerStdio.map((p) => p[pass]);
    const ratios = ours.map((o, i) => o.filesPerSec / (theirs[i]?.filesPerSec ?? NaN));
    rows.push({
      workload:
        pass === 'first'
          ? "the same reads over HTTP, ours against the official server's HTTP transport: first pass"
          : "the same reads over HTTP, ours against the official server's HTTP transport: warm",
      ours: `${fmt(median(ours.map((h) => h.filesPerSec)))} files/s`,
      peer: `${fmt(median(theirs.map((h) => h.filesPerSec)))} files/s (official SDK v2 server, @modelcontextprotocol/node 2.1.2)`,
      ratio: ratioText(ratios),
      goal: '(none: for reference)',
      status: 'reported',
      rss: `${mb(median(ours.map((h) => h.rss ?? NaN)))} / ${mb(median(theirs.map((h) => h.rss ?? NaN)))}`,
    });
    const own = theirs.map((h, i) => h.filesPerSec / (theirsStdio[i]?.filesPerSec ?? NaN));
    extra.push(
      `the official server's own HTTP against its own stdio, same client, ${pass === 'first' ? 'first pass' : 'warm'}: ${fmt(median(theirs.map((h) => h.filesPerSec)))} vs ${fmt(median(theirsStdio.map((h) => h.filesPerSec)))} files/s = ${ratioText(own)} (ours: see the HTTP rows); CPU per file read (ms), client / server: HTTP ${cpu(theirs, 'clientCpu')} / ${cpu(theirs, 'serverCpu')}, stdio ${cpu(theirsStdio, 'clientCpu')} / ${cpu(theirsStdio, 'serverCpu')}`,
    );
  }
  if (!withPeer)
    extra.push(
      'the official HTTP server is not bundled (run bench/speed/run.mjs): its reads are not timed',
    );
  extra.push(
    `digest failures over both transports${withPeer ? ' and both servers' : ''}, every pass: ${failures}`,
  );
  // The first server of each transport: its memory from the listing through every pass.
  const trail = (p: ReadPasses | undefined): string =>
    p
      ? `${fmt(p.memory.before ?? NaN)} → ${p.memory.after.map((m) => fmt(m ?? NaN)).join(', ')} (peak ${fmt(p.memory.peak ?? NaN)})`
      : 'n/a';
  extra.push(
    `server RSS in MB before the first pass → at the end of each of the ${WARM_PASSES + 1} passes (one server each): HTTP ${trail(httpPasses[0])}; stdio ${trail(stdioPasses[0])}`,
  );
  const floor = { http: await httpFloor(SKILLS * 4), stdio: await stdioFloor(SKILLS * 4) };
  for (const pass of ['first', 'warm'] as const) {
    const f = floor.http[pass];
    const p = floor.stdio[pass];
    const stdio = median(stdioPasses.map((r) => r[pass].filesPerSec));
    const when =
      pass === 'first' ? "a fresh server's first pass" : `its pass after ${WARM_PASSES} more`;
    extra.push(
      `HTTP floor on this machine, ${when} (a bare node:http server answering a fixed 1.6 KB body, undici keep-alive, ${IN_FLIGHT} in flight, same run): ${fmt(f.perSec)} requests/s = ${fmt(f.perSec / stdio, 2)}× ours over stdio, same pass; CPU per request client / server ${fmt(f.client, 3)} / ${fmt(f.server, 3)} ms`,
      `stdio floor, ${when} (a bare process answering each line with the same body, same run): ${fmt(p.perSec)} requests/s; CPU per request client / server ${fmt(p.client, 3)} / ${fmt(p.server, 3)} ms`,
    );
    // Why this bound: over HTTP each side does what it does per read over stdio, less what the
    // pipe costs it (the stdio floor), plus at least what a bare HTTP request costs it (the HTTP
    // floor). Client and server are one process each, so the side that needs more CPU per read
    // sets the pace, however well the other runs on the second core.
    const side = (key: 'clientCpu' | 'serverCpu', fk: 'client' | 'server'): number => {
      const ours = median(stdioPasses.map((r) => r[pass][key]));
      return Math.max(0, ours - p[fk]) + f[fk];
    };
    const client = side('clientCpu', 'client');
    const server = side('serverCpu', 'server');
    const bound = 1000 / Math.max(client, server);
    extra.push(
      `most our client and server can reach over HTTP, ${pass === 'first' ? 'first pass' : 'warm'} (per read, each side's CPU over stdio less the stdio floor's, plus the HTTP floor's: client ${fmt(client, 3)} ms, server ${fmt(server, 3)} ms; the busier side sets the pace): ${fmt(bound)} files/s = ${fmt(bound / stdio, 2)}× ours over stdio`,
    );
  }
}

async function validateRow(rows: Row[], extra: string[]): Promise<void> {
  if (!existsSync(SKILL_CHECK)) {
    extra.push('skill-check is not installed (run bench/speed/run.mjs): validation row skipped');
    return;
  }
  // Ours twice per turn: a full check (--no-cache) and a run that finds the findings the run
  // before kept (nothing in the library changed since, so no skill is checked again).
  const ours = (...extra: string[]): Promise<Timed> =>
    runProcess(process.execPath, [BIN, 'validate', LIB, '--format', 'json', ...extra], {
      SKILLBENCH_USER_DATA: USER_DATA,
    });
  const peer = (): Promise<Timed> =>
    runProcess(process.execPath, [
      SKILL_CHECK,
      'check',
      LIB,
      '--no-security-scan',
      '--format',
      'json',
    ]);
  // One warm-up each (the page cache, npm's first run, the kept findings), then the turns.
  const first = await ours();
  const peerFirst = await peer();
  const full: Timed[] = [];
  const kept: Timed[] = [];
  const b: Timed[] = [];
  // What every Node process pays here before and after its own work (`node -e 0`), in the same
  // turns; and, when the environment names extra CA certificates, without them: Node 20 reads
  // them and its own root certificates as it starts, before any of a program's code runs.
  const nodeAlone: Timed[] = [];
  const nodeBare: Timed[] = [];
  const extraCerts = process.env.NODE_EXTRA_CA_CERTS !== undefined;
  for (let i = 0; i < PAIRS; i++) {
    full.push(await ours('--no-cache'));
    b.push(await peer());
    kept.push(await ours());
    nodeAlone.push(await runProcess(process.execPath, ['-e', '0']));
    if (extraCerts)
      nodeBare.push(
        await runProcess(process.execPath, ['-e', '0'], { NODE_EXTRA_CA_CERTS: undefined }),
      );
  }
  const ratiosOf = (a: Timed[]): number[] => a.map((o, i) => (b[i]?.ms ?? NaN) / o.ms);
  const skillsSeen = (out: string | undefined): string => {
    try {
      const doc = JSON.parse(out ?? '') as {
        summary?: { skillCount?: number; skills?: number };
        skills?: unknown[];
      };
      return String(doc.summary?.skillCount ?? doc.skills?.length ?? doc.summary?.skills ?? '?');
    } catch {
      return '?';
    }
  };
  const row = (workload: string, a: Timed[]): Row => ({
    workload,
    ours: `${fmt(median(a.map((x) => x.ms)))} ms`,
    peer: `${fmt(median(b.map((x) => x.ms)))} ms (skill-check 1.2.0)`,
    ratio: ratioText(ratiosOf(a)),
    goal: '≥ 2× skill-check',
    status: median(ratiosOf(a)) >= 2 ? 'met' : 'missed',
    rss: `${mb(median(a.map((x) => x.rss ?? NaN)))} / ${mb(median(b.map((x) => x.rss ?? NaN)))}`,
  });
  rows.push(
    row(
      '`skillbench validate LIB --format json --no-cache`, whole process, every skill checked',
      full,
    ),
    row(
      '`skillbench validate LIB --format json`, whole process, findings kept by the run before',
      kept,
    ),
  );
  const alone = median(nodeAlone.map((x) => x.ms));
  const fullMs = median(full.map((x) => x.ms));
  const peerMs = median(b.map((x) => x.ms));
  extra.push(
    `Node alone (\`node -e 0\`, same turns): ${fmt(alone)} ms${
      extraCerts
        ? `, ${fmt(median(nodeBare.map((x) => x.ms)))} ms without NODE_EXTRA_CA_CERTS (set here: Node 20 loads the certificates as every process starts)`
        : ''
    }; validate with that taken off both, full check: ours ${fmt(fullMs - alone)} ms, skill-check ${fmt(peerMs - alone)} ms = ${fmt((peerMs - alone) / (fullMs - alone), 2)}×`,
  );
  const same = full.every((f) => f.out === first.out) && kept.every((k) => k.out === first.out);
  extra.push(
    `validate reports: ${same ? 'the same' : 'NOT the same'} with --no-cache and with kept findings`,
  );
  extra.push(
    `validate exit codes: ours ${first.code} (${skillsSeen(first.out)} skills), skill-check ${peerFirst.code} (${skillsSeen(peerFirst.out)} skills)`,
  );
}

async function inspectRow(rows: Row[], extra: string[]): Promise<void> {
  const token = randomBytes(24).toString('base64url');
  const { url, child } = await startHttp(token);
  try {
    const ours = (): Promise<Timed> =>
      runProcess(process.execPath, [BIN, 'inspect', '--verify', '--token', token, url]);
    const cmd = `mcp-inspector --cli ${url} --transport http --header 'Authorization: Bearer ${token}' --method skills/list --verify --format json --skill-catalog-max-skills ${SKILLS} --skill-catalog-max-bytes ${512 * 1024 * 1024}`;
    const peer = (): Promise<Timed> =>
      runProcess('npx', ['-y', '-p', 'node@22', '-p', INSPECTOR, '-c', cmd]);
    const first = await ours();
    const peerFirst = await peer();
    const a: Timed[] = [];
    const b: Timed[] = [];
    for (let i = 0; i < READ_PAIRS; i++) {
      a.push(await ours());
      b.push(await peer());
    }
    const ratios = a.map((o, i) => (b[i]?.ms ?? NaN) / o.ms);
    const verified = /Summary: (\d+) verified/.exec(first.out ?? '')?.[1] ?? '?';
    const peerVerified = (peerFirst.out ?? '')
      .split('\n')
      .filter((l) => l.startsWith('{') && l.includes('"outcome":"verified"')).length;
    rows.push({
      workload: '`inspect --verify` of the whole server',
      ours: `${fmt(median(a.map((x) => x.ms)))} ms`,
      peer: `${fmt(median(b.map((x) => x.ms)))} ms (official MCP Inspector CLI, Node 22 via npx)`,
      ratio: ratioText(ratios),
      goal: '≥ 1.5× faster',
      status: median(ratios) >= 1.5 ? 'met' : 'missed',
      rss: `${mb(median(a.map((x) => x.rss ?? NaN)))} / n/a`,
    });
    extra.push(
      `inspect: ours exit ${first.code}, ${verified} skills verified; official exit ${peerFirst.code}, ${peerVerified} verified`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  await mkdir(WORK, { recursive: true });
  process.stdout.write(`Library: ${SKILLS} skills × 4 files in ${LIB} …\n`);
  await generate();
  const rows: Row[] = [];
  const extra: string[] = [];
  await startRow(rows, extra);
  await readRow(rows, extra);
  await validateRow(rows, extra);
  if (INSPECT) await inspectRow(rows, extra);
  const head: Row = {
    workload: 'workload',
    ours: 'Skillbench',
    peer: 'peer, same run',
    ratio: 'ours vs peer (median of pairs)',
    goal: 'goal',
    status: 'status',
    rss: 'peak RSS ours / peer',
  };
  const keys = Object.keys(head) as (keyof Row)[];
  const all = [head, ...rows];
  const widths = keys.map((k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: Row): string =>
    `| ${keys.map((k, i) => r[k].padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const date = new Date().toISOString().slice(0, 10);
  process.stdout.write(
    `\n${date}, Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}, ${SKILLS} skills (${SKILLS * 4} files), ${PAIRS} pairs in turns (reads and inspect: ${READ_PAIRS})\n\n`,
  );
  process.stdout.write(
    `${[line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')}\n\n`,
  );
  for (const e of extra) process.stdout.write(`- ${e}\n`);
  await writeFile(
    join(WORK, `summary-${SKILLS}.json`),
    JSON.stringify({ date, skills: SKILLS, node: process.version, rows, extra }, null, 2),
  );
}

/**
 * This build against another (`--against COMMIT`): warm starts (`serve --stdio` start → first
 * `skills/list`, each build with its own user-data folder so neither discards the other's kept
 * checks) and `validate --no-cache`, one warm-up each, then in turns (this, that, this, that …).
 * Tells a slower hour from a slower change: both builds meet the same hour.
 */
async function compareBuilds(other: string): Promise<void> {
  const builds = [
    { label: 'this tree', root: ROOT },
    { label: AGAINST_LABEL, root: other },
  ].map((b) => ({
    ...b,
    cli: join(b.root, 'out', 'main', 'cli.js'),
    bin: join(b.root, 'main', 'cli', 'skillbench.mjs'),
    userData: join(WORK, `user-data-${b.root === ROOT ? 'this' : 'against'}`),
    start: [] as number[],
    validate: [] as number[],
    catalogFresh: [] as number[],
    catalogKept: [] as number[],
  }));
  const start = (b: (typeof builds)[number]): Promise<Timed> =>
    firstList([b.cli, 'serve', '--stdio', '--no-watch', LIB], b.userData);
  const validate = (b: (typeof builds)[number]): Promise<Timed> =>
    runProcess(process.execPath, [b.bin, 'validate', LIB, '--format', 'json', '--no-cache'], {
      SKILLBENCH_USER_DATA: b.userData,
    });
  /**
   * `catalog`: with nothing kept (a user-data folder of its own, emptied before every run) and
   * with what this build's run before kept (a build that keeps nothing times the same twice).
   */
  const catalog = (b: (typeof builds)[number], kept: boolean): Promise<Timed> => {
    const userData = kept ? b.userData : `${b.userData}-catalog-fresh`;
    if (!kept) rmSync(userData, { recursive: true, force: true });
    return runProcess(process.execPath, [b.bin, 'catalog', LIB, '--format', 'json'], {
      SKILLBENCH_USER_DATA: userData,
    });
  };
  const reports: (string | undefined)[] = [];
  const catalogs: (string | undefined)[] = [];
  for (const b of builds) {
    await start(b);
    reports.push((await validate(b)).out);
    catalogs.push((await catalog(b, true)).out);
    await catalog(b, true);
  }
  for (let i = 0; i < PAIRS; i++)
    for (const b of builds) {
      b.start.push((await start(b)).ms);
      b.validate.push((await validate(b)).ms);
      b.catalogFresh.push((await catalog(b, false)).ms);
      b.catalogKept.push((await catalog(b, true)).ms);
    }
  const [mine, theirs] = builds;
  if (!mine || !theirs) return;
  const ratio = (a: number[], b: number[]): string => ratioText(a.map((x, i) => (b[i] ?? NaN) / x));
  const range = (xs: number[]): string =>
    `${fmt(median(xs))} ms [${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}]`;
  process.stdout.write(
    `\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${SKILLS} skills, ${PAIRS} turns\n\n` +
      `| workload | this tree | ${theirs.label} | ${theirs.label} ÷ this tree (median of turns) |\n|---|---|---|---|\n` +
      `| \`serve --stdio\` start → first \`skills/list\` (checks kept) | ${range(mine.start)} | ${range(theirs.start)} | ${ratio(mine.start, theirs.start)} |\n` +
      `| \`validate LIB --format json --no-cache\` | ${range(mine.validate)} | ${range(theirs.validate)} | ${ratio(mine.validate, theirs.validate)} |\n` +
      `| \`catalog LIB --format json\`, nothing kept | ${range(mine.catalogFresh)} | ${range(theirs.catalogFresh)} | ${ratio(mine.catalogFresh, theirs.catalogFresh)} |\n` +
      `| \`catalog LIB --format json\`, what the run before kept | ${range(mine.catalogKept)} | ${range(theirs.catalogKept)} | ${ratio(mine.catalogKept, theirs.catalogKept)} |\n\n` +
      `- validate reports: ${reports[0] === reports[1] ? 'the same' : 'not the same'} from both builds\n` +
      `- catalogs: ${catalogs[0] === catalogs[1] ? 'the same' : 'not the same'} from both builds\n`,
  );
}

if (AGAINST !== undefined) {
  await mkdir(WORK, { recursive: true });
  await generate();
  await compareBuilds(AGAINST);
} else await main();
