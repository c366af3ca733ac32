import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { fail, ok, type ApiError, type Result } from '../../shared/ipc/contract';
import { writeFileAtomic } from '../platform/atomic-write';
import { describeFsError } from '../platform/fs-errors';
import { isInside, resolveInside, type ContainedPath } from '../platform/paths';
import { NotARegularFileError, readRegularFileSync } from '../platform/read-file';
import { moveAcrossDevices } from '../platform/trash';
import { readSkillFolder } from '../skill-folder';

/** One entry of a skill's file tree. */
export interface SkillFileEntry {
  /** Relative to the skill folder, `/` separated. */
  path: string;
  kind: 'file' | 'directory' | 'symlink';
  size: number;
  /** How the UI should show it: edit as text, preview as an image, or only its size. */
  view: 'text' | 'image' | 'binary';
  /** Set when the file stays in the folder but is withheld whenever the skill is shared: why. */
  withheld?: string;
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};
/** Files larger than this are never opened as text in the editor. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;

/** Sniff the first bytes: a NUL or invalid UTF-8 means binary (never open it as text). */
function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      head.subarray(0, Math.max(0, head.length - 4)),
    );
    return false;
  } catch {
    return true;
  }
}

/** The first bytes of a regular file, read without following a link. */
async function headOf(file: string): Promise<Uint8Array> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A deleted file or folder waiting in Skillbench's trash, restorable until the trash is emptied. */
interface TrashRecord {
  original: string;
  stored: string;
}

/**
 * File operations inside one skill folder: list, create, rename/move, delete to Skillbench's
 * trash with undo, import, preview, save. Every path goes through the one link policy
 * (`resolveInside`): a plain relative path, no link in any parent folder; reads and writes never
 * follow a link at the last segment either (a link itself may be renamed or deleted). The tree
 * is the one skill-folder reader's: what a skill never holds is not listed, what is withheld
 * when shared says so. Nothing is overwritten silently.
 */
export class SkillFiles {
  private readonly trash = new Map<string, TrashRecord>();

  /**
   * @param trashDir Skillbench's own trash, where a delete waits while it can be undone.
   * @param osTrash Moves a path to the operating system's trash (Electron's `shell.trashItem`).
   *   When given, a delete that can no longer be undone (the next delete, or quitting) goes on to
   *   the OS trash, where people look for deleted files; without it, it stays in Skillbench's trash.
   */
  constructor(
    private readonly trashDir: string,
    private readonly osTrash?: (path: string) => Promise<void>,
  ) {}

  /** Hand every delete that is no longer undoable to the OS trash (when there is one). */
  async settle(): Promise<void> {
    if (!this.osTrash) return;
    for (const [token, record] of [...this.trash]) {
      try {
        await this.osTrash(record.stored);
        this.trash.delete(token);
        await rm(dirname(record.stored), { recursive: true, force: true });
      } catch {
        // Why: when the OS trash refuses, the file simply stays in Skillbench's trash; nothing is lost.
      }
    }
  }

  /** `path` inside `skillDir` under the link policy, or the refusal as a Result. */
  private async inside(
    skillDir: string,
    path: string,
  ): Promise<{ ok: true; value: ContainedPath } | { ok: false; error: ApiError }> {
    const checked = await resolveInside(skillDir, path);
    if (checked.ok) return checked;
    return {
      ok: false,
      error: {
        code: checked.error.reason === 'link' ? 'link' : 'outside-skill',
        message:
          checked.error.reason === 'link'
            ? checked.error.message
            : `"${path}" is not a path inside this skill, so nothing was done.`,
        ...(checked.error.link
          ? { detail: `link ${checked.error.link} -> ${checked.error.target ?? '?'}` }
          : {}),
      },
    };
  }

  /** The skill's files and folders, sorted, as the one skill-folder reader sees them. */
  async list(skillDir: string): Promise<Result<SkillFileEntry[]>> {
    try {
      const folder = await readSkillFolder(skillDir);
      const entries: SkillFileEntry[] = [];
      for (const e of folder.entries) {
        if (e.kind === 'other' || e.leftOut?.scope === 'never') continue;
        const withheld = e.leftOut ? { withheld: e.leftOut.reason } : {};
        if (e.kind !== 'file') {
          entries.push({ path: e.path, kind: e.kind, size: 0, view: 'binary', ...withheld });
          continue;
        }
        const ext = extname(e.path).toLowerCase();
        let view: SkillFileEntry['view'];
        if (IMAGE_TYPES[ext] && ext !== '.svg') view = 'image';
        else if (e.size > MAX_TEXT_BYTES) view = 'binary';
        else {
          const head = await headOf(join(skillDir, e.path)).catch(() => new Uint8Array([0]));
          view = looksBinary(head) ? 'binary' : ext === '.svg' ? 'image' : 'text';
        }
        entries.push({ path: e.path, kind: 'file', size: e.size, view, ...withheld });
      }
      entries.sort((a, b) => a.path.localeCompare(b.path));
      return ok(entries);
    } catch (error) {
      return { ok: false, error: describeFsError(error, skillDir, 'read') };
    }
  }

  /** Create an empty file (or one with `text`) or a folder; refuses when something is already there. */
  async create(
    skillDir: string,
    path: string,
    kind: 'file' | 'directory',
    text = '',
  ): Promise<Result<{ path: string }>> {
    const target = await this.inside(skillDir, path);
    if (!target.ok) return target;
    if (target.value.kind !== 'missing') return exists(path);
    try {
      await mkdir(dirname(target.value.path), { recursive: true });
      if (kind === 'directory') await mkdir(target.value.path);
      else await writeNew(target.value.path, Buffer.from(text, 'utf8'));
      return ok({ path });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return exists(path);
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }

  /** Rename or move a file, folder or link within the skill; never replaces an existing one. */
  async rename(skillDir: string, from: string, to: string): Promise<Result<{ path: string }>> {
    const source = await this.inside(skillDir, from);
    if (!source.ok) return source;
    const target = await this.inside(skillDir, to);
    if (!target.ok) return target;
    if (source.value.kind === 'missing') return missing(from);
    if (isInside(source.value.path, target.value.path))
      return fail('invalid-move', `A folder cannot be moved into itself (${from} → ${to}).`);
    if (target.value.kind !== 'missing') return exists(to);
    try {
      await mkdir(dirname(target.value.path), { recursive: true });
      // Why check again right before: the rename replaces a file that appeared since (rename(2) does).
      if (await present(target.value.path)) return exists(to);
      await moveAcrossDevices(source.value.path, target.value.path);
      return ok({ path: to });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return exists(to);
      return { ok: false, error: describeFsError(error, from, 'write') };
    }
  }

  /** Move a file, folder or link to Skillbench's trash. Returns a token that `restore` accepts (undo). */
  async delete(skillDir: string, path: string): Promise<Result<{ undoToken: string }>> {
    const target = await this.inside(skillDir, path);
    if (!target.ok) return target;
    // Why compare in lower case: on case-insensitive disks "skill.md" is the same file.
    if (path.toLowerCase() === 'skill.md')
      return fail(
        'protected',
        'SKILL.md is what makes this folder a skill, so it cannot be deleted here.',
      );
    if (target.value.kind === 'missing') return missing(path);
    const token = randomBytes(12).toString('hex');
    const stored = join(this.trashDir, token, basename(target.value.path));
    // Why: only the latest delete offers Undo, so the earlier ones move on to the OS trash now.
    await this.settle();
    try {
      await mkdir(dirname(stored), { recursive: true });
      await moveAcrossDevices(target.value.path, stored);
      this.trash.set(token, { original: target.value.path, stored });
      return ok({ undoToken: token });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }

  /** Undo a delete: put the file back where it was, unless something new took its place. */
  async restore(undoToken: string): Promise<Result<{ path: string }>> {
    const record = this.trash.get(undoToken);
    if (!record) return fail('not-found', 'There is nothing to undo any more.');
    try {
      if (await present(record.original))
        return fail(
          'exists',
          `Something new is at ${record.original} now, so the deleted copy was left in Skillbench's trash (${record.stored}).`,
        );
      await mkdir(dirname(record.original), { recursive: true });
      await moveAcrossDevices(record.stored, record.original);
      this.trash.delete(undoToken);
      await rm(dirname(record.stored), { recursive: true, force: true });
      return ok({ path: record.original });
    } catch (error) {
      return { ok: false, error: describeFsError(error, record.original, 'write') };
    }
  }

  /** Write an imported file (drag and drop) into the skill; refuses to replace an existing one. */
  async importFile(
    skillDir: string,
    path: string,
    bytes: Uint8Array,
  ): Promise<Result<{ path: string }>> {
    const target = await this.inside(skillDir, path);
    if (!target.ok) return target;
    if (target.value.kind !== 'missing') return exists(path);
    try {
      await mkdir(dirname(target.value.path), { recursive: true });
      await writeNew(target.value.path, bytes);
      return ok({ path });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return exists(path);
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }

  /** A preview of a file: its text, an image as a data URL, or only its size for anything binary. */
  async preview(
    skillDir: string,
    path: string,
  ): Promise<
    Result<{
      path: string;
      view: SkillFileEntry['view'];
      size: number;
      text?: string;
      dataUrl?: string;
    }>
  > {
    const target = await this.inside(skillDir, path);
    if (!target.ok) return target;
    if (target.value.kind === 'symlink') return linkRefused(path);
    if (target.value.kind !== 'file') return fail('not-a-file', `${path} is not a regular file.`);
    try {
      // Why O_NOFOLLOW (readRegularFileSync): a link swapped in since the check is refused, never followed.
      const read = readRegularFileSync(target.value.path, MAX_TEXT_BYTES);
      const mime = IMAGE_TYPES[extname(target.value.path).toLowerCase()];
      if (mime && read.bytes)
        return ok({
          path,
          view: 'image',
          size: read.size,
          dataUrl: `data:${mime};base64,${read.bytes.toString('base64')}`,
        });
      // Why every byte checked: a text file with a byte that is not UTF-8 past the first 8 KiB
      // would open as text, and saving it would replace that byte with "�".
      if (!read.bytes || looksBinary(read.bytes.subarray(0, 8192)) || !isUtf8(read.bytes))
        return ok({ path, view: 'binary', size: read.size });
      return ok({ path, view: 'text', size: read.size, text: read.bytes.toString('utf8') });
    } catch (error) {
      if (error instanceof NotARegularFileError) return linkRefused(path);
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') return linkRefused(path);
      return { ok: false, error: describeFsError(error, path, 'read') };
    }
  }

  /** Save a text file of the skill atomically (a link there is refused, never written through). */
  async saveText(skillDir: string, path: string, text: string): Promise<Result<{ path: string }>> {
    const target = await this.inside(skillDir, path);
    if (!target.ok) return target;
    if (target.value.kind === 'symlink') return linkRefused(path);
    if (target.value.kind === 'directory') return fail('not-a-file', `${path} is a folder.`);
    try {
      await writeFileAtomic(target.value.path, text);
      return ok({ path });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }
}

/** Write a new file; refuses when anything (a link included) is already there (O_EXCL). */
async function writeNew(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

/** Whether anything, a dangling link included, is at `path` (lstat: links are not followed). */
async function present(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

function exists<T>(path: string): Result<T> {
  return fail('exists', `${path} already exists. Choose another name; nothing was replaced.`);
}

function missing<T>(path: string): Result<T> {
  return fail('not-found', `Nothing exists at ${path} in this skill.`);
}

function linkRefused<T>(path: string): Result<T> {
  return fail(
    'link',
    `${path} is a shortcut (symbolic link). Skillbench does not follow links inside a skill, so it was not opened.`,
  );
}
