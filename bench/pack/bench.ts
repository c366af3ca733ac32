// Benchmark body: our zip export and import vs `zip -r -X` / `unzip` on the same folders, in
// one run. Prints a table; never asserts (docs/conventions.md §10). Built and started by run.mjs.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ExportResult, TargetId } from '../../shared/projection';
import { exportSkill, importSkill } from '../../main/pack';
import { useBuiltWorkers } from '../../main/platform/worker-pool';

const work = process.env.BENCH_WORK ?? join(process.cwd(), 'bench', '.work', 'pack');
// As the CLI and the app do: worker threads from out/main (built by run.mjs) share the deflating.
const pool = useBuiltWorkers(join(process.cwd(), 'out', 'main'), { warm: true });
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const WORDS =
  'skill agent notes meeting action item review draft summary export import archive folder file value check rule profile target limit byte'.split(
    ' ',
  );

/** Text that compresses like prose (about 3:1). */
function prose(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  const rand = randomBytes(bytes);
  for (let i = 0; length < bytes; i++) {
    const word = WORDS[(rand[i % rand.length] ?? 0) % WORDS.length] ?? 'skill';
    parts.push(word);
    length += word.length + 1;
    if (i % 12 === 11) parts.push('\n');
  }
  return parts.join(' ').slice(0, bytes);
}

/** Write a skill folder: SKILL.md plus the given files. */
async function makeSkill(
  name: string,
  files: ReadonlyArray<readonly [string, string | Buffer]>,
): Promise<string> {
  const dir = join(work, 'src', name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Benchmark skill with many files. Use it to time export and import.\n---\n# ${name}\n`,
  );
  for (const [path, data] of files) {
    await mkdir(join(dir, dirname(path)), { recursive: true });
    await writeFile(join(dir, path), data);
  }
  return dir;
}

// 200 files (SKILL.md included), 25 MB: 100 incompressible binaries of 200 kB and 99 text files of ~50 kB.
const big: Array<[string, string | Buffer]> = [];
for (let i = 0; i < 100; i++)
  big.push([`assets/blob-${String(i).padStart(3, '0')}.bin`, randomBytes(200_000)]);
for (let i = 0; i < 99; i++)
  big.push([`references/doc-${String(i).padStart(3, '0')}.md`, prose(50_505)]);
// 2,000 small text files (SKILL.md included), 0.5 to 3 kB each, in 20 folders.
const small: Array<[string, string | Buffer]> = [];
for (let i = 0; i < 1999; i++)
  small.push([
    `refs/d${i % 20}/f-${String(i).padStart(4, '0')}.md`,
    prose(500 + ((i * 37) % 2500)),
  ]);

const cases: Array<{
  name: string;
  files: Array<[string, string | Buffer]>;
  target: TargetId;
  label: string;
}> = [
  { name: 'big-skill', files: big, target: 'claude-ai', label: '200 files, 25 MB' },
  { name: 'many-small', files: small, target: 'claude-api', label: '2,000 small files' },
];

/** Median of numbers. */
const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Time an async function: one first (cold) run, then RUNS more; return the median of those and
 * the last result. Why a first run apart: as in bench/validate, the median is of warm runs (the
 * app is long-lived and its export dialog plans before the user exports); the first run, with
 * this process's code not yet optimised, is shown beside it rather than hidden.
 */
async function time<T>(
  fn: (run: number) => Promise<T>,
): Promise<{ ms: number; first: number; last: T }> {
  const times: number[] = [];
  let first = 0;
  let last: T | undefined;
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    last = await fn(i);
    if (i === 0) first = performance.now() - t0;
    else times.push(performance.now() - t0);
  }
  return { ms: median(times), first, last: last as T };
}

type Timed = { ms: number; first: number };
const rows: Array<{
  c: (typeof cases)[number];
  ours: Timed & { last: ExportResult };
  zip: Timed;
  oursSize: number;
  zipSize: number;
  ourImport: Timed;
  unzipImport: Timed;
}> = [];
for (const c of cases) {
  const dir = await makeSkill(c.name, c.files);
  const ours = await time(async (i) => {
    const out = join(work, 'out', `ours-${c.name}-${i}.zip`);
    const r = await exportSkill(dir, c.target, { out });
    if (r.status !== 'written')
      throw new Error(
        `export ${c.name}: ${r.status} ${JSON.stringify(r.plan.issues.filter((x) => x.severity === 'error'))}`,
      );
    return r;
  });
  const zip = await time(async (i) => {
    const out = join(work, 'out', `zip-${c.name}-${i}.zip`);
    // Why cwd = the parent: `zip -r -X out name` stores the same one-top-folder layout as ours.
    const r = spawnSync('zip', ['-q', '-r', '-X', out, c.name], { cwd: join(work, 'src') });
    if (r.status !== 0) throw new Error(`zip failed: ${String(r.stderr)}`);
    return out;
  });
  if (ours.last.status !== 'written') throw new Error('not written');
  const archive = ours.last.path;
  const oursSize = (await stat(archive)).size;
  const zipSize = (await stat(zip.last)).size;
  const limits = { maxFiles: 10_000, maxBytes: 64 * 1024 * 1024 };
  const ourImport = await time(async (i) => {
    const into = join(work, 'lib', `ours-${c.name}-${i}`);
    await mkdir(into, { recursive: true });
    const r = await importSkill(archive, { into, limits });
    if (r.status !== 'imported') throw new Error(`import ${c.name}: ${r.status}`);
  });
  const unzipImport = await time(async (i) => {
    const into = join(work, 'lib', `unzip-${c.name}-${i}`);
    await mkdir(into, { recursive: true });
    const r = spawnSync('unzip', ['-q', archive, '-d', into]);
    if (r.status !== 0) throw new Error(`unzip failed: ${String(r.stderr)}`);
  });
  rows.push({ c, ours, zip, oursSize, zipSize, ourImport, unzipImport });
}

const pad = (s: string | number, n: number): string => String(s).padEnd(n);
const lpad = (s: string | number, n: number): string => String(s).padStart(n);
console.log(
  `\nbench/pack — one first run, then the median of ${RUNS} runs, Node ${process.version}, ${process.platform}/${process.arch}\n`,
);
console.log(
  `${pad('case', 22)}${pad('step', 22)}${lpad('ours ms', 10)}${lpad('peer ms', 10)}${lpad('ours/peer', 11)}${lpad('ours bytes', 13)}${lpad('zip bytes', 13)}${lpad('size ratio', 12)}${lpad('first runs ms', 17)}`,
);
for (const r of rows) {
  console.log(
    `${pad(r.c.label, 22)}${pad(`export (${r.c.target})`, 22)}${lpad(r.ours.ms.toFixed(0), 10)}${lpad(r.zip.ms.toFixed(0), 10)}${lpad((r.ours.ms / r.zip.ms).toFixed(2) + '×', 11)}${lpad(r.oursSize, 13)}${lpad(r.zipSize, 13)}${lpad((r.oursSize / r.zipSize).toFixed(3), 12)}${lpad(`${r.ours.first.toFixed(0)} / ${r.zip.first.toFixed(0)}`, 17)}`,
  );
  console.log(
    `${pad('', 22)}${pad('import vs unzip', 22)}${lpad(r.ourImport.ms.toFixed(0), 10)}${lpad(r.unzipImport.ms.toFixed(0), 10)}${lpad((r.ourImport.ms / r.unzipImport.ms).toFixed(2) + '×', 11)}${' '.repeat(38)}${lpad(`${r.ourImport.first.toFixed(0)} / ${r.unzipImport.first.toFixed(0)}`, 17)}`,
  );
}
console.log(
  '\nGoal: export within 1.5× of `zip -r -X` wall time at equal or smaller size. Peer for export: zip -r -X (level 6); for import: unzip -q.',
);
console.log(
  "First runs: ours (this process's code not yet optimised) / the peer's first process; not in the medians.",
);
console.log(
  'Ours includes reading and planning the folder, the pre-upload check, the sha256 and the atomic rename; import includes every safety check and the staged write.\n',
);
await rm(work, { recursive: true, force: true });
await pool?.close();
