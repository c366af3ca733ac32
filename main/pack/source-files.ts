import { lstatSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ARCHIVE_MAX_BYTES,
  COPY_MAX_FILE_BYTES,
  UPLOAD_MAX_BYTES,
  type SourceEntry,
} from '../../shared/projection';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill/limits';
import { TimeSlicer } from '../platform/concurrency';
import { isInside, joinWalked } from '../platform/paths';
import { readBoundedSync, readRegularFileSync } from '../platform/read-file';
import { readSkillFolder, type SkillEntry } from '../skill-folder';

export { NotASkillError } from '../skill-folder';

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

/** True when the first bytes hold no NUL (the usual text/binary test of git and grep). */
function looksLikeText(data: Buffer): boolean {
  return !data.subarray(0, 8000).includes(0);
}

/** The planner's view of one entry of the skill-folder reader. */
function sourceEntry(e: SkillEntry): SourceEntry {
  if (e.kind === 'symlink') {
    const link = e.link;
    return {
      path: e.path,
      kind: 'symlink',
      size: link?.targetKind === 'file' ? link.targetSize : 0,
      linkTarget: link?.text ?? '?',
      linkEscapes: !(link?.inside ?? false),
      linkTargetKind: link?.targetKind ?? 'missing',
    };
  }
  if (e.kind === 'directory') {
    return {
      path: e.path,
      kind: 'directory',
      size: 0,
      ...(e.leftOut?.scope === 'never' ? { notDescended: true } : {}),
    };
  }
  if (e.kind === 'other') return { path: e.path, kind: 'other', size: 0 };
  return { path: e.path, kind: 'file', size: e.size, executable: e.executable === true };
}

/** Size and mode of a file entry that is not read, from lstat (0 when it is gone). */
function describeUnread(dir: string, entry: SourceEntry): void {
  try {
    const info = lstatSync(joinWalked(dir, entry.path), { throwIfNoEntry: false });
    entry.size = info?.size ?? 0;
    entry.executable = info !== undefined && (info.mode & 0o111) !== 0;
  } catch {
    // Why: a path that cannot be examined keeps size 0, as the walk does.
  }
}

/**
 * Read a skill folder for export with the one skill-folder reader (links described, never
 * followed; what a skill never holds listed but not entered), then the bytes of its small
 * files for the secret scan and the writer: each opened once without following links and
 * described by fstat of that descriptor, so the bytes are those of the file checked.
 *
 * Why synchronous reads in time slices (as the walk, see TimeSlicer): for thousands of small
 * files the round trip of each async call through libuv's thread pool costs more than the
 * system call. The slices keep the event loop (IPC, the browser-shell host) responsive.
 */
export async function loadSkillFolder(folder: string): Promise<LoadedSkill> {
  const slicer = new TimeSlicer();
  // Why 'links': every file is read next, and the read's fstat gives its size and mode.
  const skill = await readSkillFolder(folder, slicer, 'links');
  const entries: SourceEntry[] = [];
  const cache = new Map<string, Buffer>();
  let cached = 0;
  for (const e of skill.entries) {
    const entry = sourceEntry(e);
    entries.push(entry);
    if (entry.kind !== 'file') continue;
    if (slicer.due()) await slicer.pause();
    if (e.leftOut?.scope === 'never') {
      // Why lstat only: a file the skill never holds (.DS_Store) is listed with its size, not read.
      describeUnread(skill.dir, entry);
      continue;
    }
    let read;
    try {
      read = readRegularFileSync(joinWalked(skill.dir, e.path), SCAN_MAX_BYTES);
    } catch {
      // Why keep going: a file that became a link or vanished since the walk is read (and
      // refused) again by readSourceBytes if the plan includes it.
      describeUnread(skill.dir, entry);
      continue;
    }
    entry.size = read.size;
    entry.executable = read.executable;
    if (!read.bytes) continue;
    if (looksLikeText(read.bytes)) entry.text = read.bytes.toString('utf8');
    if (cached + read.bytes.length <= CACHE_MAX_BYTES) {
      cache.set(e.path, read.bytes);
      cached += read.bytes.length;
    }
  }
  const skillBytes =
    cache.get(skill.skillFileName) ??
    readBoundedSync(join(skill.dir, skill.skillFileName), SKILL_MD_MAX_BYTES);
  return {
    dir: skill.dir,
    realDir: skill.realDir,
    folderName: skill.folderName,
    skillFileName: skill.skillFileName,
    skillText: skillBytes.toString('utf8'),
    entries,
    cache,
  };
}

/**
 * The largest file an export reads: the most any destination accepts (a whole upload, or one
 * file of a folder copy, forced past its bound). Why: a file is read whole to be checked and
 * written, and one of gigabytes would fill memory (over 4 GiB Node cannot even hold it).
 */
const EXPORT_READ_MAX_BYTES = Math.max(UPLOAD_MAX_BYTES, ARCHIVE_MAX_BYTES, COPY_MAX_FILE_BYTES);

/**
 * The bytes of a planned source file. Kept links are resolved again and re-checked against the
 * skill folder right before reading. Why: the link may have changed since planning (TOCTOU).
 */
export async function readSourceBytes(
  skill: LoadedSkill,
  source: string,
  followLink: boolean,
): Promise<Buffer> {
  const abs = join(skill.dir, source);
  if (followLink) {
    const resolved = await realpath(abs);
    if (!isInside(skill.realDir, resolved))
      throw new Error(`${source} now points outside the skill folder; export stopped.`);
    // Why the careful reader: the link may now point at a pipe or device inside the folder.
    return readBoundedSync(resolved, EXPORT_READ_MAX_BYTES);
  }
  const cached = skill.cache.get(source);
  if (cached) return cached;
  return readBoundedSync(abs, EXPORT_READ_MAX_BYTES);
}
