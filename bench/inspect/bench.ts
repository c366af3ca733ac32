// The inspector benchmark: a 1,000-skill server on loopback (ours, started
// here as a separate process), full discovery plus verified read of every file — ours (library
// and CLI) vs the official MCP Inspector CLI (`--method skills/list --verify`) against the same
// server in the same run. Prints a table; never asserts. Bundled and started by run.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { discoverSkills } from '../../main/inspector/discovery';
import { InspectorSession } from '../../main/inspector/session';
import { verifySkill } from '../../main/inspector/skill-reader';
import type { SkillVerification } from '../../main/inspector/types';
import { median, prose, skillText } from '../support';

const SKILLS = Number(process.env.BENCH_SKILLS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLI = process.env.BENCH_CLI ?? '';
const PEER = process.env.BENCH_NO_PEER !== '1';
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

async function makeLibrary(root: string): Promise<number> {
  let files = 0;
  for (let i = 0; i < SKILLS; i++) {
    const name = `bench-skill-${String(i).padStart(4, '0')}`;
    const dir = join(root, name);
    await mkdir(join(dir, 'references'), { recursive: true });
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await mkdir(join(dir, 'assets'), { recursive: true });
    const md = skillText(name, i, 1920);
    await writeFile(join(dir, 'SKILL.md'), md);
    await writeFile(join(dir, 'references', 'guide.md'), `# Guide\n\n${prose(900, i + 7)}\n`);
    await writeFile(join(dir, 'scripts', 'run.py'), `print("${name}")\n${'# pad\n'.repeat(40)}`);
    await writeFile(join(dir, 'assets', 'template.txt'), prose(200, i + 13));
    files += 4;
  }
  return files;
}

async function startServer(lib: string, token: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--http', '--no-watch', lib],
    // The token goes through the environment: a --token argument is visible to every local user.
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, SKILLBENCH_TOKEN: token } },
  );
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 120_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1] ?? '');
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  let stopping = false;
  child.on('exit', (code, signal) => {
    if (!stopping)
      console.error(`The server stopped early (${code ?? signal}): ${err.slice(-2000)}`);
  });
  return {
    url,
    stop: () => {
      stopping = true;
      child.kill('SIGTERM');
    },
  };
}

interface Measure {
  ms: number;
  skillsVerified: number;
  filesVerified: number;
  failed: string[];
  note?: string;
}

async function oursLibrary(url: string, token: string): Promise<Measure> {
  const t0 = performance.now();
  const session = await InspectorSession.open({
    label: 'bench',
    kind: 'http',
    url,
    bearerToken: token,
  });
  const d = await discoverSkills(session);
  const results: SkillVerification[] = [];
  let next = 0;
  // Eight skills at a time, four reads each at most: a bounded load on the server.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < d.skills.length) {
        const s = d.skills[next++];
        if (s) results.push(await verifySkill(session, s, { walk: false }));
      }
    }),
  );
  await session.close();
  const ms = performance.now() - t0;
  return {
    ms,
    skillsVerified: results.filter((r) => r.verdict === 'verified').length,
    filesVerified: results.reduce(
      (n, r) => n + r.files.filter((f) => f.status === 'verified').length,
      0,
    ),
    failed: results
      .filter((r) => r.verdict !== 'verified')
      .map((r) => r.uri)
      .sort(),
  };
}

function timed(
  cmd: string,
  args: string[],
  cwd: string,
): { ms: number; code: number | null; out: string; err: string } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return { ms: performance.now() - t0, code: r.status, out: r.stdout ?? '', err: r.stderr ?? '' };
}

function oursCli(url: string, token: string, cwd: string, walk: boolean): Measure {
  const r = timed(
    process.execPath,
    [CLI, 'inspect', '--verify', ...(walk ? [] : ['--no-walk']), '--token', token, url],
    cwd,
  );
  const m = /Summary: (\d+) verified, (\d+) failed, (\d+) could not be verified/.exec(r.out);
  const failed = [...r.out.matchAll(/^ {2}FAIL (\S+):/gm)].map((x) => x[1] ?? '').sort();
  return {
    ms: r.ms,
    skillsVerified: Number(m?.[1] ?? 0),
    filesVerified: Number(m?.[1] ?? 0) * 4,
    failed,
    note: `exit ${r.code}`,
  };
}

function peerCli(url: string, token: string, cwd: string): Measure {
  const cmd = `mcp-inspector --cli ${url} --transport http --header 'Authorization: Bearer ${token}' --method skills/list --verify --format json --skill-catalog-max-skills ${SKILLS} --skill-catalog-max-bytes ${512 * 1024 * 1024}`;
  const r = timed('npx', ['-y', '-p', 'node@22', '-p', INSPECTOR, '-c', cmd], cwd);
  const reports = r.out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { uri: string; outcome: string; files: { status: string }[] });
  return {
    ms: r.ms,
    skillsVerified: reports.filter((x) => x.outcome === 'verified').length,
    filesVerified: reports.reduce(
      (n, x) => n + x.files.filter((f) => f.status === 'verified').length,
      0,
    ),
    failed: reports
      .filter((x) => x.outcome !== 'verified')
      .map((x) => x.uri)
      .sort(),
    note: `exit ${r.code}${
      r.code !== 0
        ? `: ${r.err
            .split('\n')
            .filter((l) => l && !l.startsWith('npm warn'))
            .slice(-2)
            .join(' ')}`
        : ''
    }`,
  };
}

function peerStartup(cwd: string): number {
  return timed(
    'npx',
    ['-y', '-p', 'node@22', '-p', INSPECTOR, '-c', 'mcp-inspector --version'],
    cwd,
  ).ms;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'skillbench-bench-inspect-'));
  const lib = join(work, 'lib');
  await mkdir(lib);
  const files = await makeLibrary(lib);
  const token = randomBytes(24).toString('base64url');
  const server = await startServer(lib, token);
  const rows: { name: string; runs: Measure[] }[] = [
    { name: 'ours: library (connect, discover, verify all)', runs: [] },
    { name: 'ours: CLI process (skillbench inspect --verify --no-walk)', runs: [] },
    { name: 'ours: CLI process (skillbench inspect --verify, + folder walks)', runs: [] },
  ];
  if (PEER)
    rows.push({ name: `official: ${INSPECTOR} --cli --method skills/list --verify`, runs: [] });
  const startup: number[] = [];
  try {
    // Warm-up (JIT, npx cache) outside the timed runs.
    await oursLibrary(server.url, token);
    if (PEER) peerStartup(work);
    for (let i = 0; i < RUNS; i++) {
      rows[0]?.runs.push(await oursLibrary(server.url, token));
      rows[1]?.runs.push(oursCli(server.url, token, work, false));
      rows[2]?.runs.push(oursCli(server.url, token, work, true));
      if (PEER) {
        rows[3]?.runs.push(peerCli(server.url, token, work));
        startup.push(peerStartup(work));
      }
    }
  } finally {
    server.stop();
  }
  console.log(
    `\nInspector benchmark: ${SKILLS} skills, ${files} files, our embedded server over loopback HTTP (separate process), ${RUNS} run(s), median wall time.\n`,
  );
  const header = [
    'measure',
    'median ms',
    'min ms',
    'skills verified',
    'files verified',
    'not verified',
    'note',
  ];
  const body = rows.map((r) => {
    const last = r.runs[r.runs.length - 1];
    return [
      r.name,
      median(r.runs.map((x) => x.ms)).toFixed(0),
      Math.min(...r.runs.map((x) => x.ms)).toFixed(0),
      String(last?.skillsVerified ?? ''),
      String(last?.filesVerified ?? ''),
      String(last?.failed.length ?? ''),
      last?.note ?? '',
    ];
  });
  if (PEER)
    body.push([
      'official: npx + Node 22 start-up only (mcp-inspector --version)',
      median(startup).toFixed(0),
      Math.min(...startup).toFixed(0),
      '',
      '',
      '',
      "subtract for the inspector's own work",
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (r: string[]): string =>
    `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
  const a = rows[0]?.runs.at(-1)?.failed ?? [];
  const c = rows[3]?.runs.at(-1)?.failed;
  if (c)
    console.log(
      `\nSame verdicts as the official inspector: ${JSON.stringify(a) === JSON.stringify(c) && rows[0]?.runs.at(-1)?.skillsVerified === rows[3]?.runs.at(-1)?.skillsVerified ? 'yes' : 'NO'} (ours ${rows[0]?.runs.at(-1)?.skillsVerified} verified, theirs ${rows[3]?.runs.at(-1)?.skillsVerified}).`,
    );
  await rm(work, { recursive: true, force: true });
}

await main();
