import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCachedBundles } from '../../scripts/cached-bundles.mjs';
import { bundleEntry } from '../testing/skill-library';
import { bundleCacheFile, loadBundle } from './bundle-cache';

// Each load that must not find V8's own in-process compilation cache runs in a child process of
// its own (a fresh isolate), as a command does: the probe loads the bundle, runs it and prints
// what it returned and how the cache served the load; `make` writes the cache as the build does.

let tmp: string;
let probe: string;

/** A small CommonJS bundle: `answer()` returns `text`, with enough code around it to compile. */
const bundleText = (text: string): string =>
  `"use strict";
const { basename } = require("node:path");
function helper(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
exports.answer = () => ${JSON.stringify(text)} + ":" + helper(10) + ":" + basename(__filename);
`;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-bundle-cache-'));
  const loader = await bundleEntry(join(__dirname, 'bundle-cache.ts'), join(tmp, 'loader.mjs'));
  probe = join(tmp, 'probe.mjs');
  await writeFile(
    probe,
    `import { writeFileSync } from 'node:fs';
import { bundleCacheData, bundleCacheFile, loadBundle } from ${JSON.stringify(pathToFileURL(loader).href)};
const [bundle, mode] = process.argv.slice(2);
const loaded = loadBundle(bundle);
const answer = typeof loaded.exports.answer === 'function' ? loaded.exports.answer() : Object.keys(loaded.exports).join(',');
if (mode === 'make') writeFileSync(bundleCacheFile(bundle), bundleCacheData(loaded));
console.log(JSON.stringify({ answer, cache: loaded.cache }));
`,
  );
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function load(bundle: string, mode = 'load'): { answer: string; cache: string } {
  // Why this process's environment, NODE_OPTIONS included: V8 takes a cache only under the flags
  // it was made with, and the build below makes its caches in this environment too.
  const r = spawnSync(process.execPath, [probe, bundle, mode], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { answer: string; cache: string };
}

describe('loadBundle', () => {
  it('loads a bundle without a cache, and with the cache made from it', async () => {
    const bundle = join(tmp, 'plain.cjs');
    await writeFile(bundle, bundleText('one'));
    expect(load(bundle, 'make')).toEqual({ answer: 'one:24:plain.cjs', cache: 'none' });
    expect(load(bundle)).toEqual({ answer: 'one:24:plain.cjs', cache: 'used' });
  });

  it('never offers V8 a cache made from other bytes of the same length (V8 checks only the length)', async () => {
    const bundle = join(tmp, 'rebuilt.cjs');
    await writeFile(bundle, bundleText('old'));
    load(bundle, 'make');
    await writeFile(bundle, bundleText('new'));
    expect(load(bundle)).toEqual({ answer: 'new:24:rebuilt.cjs', cache: 'stale' });
  });

  it('compiles from the source when V8 refuses the cache, or the file is cut short', async () => {
    const bundle = join(tmp, 'refused.cjs');
    await writeFile(bundle, bundleText('two'));
    load(bundle, 'make');
    const kept = await readFile(bundleCacheFile(bundle));
    // The right digest, then bytes that are no V8 cache.
    await writeFile(
      bundleCacheFile(bundle),
      Buffer.concat([kept.subarray(0, 32), Buffer.alloc(kept.length - 32, 7)]),
    );
    expect(load(bundle)).toEqual({ answer: 'two:24:refused.cjs', cache: 'rejected' });
    await writeFile(bundleCacheFile(bundle), kept.subarray(0, 20));
    expect(load(bundle)).toEqual({ answer: 'two:24:refused.cjs', cache: 'stale' });
  });

  it('throws what loading throws: a missing bundle, a bundle that throws as it runs', async () => {
    expect(() => loadBundle(join(tmp, 'missing.cjs'))).toThrow(/ENOENT/);
    const bundle = join(tmp, 'throws.cjs');
    await writeFile(bundle, 'throw new Error("broken bundle");');
    expect(() => loadBundle(bundle)).toThrow('broken bundle');
  });
});

describe('the bundles the build loads this way', () => {
  it('are built with a code cache made from each, which V8 takes', async () => {
    // Built here as scripts/build.mjs builds them into out/main (a test that reads out/main could
    // meet another test's rebuild of it).
    const out = join(tmp, 'out');
    await buildCachedBundles({ outDir: out, common: { logLevel: 'error' } });
    // Loading either runs no command: they only define what they export.
    expect(load(join(out, 'validation.cjs'))).toMatchObject({ cache: 'used' });
    expect(load(join(out, 'validate-cli.cjs'))).toEqual({
      answer: 'runValidateProcess',
      cache: 'used',
    });
  }, 120_000);
});
