// A benchmark-only worker thread for the row (a‴) of bench/validate: the system calls any
// validator with the disk checks must make, and nothing else. It walks its share of the
// library with the app's own walk (readdir + lstat), reads every SKILL.md it finds, and answers
// with how many it read. Nothing is parsed or checked. Bundled by bench/validate/run.mjs.
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { skillsIn, walkSubtreesSync } from '../../main/validate/file-view';
import type { WalkedEntry } from '../../main/validate/file-view';

/** One share of the library: root subfolders (relative paths), each with everything under it. */
export interface FloorJob {
  root: string;
  dirs: string[];
}

parentPort?.on('message', (job: FloorJob) => {
  let skills = 0;
  let chars = 0;
  for (const dir of job.dirs) {
    const children = new Map<string, WalkedEntry[]>();
    walkSubtreesSync(job.root, [dir], children);
    for (const f of skillsIn(children)) {
      chars += readFileSync(`${job.root}/${f.relDir}/${f.fileName}`, 'utf8').length;
      skills++;
    }
  }
  parentPort?.postMessage({ skills, chars });
});
