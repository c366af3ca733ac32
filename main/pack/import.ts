import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  DEFAULT_IMPORT_LIMITS,
  findSkillRoots,
  projectSkillText,
  renameSkillText,
  skillFolderNameProblem,
  type ImportLimits,
  type ImportPreview,
  type ImportResult,
  type PreviewSkill,
  type SourceFormat,
  type ValidateFn,
} from '../../shared/projection';
import { reviewSkill, type TrustRequest } from '../../shared/safety';
import { chooseProfiles, FIELD_LIMITS, validateSkill } from '../../shared/validation';
import type { ProfileId } from '../../shared/validation';
import { parseSkill } from '../../shared/skill';
import { passGate } from '../safety/gate';
import { hashOfBytes, reviewInputFromBytes } from '../safety/read-skill';
import { applyAcceptance, reviewSkillBytes, type BytesReview } from '../safety/service';
import { readAcceptances } from '../safety/acceptances';
import { readImportSource, type ReadEntry } from './archive-reader';
import {
  commitFolder,
  diffFolder,
  exists,
  freeFolderName,
  stageFolder,
  type FolderFile,
} from '../platform/staged-folder';

/** Options for {@link previewImport}. */
export interface ImportOptions {
  /** Override the default limits (512 files, 16 MiB, 100:1, depth 32). */
  limits?: Partial<ImportLimits>;
  /** When the source holds several skills: the root folder (as listed in the preview) to import. */
  pick?: string;
  /** Checks shown in the preview; default: the validation core (`validateSkill`). */
  validate?: ValidateFn;
  /** The user-data folder, where "Trust anyway" decisions are kept (main/safety/acceptances.ts). */
  dataDir?: string;
  /** Targets checked on top of the skill's own format, as in the library list (the app's Settings). */
  extraProfiles?: ProfileId[];
}

/** Options for {@link importSkill}. */
export interface ImportSkillOptions extends ImportOptions {
  /** The library root that receives `<name>/`. It must exist. */
  into: string;
  /** What to do when `<into>/<name>` exists: rename to the suggestion, or replace (old copy to the trash). */
  onConflict?: 'rename' | 'replace';
  /** Where replaced copies go (default: Skillbench's trash in the user-data folder). */
  trashDir?: string;
  /** Import a skill the safety review calls "Don't trust" anyway (recorded with `dataDir`). */
  trust?: TrustRequest;
}

/** True when `name` is usable as a library folder name (see skillFolderNameProblem). */
function usableName(name: string | undefined): name is string {
  return name !== undefined && skillFolderNameProblem(name) === undefined;
}

/** The source's base name without archive extensions. */
function stem(source: string): string {
  return basename(source).replace(/\.(zip|skill|tar\.gz|tgz|tar)$/i, '');
}

/**
 * The bytes each preview's safety review saw, and its raw report (before any "Trust anyway"):
 * an import of the same bytes takes that review instead of making it again.
 */
const previewReviews = new WeakMap<PreviewSkill, BytesReview>();

/** Group the read entries into skills. */
function toPreview(
  source: string,
  format: SourceFormat,
  entries: ReadEntry[],
  ignored: string[],
  nameHint: string | undefined,
  validate: ValidateFn,
  extraProfiles: readonly ProfileId[] = [],
): ImportPreview {
  const files = entries.filter((e) => !e.directory);
  const byPath = new Map(files.map((f) => [f.path, f]));
  const roots = findSkillRoots(files.map((f) => f.path));
  if (roots.length === 0) {
    return {
      status: 'refused',
      refusal: {
        code: 'no-skill',
        message:
          'No SKILL.md was found, so this is not a skill. A skill is a folder with a SKILL.md file in it.',
        detail: `${files.length} files, none named SKILL.md`,
      },
    };
  }
  const claimed = new Set<string>();
  const skills: PreviewSkill[] = roots.map((root) => {
    const prefix = root.root ? `${root.root}/` : '';
    const mine = entries.filter((e) => e.path.startsWith(prefix));
    mine.forEach((e) => claimed.add(e.path));
    const skillEntry = byPath.get(root.skillFile) as ReadEntry;
    const skillText = skillEntry.data.toString('utf8');
    const frontmatterName = projectSkillText(skillText, {
      frontmatter: 'unchanged',
      toolsJson: false,
    }).name;
    const folder = root.root
      ? root.root.split('/').pop()
      : format === 'skill-md' || format === 'folder'
        ? nameHint
        : stem(source);
    const name = usableName(frontmatterName)
      ? frontmatterName
      : usableName(folder)
        ? folder
        : 'imported-skill';
    // Why a note: the skill's own name was set aside, and the person importing it should know why.
    const problem =
      frontmatterName !== undefined && frontmatterName !== name
        ? skillFolderNameProblem(frontmatterName)
        : undefined;
    const nameNote =
      problem === undefined
        ? undefined
        : `The skill calls itself "${frontmatterName}", which cannot be a folder name: it ${problem}. It is imported as "${name}", and the name in its SKILL.md is changed to match.`;
    // Why the renamed text in the preview: it is what will be written, and what is checked.
    const shownText = nameNote === undefined ? skillText : renameSkillText(skillText, name);
    const skillFiles = mine
      .filter((e) => !e.directory)
      .map((e) => ({
        path: e.path === root.skillFile ? 'SKILL.md' : e.path.slice(prefix.length),
        source: e.path,
        size: e.data.length,
        mode: e.mode,
      }));
    const dirs = mine.filter((e) => e.directory).map((e) => e.path.slice(prefix.length));
    // Why the list's own choice of profiles: the preview must agree with the list after import.
    const choice = chooseProfiles(parseSkill(shownText), undefined, extraProfiles);
    const diagnostics = validate(shownText, {
      profiles: choice.profiles,
      ownProfiles: choice.own,
      fileView: {
        folderName: name,
        fileName: 'SKILL.md',
        entries: [
          ...dirs.map((d) => ({ path: d, kind: 'directory' as const, size: 0 })),
          ...skillFiles.map((f) => ({ path: f.path, kind: 'file' as const, size: f.size })),
        ],
      },
    }).diagnostics;
    // The review sees the files as they would be written (SKILL.md renamed when it must be).
    const bytes = new Map<string, Uint8Array>();
    for (const f of skillFiles) {
      const data = (byPath.get(f.source) as ReadEntry).data;
      bytes.set(f.path, f.path === 'SKILL.md' ? Buffer.from(shownText, 'utf8') : data);
    }
    const label = `${source}${root.root ? `#${root.root}` : ''}`;
    const reviewed: BytesReview = {
      files: bytes,
      hash: hashOfBytes(bytes),
      report: reviewSkill(reviewInputFromBytes(bytes)),
    };
    const safety = { path: label, name, hash: reviewed.hash, report: reviewed.report };
    const skill: PreviewSkill = {
      root: root.root,
      name,
      safety,
      files: skillFiles,
      dirs,
      bytes: skillFiles.reduce((s, f) => s + f.size, 0),
      skillText: shownText,
      diagnostics,
      ...(nameNote !== undefined ? { nameNote } : {}),
    };
    previewReviews.set(skill, reviewed);
    return skill;
  });
  const outside = files.filter((f) => !claimed.has(f.path)).map((f) => f.path);
  return { status: 'ok', format, skills, ignored, outside };
}

/**
 * The source read within its limits, its preview and the bytes read (none when refused): what
 * preview and import both start from.
 */
async function readPreview(
  source: string,
  options: ImportOptions,
): Promise<{ preview: ImportPreview; entries: ReadEntry[] }> {
  const read = await readImportSource(source, { ...DEFAULT_IMPORT_LIMITS, ...options.limits });
  if (!read.ok) return { preview: { status: 'refused', refusal: read.refusal }, entries: [] };
  const preview = toPreview(
    source,
    read.format,
    read.entries,
    read.ignored,
    read.nameHint,
    options.validate ?? validateSkill,
    options.extraProfiles,
  );
  return { preview, entries: read.entries };
}

/**
 * Read and check an import source, and list the skills in it with their files; nothing is
 * written. Refuses hostile archives with a plain message (see readImportSource).
 */
export async function previewImport(
  source: string,
  options: ImportOptions = {},
): Promise<ImportPreview> {
  const { preview } = await readPreview(source, options);
  if (preview.status === 'ok' && options.dataDir !== undefined) {
    const records = await readAcceptances(options.dataDir);
    for (const s of preview.skills) if (s.safety) s.safety = applyAcceptance(s.safety, records);
  }
  return preview;
}

/**
 * Import a skill into a library root: everything is read and checked first, then written to a
 * staging folder and renamed into place, so a refusal leaves the library untouched. Name
 * conflicts are returned for the caller to decide (rename, replace, or cancel).
 */
export async function importSkill(
  source: string,
  options: ImportSkillOptions,
): Promise<ImportResult> {
  const into = resolve(options.into);
  const intoStat = await stat(into).catch(() => undefined);
  if (!intoStat)
    throw new Error(
      `The library folder ${into} does not exist. Create it first, or choose another folder.`,
    );
  if (!intoStat.isDirectory())
    throw new Error(`${into} is a file, not a folder. Choose the library folder to import into.`);
  const { preview, entries } = await readPreview(source, options);
  if (preview.status === 'refused') return preview;

  let skill: PreviewSkill | undefined;
  if (options.pick !== undefined) {
    skill = preview.skills.find((s) => s.root === options.pick);
    if (!skill)
      return {
        status: 'choose',
        message: `There is no skill at "${options.pick}" in this archive. Pick one of: ${preview.skills.map((s) => s.root || '(root)').join(', ')}.`,
        skills: preview.skills,
      };
  } else if (preview.skills.length > 1) {
    // Why: importing several skills at once from one archive hides what lands in the library.
    return {
      status: 'choose',
      message: `This archive holds ${preview.skills.length} skills (${preview.skills.map((s) => s.root || '(root)').join(', ')}). Pick the one to import.`,
      skills: preview.skills,
    };
  } else {
    skill = preview.skills[0];
  }

  const bySource = new Map(entries.map((e) => [e.path, e]));
  const filesNamed = (folderName: string, renamed: boolean): FolderFile[] =>
    skill.files.map((f) => {
      let data = (bySource.get(f.source) as ReadEntry).data;
      if (f.path === 'SKILL.md' && (renamed || skill.nameNote !== undefined)) {
        // Why: the name must equal the folder name (docs/skill-format.md §2 agentskills), so a renamed import gets its name updated.
        data = Buffer.from(renameSkillText(data.toString('utf8'), folderName), 'utf8');
      }
      return { path: f.path, data, mode: f.mode };
    });

  let name = skill.name;
  let renamedFrom: string | undefined;
  let dest = join(into, name);
  if (await exists(dest)) {
    const suggestion = await freeFolderName(into, name, FIELD_LIMITS.nameMax);
    if (options.onConflict === 'rename') {
      renamedFrom = name;
      name = suggestion;
      dest = join(into, name);
    } else if (options.onConflict !== 'replace') {
      // Why compared: importing the same skill twice is common, and "rename or replace" would
      // then offer a second copy or a trip to the trash for nothing.
      const diff = await diffFolder(dest, filesNamed(name, false)).catch(() => undefined);
      const identical =
        diff !== undefined && diff.added.length + diff.changed.length + diff.removed.length === 0;
      return {
        status: 'conflict',
        message: identical
          ? `The library already has ${name}, file for file the same as this one: there is nothing to import. To keep a second copy anyway, import it as ${suggestion}.`
          : `The library already has a skill folder named ${name}. Import it as ${suggestion}, replace the existing one (it goes to the trash), or cancel.`,
        name,
        existing: dest,
        suggestion,
        skill,
        identical,
      };
    }
  }

  const files = filesNamed(name, renamedFrom !== undefined);
  // The point of trust: nothing is written when the review says "Don't trust", unless the user
  // accepted this content (docs/safety-review.md, "Points of trust").
  const written = new Map(files.map((f) => [f.path, new Uint8Array(f.data)] as const));
  // Why the preview's review may serve: it is taken only when the bytes to write are the ones it saw.
  const reviewed = await reviewSkillBytes(
    join(into, name),
    written,
    options.dataDir,
    previewReviews.get(skill),
  );
  const gate = await passGate(
    reviewed,
    options.dataDir ?? '',
    'imported',
    options.dataDir !== undefined ? options.trust : undefined,
  );
  if (!gate.allowed)
    return {
      status: 'unsafe',
      message: gate.message ?? '',
      skill: { ...skill, safety: gate.reviewed },
      safety: gate.reviewed,
    };
  const stage = await stageFolder(dest, files, skill.dirs);
  const { trashedTo } = await commitFolder(
    stage,
    dest,
    options.onConflict === 'replace',
    options.trashDir,
  );
  return {
    status: 'imported',
    name,
    dir: dest,
    files: files.map((f) => f.path),
    skill: { ...skill, safety: gate.reviewed },
    ...(renamedFrom !== undefined ? { renamedFrom } : {}),
    ...(trashedTo ? { trashedTo } : {}),
  };
}
