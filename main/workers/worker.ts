// Entry of the app's worker threads (built to out/main/worker.mjs): runs the jobs the shared
// pool (main/platform/worker-pool.ts) hands it, one at a time. Every registered job kind needs
// its handler here, or this file does not compile.
//
// Why validation and the archive writer load on first use: a worker that only reads a library
// ahead of the main thread (read-ahead) must start in the time the main thread loads its own
// modules, and those two bring most of what a worker can run (yaml, the rules, the zip writer).
// A worker started ahead of work it knows it will get (the command line's validation helpers)
// loads them as it starts instead, while the main thread loads its own, and says when it has.
//
// Why the validation core comes from its own CommonJS bundle (out/main/validation.cjs): it is
// loaded with the code cache made when it was built, so a worker does not compile the rules and
// the YAML reader again each time it starts (main/platform/bundle-cache.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ValidationCore from '../validate/library-job';
import { loadBundle, VALIDATION_BUNDLE } from '../platform/bundle-cache';
import { runReadAheadJob } from '../skill-folder/read-ahead';
import { announcePreloaded, serveWorkerJobs, workerPreload } from '../platform/worker-pool';

let core: typeof ValidationCore | undefined;
const validation = (): typeof ValidationCore => {
  core ??= loadBundle<typeof ValidationCore>(
    join(dirname(fileURLToPath(import.meta.url)), VALIDATION_BUNDLE),
  ).exports;
  return core;
};
const archives = () => import('../platform/archive-writer');

void Promise.allSettled(
  workerPreload().map(async (kind) => {
    if (kind === 'validate') validation();
    if (kind === 'deflate') await archives();
  }),
  // Why errors are dropped here: the job that needs the module loads it again and reports why.
).then(announcePreloaded);

serveWorkerJobs({
  validate: (job, progress) => validation().runSharedLibraryJob(job, progress),
  deflate: async (job) => (await archives()).runDeflateJob(job),
  'read-ahead': runReadAheadJob,
});
