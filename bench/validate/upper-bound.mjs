// An experiment beside bench/validate (not a goal): how fast would (a) be if parsing and the
// core rules took no time at all? Builds the app, writes two copies of the validation worker
// bundle into bench/.work/upper-bound/ in which parseSkill, and then also validateSkill, answer
// from a memo after the warm-up run (every later run finds each skill already done), and times
// validateLibrary with each worker against skills-ref in turns, as bench.ts does.
// Run: node bench/validate/upper-bound.mjs   (after node bench/validate/run.mjs made the library)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp, bundleBench, root } from '../build.mjs';

const work = join(root, 'bench', '.work');
if (!existsSync(join(work, 'validate-lib'))) {
  process.stderr.write('No benchmark library yet: run node bench/validate/run.mjs first.\n');
  process.exit(2);
}
buildApp();
const built = await readFile(join(root, 'out', 'main', 'worker.mjs'), 'utf8');

/** Rename the bundle's `function NAME(` to NAME__computed and add NAME answering from a memo. */
function memoize(src, name, params, memo) {
  const head = `function ${name}(${params}) {`;
  if (src.split(head).length !== 2) {
    process.stderr.write(
      `The worker bundle no longer has exactly one "${head}"; update upper-bound.mjs.\n`,
    );
    process.exit(2);
  }
  return `${src.replace(head, `function ${name}__computed(${params}) {`)}\n${memo}\n`;
}

const parseFree = memoize(
  built,
  'parseSkill',
  'text',
  `const parseMemo = new Map();
function parseSkill(text) { let p = parseMemo.get(text); if (!p) { p = parseSkill__computed(text); parseMemo.set(text, p); } return p; }`,
);
const coreFree = memoize(
  parseFree,
  'validateSkill',
  'input, options = {}',
  `const coreMemo = new Map();
function validateSkill(input, options = {}) {
  if (typeof input === 'string') return validateSkill__computed(input, options);
  let r = coreMemo.get(input);
  if (!r) { r = validateSkill__computed(input, options); coreMemo.set(input, r); }
  return { ...r, diagnostics: [...r.diagnostics] };
}`,
);
const dir = join(work, 'upper-bound');
for (const [name, text] of [
  ['parse-free', parseFree],
  ['parse-core-free', coreFree],
]) {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, 'worker.mjs'), text);
}
const bundle = join(dir, 'upper-bound-bench.mjs');
await bundleBench(join(root, 'bench', 'validate', 'upper-bound.ts'), bundle);
const run = spawnSync(process.execPath, ['--enable-source-maps', bundle], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_REPO: root },
});
process.exit(run.status ?? 1);
