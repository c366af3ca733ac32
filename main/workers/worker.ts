// Entry of the app's worker threads (built to out/main/worker.mjs): runs the jobs the shared
// pool (main/platform/worker-pool.ts) hands it, one at a time. Every registered job kind needs
// its handler here, or this file does not compile.
import { runDeflateJob } from '../platform/archive-writer';
import { serveWorkerJobs } from '../platform/worker-pool';
import { runLibraryJob } from '../validate/library-job';

serveWorkerJobs({ validate: runLibraryJob, deflate: runDeflateJob });
