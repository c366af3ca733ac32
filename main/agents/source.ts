/**
 * A skill to install, read whole before anything is written: the files of its file set
 * (shared/skill/file-set.ts, through the one skill-folder reader; what is withheld when shared
 * stays behind, links inside the skill are never copied), their hash, the SKILL.md text that
 * becomes the base of later merges, and the record of where it came from. Reading everything
 * first is why a folder that disappears mid-install leaves nothing half-written.
 */
import { basename, join, resolve } from 'node:path';
import type { SkillSource } from '../../shared/agents/lock';
import {
  COPY_MAX_FILE_BYTES,
  fileTooLargeToCopy,
  renameSkillText,
  skillFolderNameProblem,
} from '../../shared/projection';
import { parseSkill, SKILL_MD_MAX_BYTES } from '../../shared/skill';
import type { FolderFile } from '../platform/staged-folder';
import { readBoundedSync, readRegularFileSync } from '../platform/read-file';
import { findSkillFolders, publishedEntries, readSkillFolder } from '../skill-folder';
import { hashFiles } from './hash';

/** A skill read for installing. */
export interface LoadedSource {
  /** The folder name it is installed under. */
  name: string;
  dir: string;
  files: FolderFile[];
  hash: string;
  skillText: string;
  source: SkillSource;
}

/** The folder name the `skills` CLI gives a skill name (lower case, `-` for anything else). */
export function installName(name: string): string {
  const clean = name
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 255);
  return clean === '' ? 'unnamed-skill' : clean;
}

/** A text field of parsed frontmatter data, or undefined. */
export function frontmatterText(data: unknown, key: string): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** The folder name a skill is installed under: its `name:` as the CLI cleans it, else its folder's. */
function folderNameFor(skillText: string, folderName: string): string {
  const named = frontmatterText(parseSkill(skillText).data, 'name') ?? folderName;
  const name = installName(named);
  return skillFolderNameProblem(name) === undefined ? name : installName(folderName);
}

/**
 * The skill folder under `dir` that installs under the folder name `name`, or undefined. Why: the
 * `skills` CLI records the folder given to `skills add`, which may hold several skills, and finds
 * the skill in it by name again when it updates; Skillbench compares with the same folder.
 */
export async function skillFolderNamed(
  dir: string,
  name: string,
  /** Folders that are not candidates (the installed copies, when the source holds them too). */
  except: readonly string[] = [],
): Promise<string | undefined> {
  const skip = new Set(except.map((p) => resolve(p)));
  for (const f of await findSkillFolders(dir, { limit: 1000 })) {
    if (skip.has(resolve(f.dir))) continue;
    let text = '';
    try {
      text = readBoundedSync(f.file, SKILL_MD_MAX_BYTES).toString('utf8');
    } catch {
      // Why: a SKILL.md that cannot be read is matched by its folder's name alone.
    }
    if (folderNameFor(text, basename(f.dir)) === name) return f.dir;
  }
  return undefined;
}

/** Read the skill at `dir` for installing (throws with a plain sentence when it cannot be read). */
export async function loadSource(dir: string, source: SkillSource): Promise<LoadedSource> {
  const folder = await readSkillFolder(dir);
  const files: FolderFile[] = [];
  let skillText = '';
  for (const entry of publishedEntries(folder)) {
    if (entry.kind !== 'file') continue;
    const read = readRegularFileSync(
      join(folder.dir, ...entry.path.split('/')),
      COPY_MAX_FILE_BYTES,
      entry,
    );
    // Why the export's sentence: an install and a folder export judge a file the same way.
    if (read.bytes === undefined)
      throw new Error(fileTooLargeToCopy(entry.path, read.size, COPY_MAX_FILE_BYTES));
    files.push({ path: entry.path, data: read.bytes, mode: read.executable ? 0o755 : 0o644 });
    if (entry.path === folder.skillFileName) skillText = read.bytes.toString('utf8');
  }
  return {
    name: folderNameFor(skillText, folder.folderName),
    dir: folder.dir,
    files,
    hash: hashFiles(files.map((f) => ({ path: f.path, data: f.data }))),
    skillText,
    source,
  };
}

/** The same skill under another folder name, its `name:` changed to match (a rename on conflict). */
export function renamedSource(loaded: LoadedSource, name: string): LoadedSource {
  const files = loaded.files.map((f) =>
    f.path === 'SKILL.md' || f.path.toLowerCase() === 'skill.md'
      ? { ...f, data: Buffer.from(renameSkillText(f.data.toString('utf8'), name), 'utf8') }
      : f,
  );
  const skillFile = files.find((f) => f.path.toLowerCase() === 'skill.md');
  return {
    ...loaded,
    name,
    files,
    skillText: skillFile ? skillFile.data.toString('utf8') : loaded.skillText,
    hash: hashFiles(files.map((f) => ({ path: f.path, data: f.data }))),
  };
}
