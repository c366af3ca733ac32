// Entry of the app's worker threads (built to out/main/worker.mjs): runs the jobs the shared
// pool (main/platform/worker-pool.ts) hands it, one at a time. Every registered job kind needs
// its handler here, or this file does not compile.
//
// Why validation and the archive writer load on first use: a worker that only reads a library
// ahead of the main thread (read-ahead) must start in the time the main thread loads its own
// modules, and those two bring most of this bundle (yaml, the rules, the zip writer). A worker
// started ahead of work it knows it will get (the command line's validation helpers) loads them
// as it starts instead, while the main thread loads its own.
import { runReadAheadJob } from '../skill-folder/read-ahead';
import { serveWorkerJobs, workerPreload } from '../platform/worker-pool';

const validation = () => import('../validate/library-job');
const archives = () => import('../platform/archive-writer');

for (const kind of workerPreload()) {
  // Why errors are dropped here: the job that needs the module loads it again and reports why.
  if (kind === 'validate') validation().catch(() => undefined);
  if (kind === 'deflate') archives().catch(() => undefined);
}

serveWorkerJobs({
  validate: async (job, progress) => (await validation()).runSharedLibraryJob(job, progress),
  deflate: async (job) => (await archives()).runDeflateJob(job),
  'read-ahead': runReadAheadJob,
});
