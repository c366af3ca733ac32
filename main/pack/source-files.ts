import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { alwaysExcluded, type SourceEntry } from '../../shared/projection';
import { mapLimit } from './map-limit';

/** Files up to this size are read for the secret scan (and kept for the writer). */
const SCAN_MAX_BYTES = 1024 * 1024;
/** Total bytes kept in memory for the writer; beyond this, files are read again when written. */
const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** A skill folder as read from disk for an export. */
export interface LoadedSkill {
  /** Absolute path of the skill folder. */
  dir: string;
  /** The folder's real path (links resolved), used to decide whether a link stays inside. */
  realDir: string;
  folderName: string;
  /** `SKILL.md` or `skill.md` as found. */
  skillFileName: string;
  skillText: string;
  entries: SourceEntry[];
  /** Bytes of small files already read, by source path. */
  cache: Map<string, Buffer>;
}

/** Thrown when the folder is not a skill (no SKILL.md); the message is for people. */
export class NotASkillError extends Error {}

/** True when `child` is `parent` or inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when the first bytes hold no NUL (the usual text/binary test of git and grep). */
function looksLikeText(data: Buffer): boolean {
  return !data.subarray(0, 8000).includes(0);
}

/**
 * Read a skill folder for export: every path with lstat (links are never followed: their target
 * is only inspected), the SKILL.md text, and small text files for the secret scan. Folders that
 * are always excluded (node_modules, .git, …) are listed but not entered.
 */
export async function loadSkillFolder(folder: string): Promise<LoadedSkill> {
  const dir = resolve(folder);
  const info = await stat(dir);
  if (!info.isDirectory()) throw new NotASkillError(`${dir} is not a folder. Give the skill's folder (the one that holds SKILL.md).`);
  const realDir = await realpath(dir);
  const top = await readdir(dir);
  const skillFileName = top.includes('SKILL.md') ? 'SKILL.md' : top.find((n) => n.toLowerCase() === 'skill.md');
  if (!skillFileName || !(await lstat(join(dir, skillFileName))).isFile()) {
    throw new NotASkillError(`${dir} has no SKILL.md file, so it is not a skill folder.`);
  }
  const entries: SourceEntry[] = [];
  const cache = new Map<string, Buffer>();
  let cached = 0;
  const readOne = async (rel: string): Promise<{ entry: SourceEntry; data?: Buffer; descend: boolean }> => {
    const abs = join(dir, rel);
    const st = await lstat(abs);
    if (st.isDirectory()) {
      const excluded = alwaysExcluded(rel, true);
      return { entry: { path: rel, kind: 'directory', size: 0, ...(excluded ? { notDescended: true } : {}) }, descend: !excluded };
    }
    if (st.isFile()) {
      const entry: SourceEntry = { path: rel, kind: 'file', size: st.size, executable: (st.mode & 0o111) !== 0 };
      if (st.size > SCAN_MAX_BYTES || alwaysExcluded(rel, false)) return { entry, descend: false };
      const data = await readFile(abs);
      if (looksLikeText(data)) entry.text = data.toString('utf8');
      return { entry, data, descend: false };
    }
    if (st.isSymbolicLink()) return { entry: await describeLink(realDir, abs, rel), descend: false };
    return { entry: { path: rel, kind: 'other', size: 0 }, descend: false };
  };
  let level: string[] = [''];
  while (level.length > 0) {
    const children: string[] = [];
    for (const relDir of level) {
      for (const name of (await readdir(join(dir, relDir))).sort()) children.push(relDir ? `${relDir}/${name}` : name);
    }
    // Why bounded parallelism: thousands of small files are read much faster a few at a time
    // than one by one, without opening thousands of handles at once.
    const results = await mapLimit(children, 16, readOne);
    level = [];
    for (const { entry, data, descend } of results) {
      entries.push(entry);
      if (descend) level.push(entry.path);
      if (data && cached + data.length <= CACHE_MAX_BYTES) {
        cache.set(entry.path, data);
        cached += data.length;
      }
    }
  }
  const skillBytes = cache.get(skillFileName) ?? (await readFile(join(dir, skillFileName)));
  return { dir, realDir, folderName: basename(dir), skillFileName, skillText: skillBytes.toString('utf8'), entries, cache };
}

/** Inspect a symlink without following it for content: where it points, and whether that is inside the skill. */
async function describeLink(realDir: string, abs: string, rel: string): Promise<SourceEntry> {
  const linkTarget = await readlink(abs);
  try {
    const resolved = await realpath(abs);
    const st = await stat(resolved);
    const inside = isInside(realDir, resolved);
    return {
      path: rel,
      kind: 'symlink',
      size: st.isFile() ? st.size : 0,
      linkTarget,
      linkEscapes: !inside,
      linkTargetKind: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other',
    };
  } catch {
    return { path: rel, kind: 'symlink', size: 0, linkTarget, linkEscapes: true, linkTargetKind: 'missing' };
  }
}

/**
 * The bytes of a planned source file. Kept links are resolved again and re-checked against the
 * skill folder right before reading. Why: the link may have changed since planning (TOCTOU).
 */
export async function readSourceBytes(skill: LoadedSkill, source: string, followLink: boolean): Promise<Buffer> {
  const abs = join(skill.dir, source);
  if (followLink) {
    const resolved = await realpath(abs);
    if (!isInside(skill.realDir, resolved)) throw new Error(`${source} now points outside the skill folder; export stopped.`);
    return readFile(resolved);
  }
  const cached = skill.cache.get(source);
  if (cached) return cached;
  const st = await lstat(abs);
  if (!st.isFile()) throw new Error(`${source} is no longer a regular file; export stopped.`);
  return readFile(abs);
}
