import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../testing/skill-library';

// The pause is observed in a child process of its own: V8's flags are the whole process's, and
// `%ActiveTierIsTurbofan` (natives syntax) tells whether a function runs optimized code. With
// `--no-concurrent-recompilation` a function that gets hot is optimized on the spot, not on a
// background thread later, so what the child prints does not depend on timing.

let tmp: string;
let probe: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-optimizer-'));
  const pause = await bundleEntry(
    join(__dirname, 'optimizer-pause.ts'),
    join(tmp, 'optimizer-pause.mjs'),
  );
  probe = join(tmp, 'probe.mjs');
  await writeFile(
    probe,
    `import { pauseOptimizer } from ${JSON.stringify(pathToFileURL(pause).href)};
const tier = new Function('f', 'return %ActiveTierIsTurbofan(f)');
// A fresh function each time, made hot by calling it, then asked which tier runs it.
const hot = () => {
  const f = new Function('n', 'let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s;');
  for (let k = 0; k < 2000; k++) f(1000);
  return tier(f) ? 'optimized' : 'not optimized';
};
if (process.argv[2] === 'bound') {
  // Paused with a bound and never resumed: after the bound the compiler is on again. Why no
  // timing in this: a timer made after the pause's, for as long, always fires after it.
  pauseOptimizer({ atMostMs: 0 });
  const paused = hot();
  setTimeout(() => console.log(JSON.stringify({ paused, afterBound: hot() })), 0);
} else if (process.argv[2] === 'after') {
  // Paused once a promise settles: not before it, then until resumed.
  let open;
  const gate = new Promise((ok) => (open = ok));
  const resume = pauseOptimizer({ after: gate });
  const before = hot();
  open();
  setTimeout(() => {
    const paused = hot();
    resume();
    console.log(JSON.stringify({ before, paused, resumed: hot() }));
  }, 0);
} else if (process.argv[2] === 'resumed-first') {
  // Resumed before the promise settled: never paused at all.
  let open;
  const gate = new Promise((ok) => (open = ok));
  const resume = pauseOptimizer({ after: gate });
  resume();
  open();
  setTimeout(() => console.log(JSON.stringify({ settled: hot() })), 0);
} else {
  const resume = pauseOptimizer();
  const paused = hot();
  resume();
  const resumed = hot();
  resume();
  console.log(JSON.stringify({ paused, resumed, again: hot() }));
}
`,
  );
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function run(flags: string[], nodeOptions?: string, mode = 'resume'): Record<string, string> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  if (nodeOptions !== undefined) env.NODE_OPTIONS = nodeOptions;
  const r = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', ...flags, probe, mode],
    { encoding: 'utf8', env, timeout: 60_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, string>;
}

describe('pauseOptimizer', () => {
  it('keeps hot code unoptimized while paused and optimizes it again once resumed', () => {
    expect(run([])).toEqual({
      paused: 'not optimized',
      resumed: 'optimized',
      again: 'optimized',
    });
  });

  it('switches the compiler on again at the bound when nobody resumes it', () => {
    expect(run([], undefined, 'bound')).toEqual({
      paused: 'not optimized',
      afterBound: 'optimized',
    });
  });

  it('with `after`, pauses only once that settles (threads loading cached code load it first)', () => {
    expect(run([], undefined, 'after')).toEqual({
      before: 'optimized',
      paused: 'not optimized',
      resumed: 'optimized',
    });
  });

  it('with `after`, never pauses when resumed before it settles', () => {
    expect(run([], undefined, 'resumed-first')).toEqual({ settled: 'optimized' });
  });

  it("leaves a user's own --no-opt alone: resuming does not switch the compiler on", () => {
    expect(run(['--no-opt'])).toEqual({
      paused: 'not optimized',
      resumed: 'not optimized',
      again: 'not optimized',
    });
  });

  it("leaves a user's own --turbofan choice alone: nothing is paused", () => {
    expect(run(['--turbofan'])).toEqual({
      paused: 'optimized',
      resumed: 'optimized',
      again: 'optimized',
    });
  });

  it('leaves --jitless given in NODE_OPTIONS alone', () => {
    expect(run([], '--jitless')).toEqual({
      paused: 'not optimized',
      resumed: 'not optimized',
      again: 'not optimized',
    });
  });
});
