/**
 * "Keep it": write a verified skill into a library root, atomically (a temp
 * folder beside the target, then one rename), refusing when any file fails verification or the
 * folder exists. Where it came from — server, URI, digests, date — goes into the app's data
 * folder (`inspector-provenance.json`), never into the skill.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { skillFolderNameProblem } from '../../shared/projection';
import { writeFileAtomic } from '../platform/atomic-write';
import { isPlainRelativePath } from '../platform/paths';
import { exists, writeFolder, type FolderFile } from '../platform/staged-folder';
import type { ProvenanceRecord, SaveResult, SkillVerification } from './types';

/** File name of the provenance records inside the data folder. */
export const PROVENANCE_FILE = 'inspector-provenance.json';

export type { ProvenanceRecord, SaveResult } from './types';

/** What {@link saveVerifiedSkill} needs: the verification and the verified bytes by URI. */
export interface VerifiedSkillFiles {
  name: string;
  uri: string;
  verification: SkillVerification;
  bytes: ReadonlyMap<string, Uint8Array>;
  server: ProvenanceRecord['server'];
}

/**
 * The files of a skill exactly as verified (its path and the verified bytes of each), or the
 * refusal: any file that is not verified (unverifiable ones, on a legacy route or without
 * digests, included), or a name that cannot be a folder name. Save and install both use it.
 */
export function verifiedFolderFiles(
  skill: VerifiedSkillFiles,
  what = 'saved',
):
  | { ok: true; files: FolderFile[] }
  | (Extract<SaveResult, { ok: false }> & { reason: 'verification' | 'invalid' }) {
  const v = skill.verification;
  const failures = v.files.filter((f) => f.status !== 'verified');
  // Why: refuse if any file fails verification; unverifiable (legacy, dynamic) counts as not verified.
  if (v.verdict !== 'verified' || failures.length > 0) {
    return {
      ok: false,
      reason: 'verification',
      message: `Not ${what}: ${failures.length || 'some'} file(s) of ${skill.uri} are not verified.`,
      failures: failures.map((f) => ({ uri: f.uri, status: f.status, reasons: f.reasons })),
    };
  }
  // Why: the name becomes a folder name; a hostile name such as "../x" or ".git" must not
  // leave the library or turn it into something else.
  const nameProblem = skillFolderNameProblem(skill.name);
  if (nameProblem !== undefined)
    return {
      ok: false,
      reason: 'invalid',
      message: `The skill name "${skill.name}" cannot be used as a folder name: it ${nameProblem}. Nothing was ${what}.`,
    };
  const files: FolderFile[] = [];
  for (const f of v.files) {
    const bytes = skill.bytes.get(f.uri);
    if (!f.path || !bytes) throw new Error(`The verified bytes of ${f.uri} are missing.`);
    // Why: paths come from the server; each segment was checked, and this re-checks the whole.
    if (!isPlainRelativePath(f.path))
      throw new Error(`${f.path} would be written outside the skill folder.`);
    files.push({ path: f.path, data: Buffer.from(bytes), mode: 0o644 });
  }
  return { ok: true, files };
}

/** Write the skill's verified files into `<folderParent>/<name>/` atomically; no provenance. */
export async function writeVerifiedFolder(
  skill: VerifiedSkillFiles,
  folderParent: string,
): Promise<SaveResult & { ok: boolean }> {
  const v = skill.verification;
  const verified = verifiedFolderFiles(skill);
  if (!verified.ok) return verified;
  const { files } = verified;
  const parent = resolve(folderParent);
  const target = join(parent, skill.name);
  if (await exists(target))
    return {
      ok: false,
      reason: 'conflict',
      message: `A folder named "${skill.name}" already exists in ${parent}. Rename or remove it first.`,
      folder: target,
    };
  try {
    // Why the staged writer: the folder appears whole in one rename, or not at all.
    await writeFolder(target, files);
  } catch (error) {
    if (await exists(target))
      return {
        ok: false,
        reason: 'conflict',
        message: `A folder named "${skill.name}" appeared in ${parent} while saving. Nothing was changed.`,
        folder: target,
      };
    throw error;
  }
  const provenance: ProvenanceRecord = {
    name: skill.name,
    folder: target,
    libraryRoot: parent,
    server: skill.server,
    uri: skill.uri,
    files: v.files.map((f) => ({
      path: f.path as string,
      uri: f.uri,
      digest: f.actual?.digest ?? '',
      size: f.actual?.size ?? 0,
    })),
    savedAt: new Date().toISOString(),
  };
  return { ok: true, folder: target, files: v.files.length, provenance };
}

/** Append a provenance record to `<dataDir>/inspector-provenance.json` (atomic rewrite). */
export async function recordProvenance(dataDir: string, record: ProvenanceRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, PROVENANCE_FILE);
  let records: ProvenanceRecord[] = [];
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { records?: ProvenanceRecord[] };
    if (Array.isArray(parsed.records)) records = parsed.records;
  } catch {
    records = [];
  }
  records.push(record);
  await writeFileAtomic(path, `${JSON.stringify({ version: 1, records }, null, 2)}\n`);
}

/** Every provenance record. */
export async function readProvenance(dataDir: string): Promise<ProvenanceRecord[]> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, PROVENANCE_FILE), 'utf8')) as {
      records?: ProvenanceRecord[];
    };
    return Array.isArray(parsed.records) ? parsed.records : [];
  } catch {
    return [];
  }
}
