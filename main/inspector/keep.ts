/**
 * "Keep it": write a verified skill into a library root, atomically (a temp
 * folder beside the target, then one rename), refusing when any file fails verification. When
 * the folder exists the user chooses, as for an import: keep both (`name-N`) or replace (the
 * old folder goes to the trash). Where it came from — server, URI, digests, date — goes into the app's data
 * folder (`inspector-provenance.json`), never into the skill.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { renameSkillText, skillFolderNameProblem } from '../../shared/projection';
import { FIELD_LIMITS } from '../../shared/validation';
import { writeFileAtomic } from '../platform/atomic-write';
import { isPlainRelativePath, resolveInside } from '../platform/paths';
import { exists, freeFolderName, writeFolder, type FolderFile } from '../platform/staged-folder';
import type { ProvenanceRecord, SaveResult, SkillVerification } from './types';
import { count } from '../../shared/text/words';

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
      message: `Not ${what}: ${failures.length === 0 ? 'some files' : count(failures.length, 'file')} of ${skill.uri} ${failures.length === 1 ? 'is' : 'are'} not verified.`,
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

/** What Save does when the library already has a folder of the skill's name (as import asks). */
export interface KeepOptions {
  /** Keep both (save as the suggested `name-N`), or replace the existing folder (it goes to the trash). */
  onConflict?: 'rename' | 'replace';
  /** Where a replaced folder goes (default: Skillbench's trash in the user-data folder). */
  trashDir?: string;
}

/** What Save will write, and where: decided before the safety review, which checks these bytes. */
export interface KeepPlan {
  /** The folder name, which is also the `name` in SKILL.md (the server's, or the free `name-N`). */
  name: string;
  /** `<library root>/<name>`. */
  target: string;
  parent: string;
  files: FolderFile[];
  /** The server's name, when the skill is kept under another one. */
  renamedFrom?: string;
  /** True when an existing folder at `target` goes to the trash. */
  replace: boolean;
}

/**
 * Where a verified skill goes in `folderParent` and with which bytes, or the refusal. A name
 * already taken is returned as a `conflict` with a free `name-N` suggestion unless the caller
 * chose: `rename` keeps both (the SKILL.md `name` changed to the folder's, as import does), and
 * `replace` moves the existing folder to the trash when written. Nothing is written here.
 */
export async function planVerifiedFolder(
  skill: VerifiedSkillFiles,
  folderParent: string,
  options: KeepOptions = {},
): Promise<{ ok: true; plan: KeepPlan } | Extract<SaveResult, { ok: false }>> {
  const verified = verifiedFolderFiles(skill);
  if (!verified.ok) return verified;
  const parent = resolve(folderParent);
  let name = skill.name;
  let files = verified.files;
  let renamedFrom: string | undefined;
  let target = join(parent, name);
  // Why the link policy: the folder must be a direct child of the library root, and replacing
  // moves whatever is there (a link included, never what it points to) to the trash.
  const place = await resolveInside(parent, name);
  if (!place.ok || dirname(place.value.path) !== parent)
    return {
      ok: false,
      reason: 'invalid',
      message: `The skill name "${skill.name}" would be saved outside ${parent}. Nothing was saved.`,
    };
  if (place.value.kind !== 'missing') {
    const suggestion = await freeFolderName(parent, name, FIELD_LIMITS.nameMax);
    if (options.onConflict === 'rename') {
      renamedFrom = name;
      name = suggestion;
      target = join(parent, name);
      // Why: the name must equal the folder name (docs/skill-format.md §2 agentskills).
      files = files.map((f) =>
        f.path === 'SKILL.md'
          ? { ...f, data: Buffer.from(renameSkillText(f.data.toString('utf8'), name), 'utf8') }
          : f,
      );
    } else if (options.onConflict !== 'replace') {
      return {
        ok: false,
        reason: 'conflict',
        message: `Your library already has a skill folder named ${skill.name}. Keep both (save this one as ${suggestion}), replace the existing one (it goes to the trash), or cancel.`,
        folder: target,
        suggestion,
      };
    }
  }
  return {
    ok: true,
    plan: {
      name,
      target,
      parent,
      files,
      ...(renamedFrom !== undefined ? { renamedFrom } : {}),
      replace: options.onConflict === 'replace',
    },
  };
}

/** Write a {@link KeepPlan} atomically (a staged folder, then one rename); no provenance. */
export async function writePlannedFolder(
  skill: VerifiedSkillFiles,
  plan: KeepPlan,
  trashDir?: string,
): Promise<SaveResult> {
  let trashedTo: string | undefined;
  try {
    // Why the staged writer: the folder appears whole in one rename, or not at all; a replaced
    // folder goes to the trash just before, so nothing is lost.
    ({ trashedTo } = await writeFolder(plan.target, plan.files, {
      replace: plan.replace,
      trashDir,
    }));
  } catch (error) {
    if (!plan.replace && (await exists(plan.target)))
      return {
        ok: false,
        reason: 'conflict',
        message: `A folder named "${plan.name}" appeared in ${plan.parent} while saving. Nothing was changed.`,
        folder: plan.target,
      };
    throw error;
  }
  const provenance: ProvenanceRecord = {
    name: plan.name,
    folder: plan.target,
    libraryRoot: plan.parent,
    server: skill.server,
    uri: skill.uri,
    ...(plan.renamedFrom !== undefined ? { renamedFrom: plan.renamedFrom } : {}),
    files: skill.verification.files.map((f) => ({
      path: f.path as string,
      uri: f.uri,
      digest: f.actual?.digest ?? '',
      size: f.actual?.size ?? 0,
    })),
    savedAt: new Date().toISOString(),
  };
  return {
    ok: true,
    name: plan.name,
    folder: plan.target,
    files: plan.files.length,
    provenance,
    ...(plan.renamedFrom !== undefined ? { renamedFrom: plan.renamedFrom } : {}),
    ...(trashedTo !== undefined ? { trashedTo } : {}),
  };
}

/** Write the skill's verified files into `<folderParent>/<name>/` atomically; no provenance. */
export async function writeVerifiedFolder(
  skill: VerifiedSkillFiles,
  folderParent: string,
  options: KeepOptions = {},
): Promise<SaveResult> {
  const planned = await planVerifiedFolder(skill, folderParent, options);
  if (!planned.ok) return planned;
  return writePlannedFolder(skill, planned.plan, options.trashDir);
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
