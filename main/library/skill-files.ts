import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { fail, ok, type Result } from '../../shared/ipc/contract';
import { writeFileAtomic } from '../platform/atomic-write';
import { describeFsError } from '../platform/fs-errors';
import { isInside } from '../platform/paths';

/** One entry of a skill's file tree. */
export interface SkillFileEntry {
  /** Relative to the skill folder, `/` separated. */
  path: string;
  kind: 'file' | 'directory' | 'symlink';
  size: number;
  /** How the UI should show it: edit as text, preview as an image, or only its size. */
  view: 'text' | 'image' | 'binary';
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
const SKIPPED = new Set(['.git', 'node_modules', '.DS_Store']);
/** Files larger than this are never opened as text in the editor. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;

/** Sniff the first bytes: a NUL or invalid UTF-8 means binary (never open it as text). */
async function looksBinary(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) return true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(
        head.subarray(0, Math.max(0, bytesRead - 4)),
      );
      return false;
    } catch {
      return true;
    }
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
 * trash with undo, import, preview. Every path is checked to stay inside the skill folder;
 * nothing is overwritten silently.
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

  /** Resolve a relative path inside `skillDir`, or null when it would leave it. */
  private resolveIn(skillDir: string, path: string): string | null {
    if (path === '' || path.includes('\0') || path.includes('\\') || path.startsWith('/'))
      return null;
    const full = join(skillDir, path);
    return isInside(skillDir, full) && full !== skillDir ? full : null;
  }

  /** The skill's files and folders, sorted, folders first at each level. */
  async list(skillDir: string): Promise<Result<SkillFileEntry[]>> {
    const entries: SkillFileEntry[] = [];
    const walk = async (dir: string): Promise<void> => {
      const children = await readdir(dir, { withFileTypes: true });
      for (const child of children) {
        if (SKIPPED.has(child.name)) continue;
        const full = join(dir, child.name);
        const rel = relative(skillDir, full).split(sep).join('/');
        const info = await lstat(full);
        if (info.isSymbolicLink()) {
          entries.push({ path: rel, kind: 'symlink', size: 0, view: 'binary' });
        } else if (info.isDirectory()) {
          entries.push({ path: rel, kind: 'directory', size: 0, view: 'binary' });
          await walk(full);
        } else if (info.isFile()) {
          const ext = extname(child.name).toLowerCase();
          const view =
            IMAGE_TYPES[ext] && ext !== '.svg'
              ? 'image'
              : info.size > MAX_TEXT_BYTES || (await looksBinary(full))
                ? 'binary'
                : ext === '.svg'
                  ? 'image'
                  : 'text';
          entries.push({ path: rel, kind: 'file', size: info.size, view });
        }
      }
    };
    try {
      await walk(skillDir);
    } catch (error) {
      return { ok: false, error: describeFsError(error, skillDir, 'read') };
    }
    entries.sort((a, b) => a.path.localeCompare(b.path));
    return ok(entries);
  }

  /** Create an empty file (or one with `text`) or a folder; refuses when something is already there. */
  async create(
    skillDir: string,
    path: string,
    kind: 'file' | 'directory',
    text = '',
  ): Promise<Result<{ path: string }>> {
    const full = this.resolveIn(skillDir, path);
    if (!full) return badPath(path);
    try {
      await mkdir(dirname(full), { recursive: true });
      if (kind === 'directory') {
        await mkdir(full);
      } else {
        await writeFile(full, text, { flag: 'wx' });
      }
      return ok({ path });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return exists(path);
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }

  /** Rename or move a file or folder within the skill; never replaces an existing one. */
  async rename(skillDir: string, from: string, to: string): Promise<Result<{ path: string }>> {
    const source = this.resolveIn(skillDir, from);
    const target = this.resolveIn(skillDir, to);
    if (!source) return badPath(from);
    if (!target) return badPath(to);
    if (isInside(source, target))
      return fail('invalid-move', `A folder cannot be moved into itself (${from} → ${to}).`);
    try {
      await lstat(target).then(
        () => {
          throw Object.assign(new Error('exists'), { code: 'EEXIST' });
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        },
      );
      await mkdir(dirname(target), { recursive: true });
      await rename(source, target);
      return ok({ path: to });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return exists(to);
      return { ok: false, error: describeFsError(error, from, 'write') };
    }
  }

  /** Move a file or folder to Skillbench's trash. Returns a token that `restore` accepts (undo). */
  async delete(skillDir: string, path: string): Promise<Result<{ undoToken: string }>> {
    const full = this.resolveIn(skillDir, path);
    if (!full) return badPath(path);
    if (path === 'SKILL.md')
      return fail(
        'protected',
        'SKILL.md is what makes this folder a skill, so it cannot be deleted here.',
      );
    const token = randomBytes(12).toString('hex');
    const stored = join(this.trashDir, token, basename(full));
    // Why: only the latest delete offers Undo, so the earlier ones move on to the OS trash now.
    await this.settle();
    try {
      await lstat(full);
      await mkdir(dirname(stored), { recursive: true });
      await moveAcrossDevices(full, stored);
      this.trash.set(token, { original: full, stored });
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
      const taken = await lstat(record.original).then(
        () => true,
        () => false,
      );
      if (taken)
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
    const full = this.resolveIn(skillDir, path);
    if (!full) return badPath(path);
    try {
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, bytes, { flag: 'wx' });
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
    const full = this.resolveIn(skillDir, path);
    if (!full) return badPath(path);
    try {
      const info = await lstat(full);
      if (!info.isFile()) return fail('not-a-file', `${path} is not a regular file.`);
      const ext = extname(full).toLowerCase();
      const mime = IMAGE_TYPES[ext];
      if (mime && info.size <= MAX_TEXT_BYTES) {
        return ok({
          path,
          view: 'image',
          size: info.size,
          dataUrl: `data:${mime};base64,${(await readFile(full)).toString('base64')}`,
        });
      }
      if (info.size > MAX_TEXT_BYTES || (await looksBinary(full)))
        return ok({ path, view: 'binary', size: info.size });
      return ok({ path, view: 'text', size: info.size, text: await readFile(full, 'utf8') });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'read') };
    }
  }

  /** Save a text file of the skill atomically. */
  async saveText(skillDir: string, path: string, text: string): Promise<Result<{ path: string }>> {
    const full = this.resolveIn(skillDir, path);
    if (!full) return badPath(path);
    try {
      await writeFileAtomic(full, text);
      return ok({ path });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }
}

/** rename(2), falling back to copy + remove when the trash is on another disk. */
async function moveAcrossDevices(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, {
      recursive: true,
      errorOnExist: true,
      force: false,
      verbatimSymlinks: true,
    });
    await rm(from, { recursive: true, force: true });
  }
}

function badPath<T>(path: string): Result<T> {
  return fail('outside-skill', `"${path}" is not a path inside this skill, so nothing was done.`);
}

function exists<T>(path: string): Result<T> {
  return fail('exists', `${path} already exists. Choose another name; nothing was replaced.`);
}
