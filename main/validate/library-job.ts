import { createHash } from 'node:crypto';
import type { ProfileId } from '../../shared/validation';
import { PartClaims } from '../platform/part-claims';
import { skillsIn, walkSkillsSync } from '../skill-folder';
import type { WalkedEntry, WalkedTree } from '../skill-folder';
import { validateInTree } from './in-tree';
import type { Validated } from './in-tree';

/**
 * Some of a library root's subfolders ("units"), each walked with everything under it,
 * fingerprinted and/or validated. The unit is what a listing reuses: when nothing
 * under a root subfolder changed, neither did the findings of the skills in it. The root itself
 * is never a skill here (such a library is validated as a whole on the calling thread).
 */
export interface LibraryJob {
  root: string;
  realRoot: string;
  /** Root subfolders (relative paths), each with everything under it. */
  dirs: string[];
  /** Fingerprint each folder (to see what changed since a memo was made). */
  stamp: boolean;
  /** Validate every skill found. */
  validate: boolean;
  profiles?: ProfileId[];
  /** Targets checked on top of each skill's own format when `profiles` is not given. */
  extraProfiles?: ProfileId[];
}

/** One root subfolder's outcome. */
export interface UnitResult {
  dir: string;
  /** Fingerprint of everything under the folder: paths, kinds, sizes, modification times, link targets ('' when not asked). */
  stamp: string;
  /** The skills under the folder, in path order (empty when not asked to validate). */
  validated: Validated[];
}

/** What a job found, unit by unit in the order of `dirs`. */
export interface LibraryJobResult {
  units: UnitResult[];
}

/**
 * A library job cut into parts that several threads share: each thread takes the next free part
 * (see {@link PartClaims}: workers from the front, the calling thread from the back) and runs
 * it as a job of its own.
 */
export interface SharedLibraryJob {
  /** The job; its `dirs` are the parts'. */
  job: Omit<LibraryJob, 'dirs'>;
  /** Root subfolders, part by part. */
  parts: string[][];
  /** The parts' claims ({@link PartClaims}'s buffer). */
  claims: SharedArrayBuffer;
}

/** One part's outcome, reported by the worker as soon as the part is done. */
export interface SharedPartResult {
  part: number;
  units: UnitResult[];
}

/** How many parts a worker did (their outcomes went out as reports). */
export interface SharedLibraryResult {
  done: number;
}

declare module '../platform/worker-pool' {
  interface WorkerJobKinds {
    /** Walk, fingerprint and/or validate parts of a library, taking them from the front (see {@link SharedLibraryJob}). */
    validate: { input: SharedLibraryJob; output: SharedLibraryResult; progress: SharedPartResult };
  }
}

/**
 * Files modified this recently make a fingerprint that never matches. Why: a file system with a
 * coarse clock (2 s on FAT) may show an edit made in the same tick as the fingerprint with an
 * unchanged size and time; such a folder is checked again next time instead (git's "racy clean" rule).
 */
export const RACY_MS = 2000;

/**
 * The fingerprint of a folder with a file changed in the last {@link RACY_MS}: it never matches
 * (see {@link sameStamp}). Why not a fresh value per call: fingerprints are kept between
 * processes (the listing cache), and a counter that starts again in each process gave the same
 * value twice, so an edit made within two seconds of the run before was taken as no change.
 */
export const RACY_STAMP = 'racy';

/** Whether a folder whose fingerprint was `kept` is unchanged now that it is `now`. */
export function sameStamp(kept: string | undefined, now: string): boolean {
  return kept === now && now !== RACY_STAMP;
}

/** Fingerprint a walked subtree. Why sorted: the order readdir returns names in is the file system's business. */
export function stampOf(children: Map<string, WalkedEntry[]>, now = Date.now()): string {
  const hash = createHash('sha1');
  let racy = false;
  for (const dir of [...children.keys()].sort()) {
    hash.update(`\u0000${dir}`);
    const entries = children.get(dir) ?? [];
    for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      hash.update(
        `\u0001${e.name}\u0002${e.kind}\u0002${e.size}\u0002${e.mtimeMs ?? 0}\u0002${e.target ?? ''}`,
      );
      if ((e.mtimeMs ?? 0) > now - RACY_MS) racy = true;
    }
  }
  const stamp = hash.digest('base64');
  return racy ? RACY_STAMP : stamp;
}

/** Walk one root subfolder; fingerprint it and validate its skills as the job asks. */
function runUnit(job: LibraryJob, dir: string): UnitResult {
  const children = new Map<string, WalkedEntry[]>();
  walkSkillsSync(job.root, [dir], children);
  const unit: UnitResult = { dir, stamp: job.stamp ? stampOf(children) : '', validated: [] };
  if (!job.validate) return unit;
  const tree: WalkedTree = { root: job.root, realRoot: job.realRoot, children };
  for (const f of skillsIn(children))
    unit.validated.push(
      validateInTree(tree, f.relDir, f.relDir, f.fileName, job.profiles, job.extraProfiles),
    );
  return unit;
}

/** Run one job on this thread (each part of a shared job, and the calling thread's way when there is no worker). */
export function runLibraryJob(job: LibraryJob): LibraryJobResult {
  return { units: job.dirs.map((dir) => runUnit(job, dir)) };
}

/**
 * A worker's side of a shared job: parts from the front until none is left, each reported as
 * soon as it is done. Why one report per part: the calling thread takes in each part's outcome
 * while it still has parts of its own, instead of all of them after its last.
 */
export function runSharedLibraryJob(
  shared: SharedLibraryJob,
  report: (part: SharedPartResult) => void,
): SharedLibraryResult {
  const claims = new PartClaims(shared.claims);
  let done = 0;
  for (let part = claims.takeFront(); part !== undefined; part = claims.takeFront()) {
    report({ part, ...runLibraryJob({ ...shared.job, dirs: shared.parts[part] ?? [] }) });
    done++;
  }
  return { done };
}
