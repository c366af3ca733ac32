// A CommonJS bundle loaded with V8's code cache: the compiled code of a bundle, written beside it
// when it is built, so a thread that loads it skips compiling it again.
//
// Why: checking a library is over in about a quarter of a second, and each thread spent a tenth
// of that compiling the same ~1 MB (the rules, the YAML reader), then each rule again on its first
// call. Node 20 keeps no compile cache for ES modules (`module.enableCompileCache` is Node 22), so
// the code that check runs is also built as CommonJS files (out/main/validation.cjs, which a
// worker loads as it starts, and out/main/validate-cli.cjs, the `validate` command), compiled
// through `vm.Script` with the cache (bench/speed/README.md, "The validation code with a code
// cache").
//
// Why the digest: V8 checks a cache against the source's length, its own version and the V8 flags
// in effect, not against the source's text, so a cache left from another build of the same length
// would run that build's code. The cache file starts with the SHA-256 of the bundle it was made
// from; a cache for other bytes is not offered to V8 at all. A cache V8 refuses (another Node, other
// flags) only costs the compile it was meant to save: the bundle is compiled from its source.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** How the code cache served a load: V8 took it, V8 refused it, it was for other bytes, or there was none. */
export type BundleCacheUse = 'used' | 'rejected' | 'stale' | 'none';

/** A loaded bundle: what it exports, and how its code cache served the load. */
export interface LoadedBundle<T> {
  exports: T;
  cache: BundleCacheUse;
  /** The compiled script, for {@link bundleCacheData} after a warm-up run. */
  script: Script;
  /** The SHA-256 of the bundle's bytes. */
  digest: Buffer;
}

const DIGEST_BYTES = 32;

/**
 * The bundles loaded this way, beside the others in out/main (scripts/cached-bundles.mjs builds
 * them and their caches): the validation core a worker loads as it starts, and the whole
 * `skillbench validate` command.
 */
export const VALIDATION_BUNDLE = 'validation.cjs';
export const VALIDATE_CLI_BUNDLE = 'validate-cli.cjs';

/** Where a bundle's code cache lives: beside it, with `.cache` added to its name. */
export function bundleCacheFile(bundle: string): string {
  return `${bundle}.cache`;
}

/** CommonJS's module wrapper, written out so the cached code and the loaded code are the same text. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** The kept cache's V8 data when it was made from exactly these bytes. */
function keptCache(bundle: string, digest: Buffer): Buffer | 'stale' | undefined {
  let kept: Buffer;
  try {
    kept = readFileSync(bundleCacheFile(bundle));
  } catch {
    return undefined;
  }
  return kept.length > DIGEST_BYTES && kept.subarray(0, DIGEST_BYTES).equals(digest)
    ? kept.subarray(DIGEST_BYTES)
    : 'stale';
}

/**
 * Load a CommonJS bundle (one file, requiring only Node's own modules) on this thread, with its
 * code cache when there is one for exactly its bytes. Throws what reading or running it throws.
 */
export function loadBundle<T>(bundle: string): LoadedBundle<T> {
  const bytes = readFileSync(bundle);
  const digest = createHash('sha256').update(bytes).digest();
  const kept = keptCache(bundle, digest);
  const cachedData = kept instanceof Buffer ? kept : undefined;
  const script = new Script(wrapped(bytes.toString('utf8')), {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const cache: BundleCacheUse = cachedData
    ? script.cachedDataRejected === true
      ? 'rejected'
      : 'used'
    : kept === 'stale'
      ? 'stale'
      : 'none';
  const module = { exports: {} as T };
  const body = script.runInThisContext() as (
    exports: T,
    require: NodeJS.Require,
    module: { exports: T },
    filename: string,
    dirname: string,
  ) => void;
  body.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, cache, script, digest };
}

/**
 * The code cache file's bytes for a bundle loaded with {@link loadBundle}: the bundle's digest and
 * what V8 has compiled of it so far, so run the code a thread will run first before taking it
 * (at build time: scripts/worker-bundles.mjs).
 */
export function bundleCacheData(loaded: LoadedBundle<unknown>): Buffer {
  return Buffer.concat([loaded.digest, loaded.script.createCachedData()]);
}
