/**
 * The safety review for the app and the command line: review a skill folder or files in memory,
 * with the user's "Trust anyway" applied, and find the skills a path holds.
 */
import { basename, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { reviewSkill, withAcceptance } from '../../shared/safety';
import type { SafetyAcceptance, SafetyReport, SafetyReviewResult } from '../../shared/safety';
import { mapLimit } from '../platform/concurrency';
import { findSkillFolders, readSkillFolder, type SkillFolder } from '../skill-folder';
import {
  acceptanceFor,
  readAcceptances,
  recordAcceptance,
  type AcceptanceRecord,
} from './acceptances';
import {
  hashOfBytes,
  readForReview,
  reviewInputFromBytes,
  reviewInputOfFolder,
  sameFiles,
  type ReadForReview,
} from './read-skill';

/** The review of one skill, with where it is and its content hash. */
export type ReviewedSkill = SafetyReviewResult;

/** The skill's name: the frontmatter `name` when it is a plain string, else the folder name. */
function nameOf(data: unknown, fallback: string): string {
  const name =
    typeof data === 'object' && data !== null ? (data as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim().slice(0, 200) : fallback;
}

/** Apply the acceptance recorded for the review's hash, if one holds. */
export function applyAcceptance(
  reviewed: Omit<ReviewedSkill, 'accepted'>,
  records: readonly AcceptanceRecord[],
): ReviewedSkill {
  // Why these first: the hash may be computed only when asked for (ReadForReview.hash).
  if (records.length === 0 || reviewed.report.findings.length === 0) return reviewed;
  const a = acceptanceFor(records, reviewed.hash);
  if (!a) return reviewed;
  const accepted: SafetyAcceptance = {
    reason: a.reason,
    expires: a.expires,
    acceptedAt: a.acceptedAt,
  };
  return { ...reviewed, report: withAcceptance(reviewed.report, accepted), accepted };
}

/** Review the skill folder `dir`; `dataDir` (the user-data folder) brings the acceptances. */
export async function reviewSkillFolder(dir: string, dataDir?: string): Promise<ReviewedSkill> {
  const read = await readForReview(resolve(dir));
  const records = dataDir !== undefined ? await readAcceptances(dataDir) : [];
  return reviewRead(read, records);
}

/** A review kept for one input (by {@link ReadForReview.key}): the skill's name and the report before any "Trust anyway". */
export interface KeptReview {
  name: string;
  report: SafetyReport;
}

/**
 * Reviews kept by the key of exactly what they reviewed (the embedded server keeps them with its
 * checks, in the user-data folder, for this build only): the review is a pure function of its
 * input, so the same key gives the same report without running the rules again.
 */
export interface ReviewMemo {
  entries: Map<string, KeptReview>;
  /** Keys used or added since the memo was last pruned. */
  used: Set<string>;
  /** Set when a review was added. */
  added: boolean;
}

const VERDICTS: ReadonlySet<unknown> = new Set(['clear', 'review', 'danger']);
const SEVERITIES: ReadonlySet<unknown> = new Set(['low', 'medium', 'high', 'critical']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isKeptReview(v: unknown): v is KeptReview {
  if (!isObject(v) || typeof v['name'] !== 'string') return false;
  const r = v['report'];
  return (
    isObject(r) &&
    VERDICTS.has(r['verdict']) &&
    typeof r['headline'] === 'string' &&
    typeof r['summary'] === 'string' &&
    isObject(r['capabilities']) &&
    Array.isArray(r['notExamined']) &&
    r['notExamined'].every(
      (n) => isObject(n) && typeof n['path'] === 'string' && typeof n['reason'] === 'string',
    ) &&
    Array.isArray(r['findings']) &&
    r['findings'].every(
      (f) =>
        isObject(f) &&
        SEVERITIES.has(f['severity']) &&
        Number.isFinite(f['line']) &&
        ['rule', 'category', 'file', 'title', 'detail', 'why', 'action'].every(
          (k) => typeof f[k] === 'string',
        ),
    )
  );
}

/**
 * The reviews in what a cache file held, each checked for the shape a review has; anything else
 * is left out (and that skill reviewed again). Why: the file is read back with v8.deserialize,
 * which gives whatever objects were written; a damaged or foreign file must cost a review, never
 * a crash.
 */
export function keptReviewsFrom(value: unknown): Map<string, KeptReview> {
  const out = new Map<string, KeptReview>();
  if (!(value instanceof Map)) return out;
  for (const [key, review] of value as Map<unknown, unknown>)
    if (typeof key === 'string' && isKeptReview(review)) out.set(key, review);
  return out;
}

/**
 * End a run over the memo: drop the reviews it did not use (a skill changed or gone), and say
 * whether what is kept changed since it was loaded (worth writing again).
 */
export function settleReviewMemo(memo: ReviewMemo): boolean {
  const changed = memo.added || memo.entries.size > memo.used.size;
  for (const key of memo.entries.keys()) if (!memo.used.has(key)) memo.entries.delete(key);
  memo.used = new Set();
  memo.added = false;
  return changed;
}

/** Review what was read of a skill folder, with `records` applied; `memo` answers an input it has seen. */
export function reviewRead(
  read: ReadForReview,
  records: readonly AcceptanceRecord[],
  memo?: ReviewMemo,
): ReviewedSkill {
  let kept = memo?.entries.get(read.key);
  if (!kept) {
    kept = {
      name: nameOf(read.input.frontmatter?.data, read.folder.folderName),
      report: reviewSkill(read.input),
    };
    if (memo) {
      memo.entries.set(read.key, kept);
      memo.added = true;
    }
  }
  memo?.used.add(read.key);
  const { name, report } = kept;
  return applyAcceptance(
    {
      path: read.folder.dir,
      name,
      // Why a getter: the content hash is computed only if someone reads it (a decision to match).
      get hash() {
        return read.hash;
      },
      report,
    },
    records,
  );
}

/** A review already made of files held in memory, with those files and their content hash. */
export interface BytesReview {
  files: ReadonlyMap<string, Uint8Array>;
  hash: string;
  report: SafetyReport;
}

/**
 * Review files held in memory (a remote skill before Save, an archive before import). `earlier`,
 * a review made before of files that turn out to hold exactly the same bytes (compared byte for
 * byte, never by name or hash alone), is taken instead of reviewing them again: the review is a
 * pure function of the bytes.
 */
export async function reviewSkillBytes(
  label: string,
  files: ReadonlyMap<string, Uint8Array>,
  dataDir?: string,
  earlier?: BytesReview,
): Promise<ReviewedSkill> {
  const input = reviewInputFromBytes(files);
  const same = earlier !== undefined && sameFiles(earlier.files, files);
  const report = same ? earlier.report : reviewSkill(input);
  const records = dataDir !== undefined ? await readAcceptances(dataDir) : [];
  return applyAcceptance(
    {
      path: label,
      name: nameOf(input.frontmatter?.data, basename(label)),
      hash: same ? earlier.hash : hashOfBytes(files),
      report,
    },
    records,
  );
}

/** The longest a "Trust anyway" holds, in days. */
export const TRUST_MAX_DAYS = 365;

/** Record "Trust anyway" for a reviewed skill: `days` from now (1 to TRUST_MAX_DAYS), with the user's reason. */
export async function trustAnyway(
  dataDir: string,
  reviewed: Pick<ReviewedSkill, 'hash' | 'name' | 'path' | 'report'>,
  reason: string,
  days: number,
): Promise<SafetyAcceptance> {
  const now = new Date();
  const acceptance: SafetyAcceptance = {
    reason: reason.trim().slice(0, 2000),
    acceptedAt: now.toISOString(),
    expires: new Date(
      now.getTime() + Math.max(1, Math.min(days, TRUST_MAX_DAYS)) * 86_400_000,
    ).toISOString(),
  };
  await recordAcceptance(dataDir, {
    ...acceptance,
    hash: reviewed.hash,
    name: reviewed.name,
    path: reviewed.path,
    findings: reviewed.report.findings.length,
    verdict: reviewed.report.verdict,
  });
  return acceptance;
}

/**
 * The skill folders a PATH names, as walked: itself when it holds SKILL.md, else every skill
 * under it, each from the one walk that found it (the review reads it from there, instead of
 * walking each skill again).
 */
export async function skillFoldersAt(path: string): Promise<SkillFolder[]> {
  const abs = resolve(path);
  const st = await stat(abs);
  if (!st.isDirectory()) {
    if (/^skill\.md$/i.test(basename(abs))) return [await readSkillFolder(resolve(abs, '..'))];
    throw new Error(`${abs} is not a folder. Give a skill folder or a folder of skills.`);
  }
  const found = await findSkillFolders(abs, { folders: true });
  return found.flatMap((f) => (f.folder ? [f.folder] : []));
}

/**
 * Review skill folders already walked ({@link skillFoldersAt}), in order, with the "Trust anyway"
 * decisions in `dataDir` read once for all of them; `memo` answers an input it has seen.
 */
export async function reviewSkillFolders(
  folders: readonly SkillFolder[],
  dataDir?: string,
  memo?: ReviewMemo,
): Promise<ReviewedSkill[]> {
  const records = dataDir !== undefined ? await readAcceptances(dataDir) : [];
  // Why two at a time: one folder's reads overlap another's rules.
  return mapLimit(folders, 2, async (folder) =>
    reviewRead(await reviewInputOfFolder(folder), records, memo),
  );
}
