import type { ProfileId } from '../../shared/validation';
import { skillFileNameIn, walkSubtreesSync } from './file-view';
import type { WalkedEntry, WalkedTree } from './file-view';
import { validateInTree } from './in-tree';
import type { Validated } from './in-tree';

/**
 * A share of a library for one validation worker: some of the root's subfolders, walked (or
 * given already walked) and, when asked, every skill under them validated. The root itself is
 * never a skill here (such a library is validated on the calling thread).
 */
export interface LibraryJob {
  root: string;
  realRoot: string;
  /** Root subfolders (relative paths) this job covers, with everything under them. */
  dirs: string[];
  /** Their listings when the caller already walked them; otherwise the job walks. */
  children?: [string, WalkedEntry[]][];
  /** Validate the skills found; false: walk only. */
  validate: boolean;
  /** Send the walked listings back (the caller wants the tree, not only the findings). */
  returnTree: boolean;
  profiles?: ProfileId[];
}

/** What a job found: the listings it walked (none when they were given) and the validated skills, in folder order. */
export interface LibraryJobResult {
  children?: [string, WalkedEntry[]][];
  validated: Validated[];
}

/** Run one job on this thread (the validation worker's whole body; also the fallback when no worker can start). */
export function runLibraryJob(job: LibraryJob): LibraryJobResult {
  const children = new Map<string, WalkedEntry[]>(job.children);
  if (!job.children) walkSubtreesSync(job.root, job.dirs, children);
  const result: LibraryJobResult = { validated: [] };
  // Why only on request: copying thousands of listings back to the main thread is a cost of its own.
  if (!job.children && job.returnTree) result.children = [...children];
  if (!job.validate) return result;
  const tree: WalkedTree = { root: job.root, realRoot: job.realRoot, children };
  const found: { relDir: string; fileName: string }[] = [];
  for (const [relDir, entries] of children) {
    const fileName = skillFileNameIn(entries);
    if (fileName !== undefined) found.push({ relDir, fileName });
  }
  found.sort((a, b) => (a.relDir < b.relDir ? -1 : a.relDir > b.relDir ? 1 : 0));
  for (const f of found) result.validated.push(validateInTree(tree, f.relDir, f.relDir, f.fileName, job.profiles));
  return result;
}
