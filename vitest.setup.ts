import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// Property tests explore new random inputs on every local run (the seed is printed on failure),
// but CI runs one fixed seed so a submission's result does not depend on luck. Set FC_SEED to
// replay a failure or to pick another CI seed.
const fromEnv = process.env.FC_SEED;
const seed = fromEnv !== undefined ? Number(fromEnv) : process.env.CI ? 20261122 : undefined;
if (seed !== undefined) fc.configureGlobal({ seed });

// No test writes into this machine's Skillbench folder (settings, trash, kept checks): code that
// falls back to the default user-data folder gets a temp one for each test file, removed after it.
// A test that needs a folder of its own still sets SKILLBENCH_USER_DATA (or passes an env).
const previous = process.env.SKILLBENCH_USER_DATA;
if (previous === undefined || process.env.SKILLBENCH_TEST_USER_DATA === previous) {
  const dir = mkdtempSync(join(tmpdir(), 'skillbench-test-userdata-'));
  process.env.SKILLBENCH_USER_DATA = dir;
  process.env.SKILLBENCH_TEST_USER_DATA = dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}
