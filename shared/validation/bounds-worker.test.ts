import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_IDS, validateSkill } from './index';
import type { ValidationResult } from './index';

// A worker thread runs the core with a 4 MB stack by default, the main thread with about 984 KB.
// Before the bounds, a file nested deeper than the main thread's stack stopped parsing there
// (with a "Maximum call stack size exceeded" finding) but went on in a worker, through yaml's
// cubic conversion of collection keys: 1.2 s against 44–65 s for one 5 KB file, and different
// findings. Here the same core runs in real workers with different stacks.

const here = dirname(fileURLToPath(import.meta.url));
let dir = '';
let script = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skillbench-bounds-'));
  script = join(dir, 'validate-worker.mjs');
  const out = await build({
    stdin: {
      contents: `import { parentPort, workerData } from 'node:worker_threads';
        import { validateSkill, PROFILE_IDS } from './index';
        parentPort.postMessage(workerData.texts.map((t) => validateSkill(t, { profiles: [...PROFILE_IDS] })));`,
      resolveDir: here,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'error',
    // yaml is CommonJS: give the bundle the require it calls.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  writeFileSync(script, out.outputFiles[0]?.text ?? '');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function inWorker(texts: string[], stackSizeMb?: number): Promise<ValidationResult[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, {
      workerData: { texts },
      ...(stackSizeMb ? { resourceLimits: { stackSizeMb } } : {}),
    });
    w.once('message', (m: ValidationResult[]) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

const fm = (yaml: string) => `---\n${yaml}---\n# Body\n`;
const flowKey = (depth: number) => {
  let key = 'a';
  for (let i = 0; i < depth; i++) key = `[${key}]`;
  return fm(`name: x\ndescription: y\n${key}: v\n`);
};

describe('the same findings on a worker thread as on the main thread', () => {
  const texts = [flowKey(2_400), flowKey(800), flowKey(97), fm('[\n'.repeat(5_000))];

  it('with the default worker stack (4 MB) and with 16 MB', async () => {
    const here = texts.map((t) => validateSkill(t, { profiles: [...PROFILE_IDS] }));
    expect(await inWorker(texts)).toEqual(here);
    expect(await inWorker(texts, 16)).toEqual(here);
    // The deep ones are refused before yaml reads them; the one within the bound is read.
    expect(here.map((r) => r.diagnostics.some((d) => d.ruleId === 'file/too-complex'))).toEqual([
      true,
      true,
      false,
      true,
    ]);
  });
});
