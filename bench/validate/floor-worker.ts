// A benchmark-only worker thread for the row (a‴) of bench/validate: the system calls any
// validator with the disk checks must make, and nothing else. Run by the app's own WorkerPool
// with the same jobs as (a), it walks its share of the library with the app's walk (readdir +
// lstat), reads every SKILL.md it finds, and answers with no units and how many files it read.
// Nothing is parsed or checked. Bundled by bench/validate/run.mjs.
import { readFileSync } from 'node:fs';
import { PartClaims } from '../../main/platform/part-claims';
import { serveWorkerJobs } from '../../main/platform/worker-pool';
import { skillsIn, walkSkillsSync, type WalkedEntry } from '../../main/skill-folder';
import type { SharedLibraryJob, SharedLibraryResult } from '../../main/validate/library-job';

/** What the floor worker answers: the pool's job result (no part reported), plus the SKILL.md files read. */
export interface FloorResult {
  done: 0;
  read: number;
}

function floor(shared: SharedLibraryJob): SharedLibraryResult {
  const claims = new PartClaims(shared.claims);
  let read = 0;
  for (let part = claims.takeFront(); part !== undefined; part = claims.takeFront())
    for (const dir of shared.parts[part] ?? []) {
      const children = new Map<string, WalkedEntry[]>();
      walkSkillsSync(shared.job.root, [dir], children);
      for (const f of skillsIn(children)) {
        readFileSync(`${shared.job.root}/${f.relDir}/${f.fileName}`, 'utf8');
        read++;
      }
    }
  const result: FloorResult = { done: 0, read };
  return result;
}

serveWorkerJobs({
  validate: floor,
  deflate: () => {
    throw new Error('The floor worker only walks.');
  },
  'read-ahead': () => {
    throw new Error('The floor worker only walks.');
  },
});
