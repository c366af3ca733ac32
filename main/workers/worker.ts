// Entry of the app's worker threads (built to out/main/worker.mjs): runs the jobs the shared
// pool (main/platform/worker-pool.ts) hands it, one at a time. Every registered job kind needs
// its handler here, or this file does not compile.
//
// Why validation and the archive writer load on first use: a worker that only reads a library
// ahead of the main thread (read-ahead) must start in the time the main thread loads its own
// modules, and those two bring most of this bundle (yaml, the rules, the zip writer).
import { runReadAheadJob } from '../skill-folder/read-ahead';
import { serveWorkerJobs } from '../platform/worker-pool';

serveWorkerJobs({
  validate: async (job) => (await import('../validate/library-job')).runLibraryJob(job),
  deflate: async (job) => (await import('../platform/archive-writer')).runDeflateJob(job),
  'read-ahead': runReadAheadJob,
});
