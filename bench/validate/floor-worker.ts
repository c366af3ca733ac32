// A benchmark-only worker thread for the row (a‴) of bench/validate: the system calls any
// validator with the disk checks must make, and nothing else. Run by the app's own
// ValidationPool with the same jobs as (a), it walks its share of the library with the app's walk
// (readdir + lstat), reads every SKILL.md it finds, and answers in the pool's reply shape with no
// units and how many files it read. Nothing is parsed or checked. Bundled by bench/validate/run.mjs.
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { LibraryJob } from '../../main/validate/library-job';
import { skillsIn, walkSubtreesSync } from '../../main/validate/file-view';
import type { WalkedEntry } from '../../main/validate/file-view';
import type { WorkerReply } from '../../main/validate/workers';

/** What the floor worker answers: the pool's job result with no units, plus the SKILL.md files read. */
export interface FloorResult {
  units: [];
  read: number;
}

parentPort?.on('message', (job: LibraryJob) => {
  let read = 0;
  for (const dir of job.dirs) {
    const children = new Map<string, WalkedEntry[]>();
    walkSubtreesSync(job.root, [dir], children);
    for (const f of skillsIn(children)) {
      readFileSync(`${job.root}/${f.relDir}/${f.fileName}`, 'utf8');
      read++;
    }
  }
  const result: FloorResult = { units: [], read };
  const reply: WorkerReply = { ok: true, result };
  parentPort?.postMessage(reply);
});
