// `npm test`: build, type-check, lint, formatting, import boundaries, unit/integration tests (Vitest), end-to-end tests
// (Playwright: the browser shell in the system Chromium; Electron where its runtime exists).
// Ends with one plain line `N passed, N failed` summing every suite.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = join(root, 'out', 'test-results');
let passed = 0;
let failed = 0;
const lines = [];

function run(label, command, args) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: result.status === 0, seconds };
}

/** A gate (build, typecheck, lint) counts as one check. */
function gate(label, command, args) {
  const { ok, seconds } = run(label, command, args);
  if (ok) passed += 1;
  else failed += 1;
  lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds}s)`);
  return ok;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

rmSync(results, { recursive: true, force: true });
const built = gate('build', process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet']);
gate('typecheck', bin('tsc'), ['-b']);
gate('lint', bin('eslint'), ['--max-warnings=0', '.']);
gate('format', bin('prettier'), ['--check', '--log-level=warn', '.']);
// Why a gate: no import cycles between files or folders, and the layers kept (docs/architecture.md).
gate('import boundaries', process.execPath, [join(root, 'scripts', 'check-imports.mjs')]);

const unit = run('unit and integration tests (vitest)', bin('vitest'), ['run']);
const vitest = readJson(join(results, 'vitest.json'));
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests + (unit.ok || vitest.numFailedTests > 0 ? 0 : 1);
  lines.push(
    `vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed (${unit.seconds}s)`,
  );
} else {
  failed += 1;
  lines.push('vitest: did not report (crashed?)');
}

if (built) {
  const e2e = run('end-to-end tests (playwright)', bin('playwright'), ['test']);
  const pw = readJson(join(results, 'playwright.json'));
  if (pw && pw.stats) {
    const ok = pw.stats.expected + pw.stats.flaky;
    const bad = pw.stats.unexpected;
    passed += ok;
    failed += bad + (e2e.ok || bad > 0 ? 0 : 1);
    lines.push(
      `playwright: ${ok} passed, ${bad} failed${pw.stats.skipped ? `, ${pw.stats.skipped} skipped` : ''} (${e2e.seconds}s)`,
    );
  } else {
    failed += 1;
    lines.push('playwright: did not report (crashed?)');
  }
} else {
  failed += 1;
  lines.push('playwright: not run because the build failed');
}

console.log('\n=== summary ===');
for (const line of lines) console.log(line);
if (!existsSync(join(root, 'node_modules', 'electron', 'path.txt'))) {
  console.log('electron e2e project: skipped (no Electron runtime on this machine)');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
