// Body of bench/validate/upper-bound.mjs (see there): (a) with the worker as built, with
// parseSkill answered from a memo, and with parseSkill and validateSkill both answered from a
// memo, each timed in turns with skills-ref. Prints a table; never asserts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validate as skillsRefValidate } from 'skills-ref';
import { mapLimit } from '../../main/platform/concurrency';
import { validateLibrary } from '../../main/validate/service';
import { WorkerPool } from '../../main/platform/worker-pool';
import { median, timePairs } from '../support';

const repo = process.env.BENCH_REPO ?? process.cwd();
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const lib = join(repo, 'bench', '.work', 'validate-lib');
const dirs = readdirSync(lib)
  .sort()
  .map((n) => join(lib, n));
const variants: [string, string][] = [
  ['(a) as built', join(repo, 'out', 'main', 'worker.mjs')],
  [
    '(a) with parseSkill free',
    join(repo, 'bench', '.work', 'upper-bound', 'parse-free', 'worker.mjs'),
  ],
  [
    '(a) with parseSkill and the core rules free',
    join(repo, 'bench', '.work', 'upper-bound', 'parse-core-free', 'worker.mjs'),
  ],
];
const peer = (): Promise<unknown> => mapLimit(dirs, 32, (d) => skillsRefValidate(d));
const rows: string[] = [];
let expected: string | undefined;
for (const [name, script] of variants) {
  const pool = new WorkerPool(script, 2);
  // Why compare the findings: a memo that changed what is found would time something else.
  const first = await validateLibrary(lib, { pool });
  const found =
    JSON.stringify(first.skills.map((s) => s.diagnostics)) + JSON.stringify(first.findings);
  expected ??= found;
  const {
    ours,
    peer: theirs,
    ratios,
  } = await timePairs(() => validateLibrary(lib, { pool }), peer, RUNS);
  await pool.close();
  rows.push(
    `| ${name} | ${ours.wall.toFixed(0)} ms | ${theirs.wall.toFixed(0)} ms | ${median(ratios).toFixed(2)}× [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}] | ${found === expected ? 'same' : 'DIFFERENT'} |`,
  );
}
process.stdout.write(
  `\n${dirs.length} skills, 2 worker threads, ${RUNS} pairs after a warm-up\n\n| worker | (a) wall | skills-ref wall | (a) ÷ skills-ref, median of pairs [range] | findings |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
);
