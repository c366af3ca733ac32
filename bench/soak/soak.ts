/**
 * Soak: many MCP clients for a fixed time against one `skillbench serve --http` process on
 * 127.0.0.1 (a real server process, real SDK v1 clients), each reading random files and checking
 * every read against the manifest's size and sha256 digest. Prints requests, errors, digest
 * mismatches and the server's RSS at the start, every 10 s and at the end. Nothing is asserted
 * (docs/conventions.md §10); the numbers go in bench/soak/README.md.
 * Usage: node bench/soak/run.mjs [--clients 50] [--seconds 60] [--cli PATH [--token-on-command-line]]
 * `--cli` runs another build's bundled CLI (e.g. an older commit, for a before/after table);
 * `--token-on-command-line` passes the token as `--token` for builds that predate SKILLBENCH_TOKEN.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { prose, skillText } from '../support';

const args = process.argv.slice(2);
function arg(name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
}
const CLIENTS = Number(arg('--clients', '50'));
const SECONDS = Number(arg('--seconds', '60'));
const WORK = process.env.BENCH_WORK ?? join(process.cwd(), 'bench', '.work', 'soak');
const CLI = arg('--cli', join(WORK, 'cli.mjs'));
const LIB = join(WORK, 'lib');
const SKILLS = 40;

const EntrySchema = z.looseObject({
  uri: z.string(),
  resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const ListSchema = z.looseObject({
  skills: z.array(EntrySchema),
  nextCursor: z.string().optional(),
});
type FileRef = { uri: string; digest: string; size: number };

/** 40 skills; every fourth has a 256 KiB reference, so reads range from 2 KiB to 256 KiB. */
async function generate(): Promise<void> {
  await rm(LIB, { recursive: true, force: true });
  for (let i = 0; i < SKILLS; i++) {
    const name = `soak-${String(i).padStart(2, '0')}`;
    const dir = join(LIB, name);
    await mkdir(join(dir, 'references'), { recursive: true });
    await mkdir(join(dir, 'assets'), { recursive: true });
    await writeFile(join(dir, 'SKILL.md'), skillText(name, i));
    await writeFile(join(dir, 'references', 'guide.md'), prose(4096, i));
    await writeFile(join(dir, 'assets', 'data.bin'), randomBytes(16 * 1024));
    if (i % 4 === 0) await writeFile(join(dir, 'references', 'big.md'), prose(256 * 1024, i + 99));
  }
}

function rssMiB(pid: number | undefined, key = 'VmRSS'): number {
  if (!pid) return NaN;
  const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function sha(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A tiny deterministic generator per client, so every run reads the same sequence of files. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const counts = { requests: 0, errors: 0, mismatches: 0, bytes: 0 };
const errorSamples: string[] = [];

async function runClient(url: string, token: string, seed: number, until: number): Promise<void> {
  const client = new Client({ name: `soak-${seed}`, version: '1' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const files: FileRef[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: 'skills/list', params: cursor ? { cursor } : {} },
        ListSchema,
      );
      for (const s of page.skills) files.push(...s.resources);
      cursor = page.nextCursor;
    } while (cursor);
    const next = lcg(seed);
    while (Date.now() < until) {
      const file = files[Math.floor(next() * files.length)];
      if (!file) break;
      try {
        const r = await client.readResource({ uri: file.uri });
        const c = r.contents[0] as { text?: string; blob?: string } | undefined;
        const bytes =
          typeof c?.text === 'string'
            ? Buffer.from(c.text, 'utf8')
            : Buffer.from(String(c?.blob ?? ''), 'base64');
        counts.requests++;
        counts.bytes += bytes.length;
        if (bytes.length !== file.size || sha(bytes) !== file.digest) counts.mismatches++;
      } catch (e) {
        counts.requests++;
        counts.errors++;
        if (errorSamples.length < 5) errorSamples.push(e instanceof Error ? e.message : String(e));
      }
    }
  } catch (e) {
    counts.errors++;
    if (errorSamples.length < 5) errorSamples.push(e instanceof Error ? e.message : String(e));
  } finally {
    await client.close().catch(() => undefined);
  }
}

function row(cells: (string | number)[]): string {
  return `| ${cells.map(String).join(' | ')} |`;
}

async function main(): Promise<void> {
  await generate();
  const token = randomBytes(24).toString('base64url');
  // Why `--token=`: one random token in 64 starts with "-", which a separate value cannot.
  const tokenArgs = args.includes('--token-on-command-line') ? [`--token=${token}`] : [];
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--no-watch', ...tokenArgs, LIB], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SKILLBENCH_TOKEN: token },
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (\S+)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
  });
  let died: string | undefined;
  child.once('exit', (code, signal) => (died = `exited (${code ?? signal})`));
  console.log(
    `soak: ${CLIENTS} clients × ${SECONDS} s against ${url} (${SKILLS} skills, reads of 2–256 KiB, every read checked)\n`,
  );
  console.log(
    row([
      't (s)',
      'requests',
      'req/s (last 10 s)',
      'errors',
      'digest mismatches',
      'server RSS (MiB)',
    ]),
  );
  console.log(row(['---', '---', '---', '---', '---', '---']));
  const start = Date.now();
  const rss0 = rssMiB(child.pid);
  console.log(row([0, 0, '', 0, 0, rss0.toFixed(0)]));
  const until = start + SECONDS * 1000;
  let last = 0;
  const rssSeries: number[] = [rss0];
  const timer = setInterval(() => {
    if (died) return;
    const t = Math.round((Date.now() - start) / 1000);
    const rss = rssMiB(child.pid);
    rssSeries.push(rss);
    console.log(
      row([
        t,
        counts.requests,
        ((counts.requests - last) / 10).toFixed(0),
        counts.errors,
        counts.mismatches,
        rss.toFixed(0),
      ]),
    );
    last = counts.requests;
  }, 10_000);
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(url, token, i + 1, until)));
  clearInterval(timer);
  const elapsed = (Date.now() - start) / 1000;
  const rssEnd = died ? NaN : rssMiB(child.pid);
  const peak = died ? NaN : rssMiB(child.pid, 'VmHWM');
  console.log(
    row([
      elapsed.toFixed(0),
      counts.requests,
      '',
      counts.errors,
      counts.mismatches,
      died ? died : rssEnd.toFixed(0),
    ]),
  );
  console.log(
    `\nrequests ${counts.requests} (${(counts.requests / elapsed).toFixed(0)}/s, ${(counts.bytes / 1048576).toFixed(0)} MiB read), errors ${counts.errors}, digest mismatches ${counts.mismatches}`,
  );
  console.log(
    `server RSS: start ${rss0.toFixed(0)} MiB, end ${Number.isNaN(rssEnd) ? died : `${rssEnd.toFixed(0)} MiB`}, peak ${Number.isNaN(peak) ? '?' : `${peak.toFixed(0)} MiB`}; samples ${rssSeries.map((r) => r.toFixed(0)).join(', ')}`,
  );
  if (errorSamples.length > 0) console.log(`first errors:\n  ${errorSamples.join('\n  ')}`);
  child.kill('SIGTERM');
  process.exitCode = died ? 1 : 0;
}

await main();
