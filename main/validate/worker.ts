// Entry of a validation worker thread (built to out/main/validate-worker.mjs): runs the library
// and deflate jobs main/validate/workers.ts hands it, one at a time, and answers each with its result.
import { parentPort } from 'node:worker_threads';
import { runLibraryJob } from './library-job';
import { deflateAll } from '../pack/deflate';
import type { WorkerJob, WorkerReply } from './workers';

const port = parentPort;
if (port) {
  port.on('message', (job: WorkerJob) => {
    let reply: WorkerReply;
    try {
      reply = {
        ok: true,
        result:
          'kind' in job ? { deflated: deflateAll(job.buffers, job.level) } : runLibraryJob(job),
      };
    } catch (error) {
      reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}
