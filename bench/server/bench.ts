/**
 * Benchmark: the embedded skills server against the official SDK v2 skills server, in one run,
 * driven by the same client (SDK v1 `Client`). Prints a table; never asserts (docs/conventions.md §10).
 * Usage: node bench/server/run.mjs [--skills 1000]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { boundedFetch } from '../../main/inspector/http-fetch';
import { readVerified } from '../support';

const ListSchema = z.looseObject({
  skills: z.array(
    z.looseObject({
      uri: z.string(),
      resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
    }),
  ),
  nextCursor: z.string().optional(),
});
type Entry = z.infer<typeof ListSchema>['skills'][number];

const args = process.argv.slice(2);
const SKILLS = Number(args[args.indexOf('--skills') + 1] ?? 1000) || 1000;
const WORK = process.env.BENCH_WORK ?? join(process.cwd(), 'bench', '.work', 'server');
const LIB = join(WORK, 'lib');
const IN_FLIGHT = 8;

async function generate(): Promise<void> {
  await rm(LIB, { recursive: true, force: true });
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    const dir = join(LIB, name);
    await mkdir(join(dir, 'references'), { recursive: true });
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await mkdir(join(dir, 'assets'), { recursive: true });
    await writeFile(
      join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Benchmark skill number ${i}. Use it when measuring the server.\nlicense: MIT\nmetadata:\n  group: g${i % 10}\n---\n# ${name}\n\n${'Some instructions. '.repeat(40)}\n`,
    );
    await writeFile(
      join(dir, 'references', 'guide.md'),
      `# Guide ${i}\n\n${'Reference text. '.repeat(120)}\n`,
    );
    await writeFile(
      join(dir, 'scripts', 'run.py'),
      `print("skill ${i}")\n${'# padding\n'.repeat(30)}`,
    );
    await writeFile(join(dir, 'assets', 'data.bin'), randomBytes(2048));
  }
}

function peakRssMb(pid: number | null | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function listAll(client: Client): Promise<{ skills: Entry[]; pages: number }> {
  const skills: Entry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await client.request(
      { method: 'skills/list', params: cursor ? { cursor } : {} },
      ListSchema,
    );
    skills.push(...r.skills);
    cursor = r.nextCursor;
    pages++;
  } while (cursor);
  return { skills, pages };
}

async function readAll(
  client: Client,
  skills: Entry[],
): Promise<{ files: number; bytes: number; failures: number }> {
  const queue = skills.flatMap((s) => s.resources);
  return { files: queue.length, ...(await readVerified(client, queue, IN_FLIGHT)) };
}

interface Row {
  server: string;
  startMs: number;
  listMs: number;
  pages: number;
  skills: number;
  readMs: number;
  files: number;
  filesPerSec: number;
  failures: number;
  rssMb?: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function measure(
  label: string,
  client: Client,
  connect: () => Promise<void>,
  t0: number,
  pid: () => number | null | undefined,
): Promise<Row> {
  await connect();
  const first = await client.request({ method: 'skills/list', params: {} }, ListSchema);
  const startMs = performance.now() - t0;
  void first;
  const times: number[] = [];
  let listing = await listAll(client);
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    listing = await listAll(client);
    times.push(performance.now() - t);
  }
  const tr = performance.now();
  const read = await readAll(client, listing.skills);
  const readMs = performance.now() - tr;
  const row: Row = {
    server: label,
    startMs,
    listMs: median(times),
    pages: listing.pages,
    skills: listing.skills.length,
    readMs,
    files: read.files,
    filesPerSec: read.files / (readMs / 1000),
    failures: read.failures,
    rssMb: peakRssMb(pid()),
  };
  await client.close();
  return row;
}

/** A user-data folder of its own for one start of ours: nothing kept from an earlier run. */
async function freshUserData(): Promise<string> {
  return mkdtemp(join(WORK, 'user-data-'));
}

async function stdioRow(
  label: string,
  command: string,
  argv: string[],
  env?: Record<string, string>,
): Promise<Row> {
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StdioClientTransport({
    command,
    args: argv,
    stderr: 'ignore',
    ...(env ? { env: { ...getDefaultEnvironment(), ...env } } : {}),
  });
  const t0 = performance.now();
  return measure(
    label,
    client,
    () => client.connect(transport),
    t0,
    () => transport.pid,
  );
}

async function httpRow(label: string, cli: string): Promise<Row> {
  const token = randomBytes(24).toString('base64url');
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--http', '--no-watch', LIB],
    // The token goes through the environment: a --token argument is visible to every local user.
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        SKILLBENCH_TOKEN: token,
        SKILLBENCH_USER_DATA: await freshUserData(),
      },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    // The inspector's own HTTP client, as bench/speed reads with it. Why not the global fetch: it
    // costs about three times the client's CPU per request, and it leaves an abort listener per
    // request on the transport's one signal until the request is collected, so a run printed
    // hundreds of MaxListenersExceededWarning lines.
    fetch: boundedFetch(64 * 1024 * 1024),
  });
  try {
    return await measure(
      label,
      client,
      () => client.connect(transport),
      t0,
      () => child.pid,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

function table(rows: Row[]): string {
  const head = [
    'server',
    'start→first list (ms)',
    `full listing (ms, ${'pages'})`,
    'read all files (ms)',
    'files/s',
    'digest failures',
    'peak RSS (MB)',
  ];
  const body = rows.map((r) => [
    r.server,
    r.startMs.toFixed(0),
    `${r.listMs.toFixed(1)} (${r.pages})`,
    r.readMs.toFixed(0),
    r.filesPerSec.toFixed(0),
    String(r.failures),
    r.rssMb?.toFixed(0) ?? 'n/a',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

// Ours as users run it: the app's own build (run.mjs builds it with scripts/build.mjs).
const cli = process.env.BENCH_CLI ?? join(process.cwd(), 'out', 'main', 'cli.js');
const peer = join(WORK, 'peer-server.mjs');
process.stdout.write(`Generating ${SKILLS} skills × 4 files in ${LIB} ...\n`);
await generate();
// The user-data folders of earlier runs (see freshUserData).
for (const name of await readdir(WORK))
  if (name.startsWith('user-data-')) await rm(join(WORK, name), { recursive: true, force: true });
const rows: Row[] = [];
// Alternate the order once to be fair to OS caches: peer first, then ours, then both again; keep the better of two.
const runs: Row[][] = [[], []];
for (let round = 0; round < 2; round++) {
  runs[0]?.push(await stdioRow('official SDK v2 (stdio)', process.execPath, [peer, LIB]));
  runs[1]?.push(
    await stdioRow(
      'skillbench (stdio)',
      process.execPath,
      [cli, 'serve', '--stdio', '--no-watch', LIB],
      // Why a fresh user-data folder: every start here is a first one (bench/speed times the kept case).
      { SKILLBENCH_USER_DATA: await freshUserData() },
    ),
  );
}
for (const r of runs) rows.push(r.reduce((a, b) => (b.startMs < a.startMs ? b : a)));
rows.push(await httpRow('skillbench (HTTP)', cli));
process.stdout.write(
  `\n${SKILLS} skills, ${rows[0]?.files ?? 0} files, ${IN_FLIGHT} reads in flight, Node ${process.version}\n\n${table(rows)}\n`,
);
const [peerRow, ours] = rows;
if (peerRow && ours) {
  process.stdout.write(
    `\nstart-up, every start a first one (nothing kept: each skill checked and reviewed; bench/speed times a restart): ${(peerRow.startMs / ours.startMs).toFixed(2)}× faster than the official server (goal ≥ 2×)\n` +
      `read throughput: ${(ours.filesPerSec / peerRow.filesPerSec).toFixed(2)}× the official server's (goal ≥ 2×)\n` +
      `full listing: ${ours.listMs.toFixed(1)} ms (goal < 50 ms)\n`,
  );
}
