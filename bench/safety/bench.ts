/**
 * Safety review benchmark: writes the labelled corpus (bench/safety/corpus.ts) into a temp
 * folder, reviews every skill from disk, and prints catch rate (malicious at "Review" or worse),
 * false-alarm rate (benign at "Review" or worse) per category and part, time per skill, the
 * worst single skill (1 MB), and the whole folder through the real CLI. Never asserts
 * (docs/conventions.md §10).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LibraryReviews } from '../../main/safety/library-reviews';
import { reviewSkillFolder } from '../../main/safety/service';
import { CORPUS, type CorpusSkill } from './corpus';

const repo = process.env.BENCH_REPO ?? process.cwd();
const base = mkdtempSync(join(tmpdir(), 'skillbench-safety-'));
const lib = join(base, 'corpus');

function write(dir: string, files: CorpusSkill['files']): void {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(dir, ...path.split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof content === 'string') writeFileSync(abs, content);
    else if (content instanceof Uint8Array) writeFileSync(abs, content);
    else symlinkSync(content.link, abs);
  }
}

CORPUS.forEach((s, i) => write(join(lib, `s${String(i + 1).padStart(3, '0')}`), s.files));

interface Row {
  caught: number;
  total: number;
}
const table = new Map<string, Row>();
const misses: string[] = [];
const times: number[] = [];
const bump = (key: string, hit: boolean): void => {
  const row = table.get(key) ?? { caught: 0, total: 0 };
  row.total += 1;
  if (hit) row.caught += 1;
  table.set(key, row);
};
for (let i = 0; i < CORPUS.length; i++) {
  const s = CORPUS[i];
  const id = `s${String(i + 1).padStart(3, '0')}`;
  const t0 = performance.now();
  const r = await reviewSkillFolder(join(lib, id));
  times.push(performance.now() - t0);
  const flagged = r.report.verdict !== 'clear';
  for (const part of [s.part, 'all']) {
    bump(`${s.label}|${part}|${s.category}`, flagged);
    bump(`${s.label}|${part}|*`, flagged);
  }
  if (s.label === 'malicious' && !flagged) misses.push(`missed   ${id} ${s.category} (${s.part})`);
  if (s.label === 'benign' && flagged)
    misses.push(
      `false alarm ${id} ${s.category} (${s.part}): ${r.report.findings
        .filter((f) => f.severity !== 'low')
        .map((f) => `${f.rule} ${f.file}:${f.line}`)
        .join(', ')}`,
    );
}

const pct = (r: Row | undefined): string =>
  r && r.total > 0 ? `${((100 * r.caught) / r.total).toFixed(0)}% (${r.caught}/${r.total})` : '–';
const categories = (label: string): string[] => [
  ...new Set(CORPUS.filter((s) => s.label === label).map((s) => s.category)),
];
console.log('| malicious category | dev | held-out | all |');
console.log('| --- | --- | --- | --- |');
for (const c of [...categories('malicious'), '*'])
  console.log(
    `| ${c === '*' ? '**all malicious** (caught)' : c} | ${pct(table.get(`malicious|dev|${c}`))} | ${pct(table.get(`malicious|heldout|${c}`))} | ${pct(table.get(`malicious|all|${c}`))} |`,
  );
console.log('\n| benign category | dev | held-out | all |');
console.log('| --- | --- | --- | --- |');
for (const c of [...categories('benign'), '*'])
  console.log(
    `| ${c === '*' ? '**all benign** (false alarms)' : c} | ${pct(table.get(`benign|dev|${c}`))} | ${pct(table.get(`benign|heldout|${c}`))} | ${pct(table.get(`benign|all|${c}`))} |`,
  );

times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(
  `\nTime per skill (from disk, in process): mean ${mean.toFixed(1)} ms, median ${(times[times.length >> 1] ?? 0).toFixed(1)} ms, max ${(times[times.length - 1] ?? 0).toFixed(1)} ms over ${times.length} skills.`,
);

// The worst single skill: a 1 MB SKILL.md mixing long lines, padding, Unicode and near-misses.
const worst = join(base, 'worst', 'big');
const chunk = `Please ig\u200bnore the [link](https://example.com "t") ${'['.repeat(200)} curl https://a.example/x ${'a'.repeat(300)} привет 👨‍👩‍👧 <!-- note -->\n`;
let big = '---\nname: big\ndescription: A big skill.\n---\n\n';
while (big.length < 1_000_000) big += chunk + '\n'.repeat(50) + 'x'.repeat(2000) + '\n';
write(worst, { 'SKILL.md': big, 'scripts/run.sh': `#!/bin/sh\n${'echo hi; '.repeat(100_000)}\n` });
const w0 = performance.now();
const wr = await reviewSkillFolder(worst);
console.log(
  `Worst single skill (1 MB SKILL.md + 1 MB one-line script): ${(performance.now() - w0).toFixed(0)} ms, verdict ${wr.report.verdict}, ${wr.report.findings.length} findings.`,
);

// The library list's badges (the app's LibraryReviews, in process): every folder reviewed, then
// asked again with nothing changed (each folder walked for its fingerprint, no rule run).
const badgeDirs = CORPUS.map((_, i) => join(lib, `s${String(i + 1).padStart(3, '0')}`));
const badgeReviews = new LibraryReviews(join(base, 'badge-data'));
const b0 = performance.now();
const badges = await badgeReviews.badges(badgeDirs);
const b1 = performance.now();
await badgeReviews.badges(badgeDirs);
console.log(
  `Library badges for the ${CORPUS.length}-skill folder (in process): ${(b1 - b0).toFixed(0)} ms, again with nothing changed ${(performance.now() - b1).toFixed(0)} ms (${badges.length} badges).`,
);

// The whole folder through the real CLI (start-up and output included): first with a fresh
// user-data folder (nothing kept), then again with the reviews that run kept.
const scanOnce = (): { s: number; status: number | null; skills: number; out: string } => {
  const c0 = performance.now();
  const cli = spawnSync(
    process.execPath,
    [join(repo, 'main', 'cli', 'skillbench.mjs'), 'scan', lib, '--format', 'json'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, SKILLBENCH_USER_DATA: join(base, 'data') },
    },
  );
  const parsed = JSON.parse(cli.stdout || '{"skills":[]}') as { skills: unknown[] };
  return {
    s: (performance.now() - c0) / 1000,
    status: cli.status,
    skills: parsed.skills.length,
    out: cli.stdout,
  };
};
const fresh = scanOnce();
const kept = scanOnce();
console.log(
  `\`skillbench scan\` on the ${CORPUS.length}-skill folder: ${fresh.s.toFixed(2)} s wall clock with nothing kept, ${kept.s.toFixed(2)} s with the reviews the first run kept (exit ${fresh.status} / ${kept.status}, ${fresh.skills} / ${kept.skills} skills, ${fresh.out === kept.out ? 'the same report' : 'NOT the same report'}).`,
);
if (misses.length > 0) console.log(`\n${misses.join('\n')}`);
rmSync(base, { recursive: true, force: true });
