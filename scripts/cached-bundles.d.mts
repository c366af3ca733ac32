// Types of scripts/cached-bundles.mjs for the TypeScript that calls it (main/testing/worker-bundle.ts).
import type { BuildOptions } from 'esbuild';

export declare const esmBanner: { js: string };

/** Mark `dir` as holding ES modules (package.json with "type": "module"), as out/main is. */
export declare function writeEsmMarker(dir: string): void;

/** Build worker.mjs, validation.cjs, validate-cli.cjs (with `cli`) and their code caches (with `cache`) into `outDir`. */
export declare function buildCachedBundles(options: {
  outDir: string;
  common?: BuildOptions;
  cache?: boolean;
  cli?: boolean;
}): Promise<void>;
