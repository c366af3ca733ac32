// Growth of the validation core's cost with its input (keys, nesting, body size, a nested flow
// collection as a key), with the bounds of shared/skill/limits.ts in force and, for keys, lifted:
// time and peak memory per case, each case in its own process so one case's heap does not
// weigh on the next. Prints a table; never asserts (docs/conventions.md §10). Built by run.mjs.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CASES, LIFTED, measure } from './cases';
import type { Measured } from './cases';

const work = process.env.BENCH_WORK ?? join(process.cwd(), 'bench', '.work', 'growth');
const self = join(work, 'bench.mjs');

/** Runs per case: fewer for the heavy ones (the median of 3 for the others). */
function runsFor(text: string): number {
  return text.length > 2_000_000 ? 1 : 3;
}

interface ChildResult {
  main: Measured;
  links?: Measured;
  lifted?: Measured;
  worker?: Measured | null;
  /** Peak resident memory of the whole process, MB (the input text included). */
  rssMb: number;
  bytes: number;
}

async function child(id: string, mode: string): Promise<void> {
  const c = CASES.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  const text = c.text();
  const runs = runsFor(text);
  const out: Partial<ChildResult> = { bytes: text.length };
  if (mode === 'main') out.main = measure(text, runs);
  else if (mode === 'links') out.links = measure(text, runs, undefined, true);
  else if (mode === 'lifted') out.lifted = measure(text, runs, LIFTED);
  else
    out.worker = await new Promise<Measured | null>((resolve, reject) => {
      const w = new Worker(join(work, 'worker.mjs'), { workerData: { id, runs } });
      w.once('message', (m: Measured | null) => {
        resolve(m);
        void w.terminate();
      });
      w.once('error', reject);
    });
  out.rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function run(id: string, mode: string): ChildResult | null {
  const p = spawnSync(process.execPath, [self, '--case', id, mode], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, BENCH_WORK: work },
  });
  if (p.status !== 0) {
    process.stderr.write(`case ${id} (${mode}) failed: ${p.stderr.slice(0, 500)}\n`);
    return null;
  }
  return JSON.parse(p.stdout.trim().split('\n').pop() ?? 'null') as ChildResult;
}

const ms = (m: Measured | undefined | null): string =>
  m
    ? `${m.ms < 10 ? m.ms.toFixed(2) : m.ms.toFixed(0)} ms${m.over.length > 0 ? ` (over: ${m.over.join(', ')})` : ''}`
    : '–';
const mb = (n: number | undefined): string => (n === undefined ? '–' : `${n.toFixed(0)} MB`);

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(rows[0] ?? []),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--case');
  if (i !== -1) return child(process.argv[i + 1] ?? '', process.argv[i + 2] ?? 'main');
  const rows: string[][] = [
    [
      'case',
      'input',
      'main thread',
      'peak RSS',
      'limits lifted',
      'peak RSS',
      'worker thread',
      'findings',
      'with a file view (links checked)',
      'peak RSS',
    ],
  ];
  for (const c of CASES) {
    process.stderr.write(`${c.label} …\n`);
    const main = run(c.id, 'main');
    const lifted = c.lifted ? run(c.id, 'lifted') : null;
    const worker = c.worker ? run(c.id, 'worker') : null;
    const links = c.links ? run(c.id, 'links') : null;
    rows.push([
      c.label,
      main ? `${(main.bytes / 1024).toFixed(main.bytes < 10_240 ? 1 : 0)} KB` : '–',
      ms(main?.main),
      mb(main?.rssMb),
      lifted ? ms(lifted.lifted) : '',
      lifted ? mb(lifted.rssMb) : '',
      worker ? ms(worker.worker) : '',
      String(main?.main?.findings ?? '–'),
      links?.links?.linksMs !== undefined
        ? `${links.links.linksMs.toFixed(0)} ms, ${(links.links.findings - (main?.main?.findings ?? 0)).toLocaleString('en-US')} findings`
        : '',
      links ? mb(links.rssMb) : '',
    ]);
  }
  process.stdout.write(
    `\nNode ${process.version}, ${availableParallelism()} CPUs; parseSkill + validateSkill (default profile), median of 3 (1 for inputs over 2 MB) after a warm-up; each cell its own process\n\n${table(rows)}\n`,
  );
}

void main();
