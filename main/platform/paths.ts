/**
 * Paths and the one link policy: whether a path stays inside a folder, checked on the real
 * path of every parent, never following a link.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Is `child` the same as or inside `parent` (both absolute, normalised)? */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** `path` relative to `from`, `/`-separated. */
export function slashRelative(from: string, path: string): string {
  return relative(from, path).split(sep).join('/');
}

/**
 * The absolute path of `rel` (`/`-separated names a walk read: no empty, `.` or `..` segment)
 * under `root` (absolute, normalized): what path.join gives, without its normalizing pass,
 * which showed in the profile of a 1,000-skill validation.
 */
export function joinWalked(root: string, rel: string): string {
  if (rel === '') return root;
  const base = root.endsWith(sep) ? root : root + sep;
  return base + (sep === '/' ? rel : rel.split('/').join(sep));
}

/**
 * Resolve `target` and check, after following symlinks, that it lies inside one of `roots`.
 * Returns the real path, or null when it would escape (a `..` or a link leading outside).
 * A file that does not exist yet is checked through its parent folder.
 */
export async function resolveInsideRoots(
  roots: Iterable<string>,
  target: string,
): Promise<string | null> {
  if (!isAbsolute(target)) return null;
  const absolute = resolve(target);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    try {
      real = resolve(
        await realpath(dirname(absolute)),
        absolute.slice(dirname(absolute).length + 1),
      );
    } catch {
      return null;
    }
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      continue;
    }
    if (isInside(realRoot, real)) return real;
  }
  return null;
}

/** Why a relative path inside a folder was refused, in plain words and for the log. */
export interface PathRefusal {
  reason: 'invalid' | 'link';
  /** A sentence for people. */
  message: string;
  /** The link met on the way (relative to the folder), and what it points to. */
  link?: string;
  target?: string;
}

/** A relative path inside a folder, with every parent checked (see {@link resolveInside}). */
export interface ContainedPath {
  /** The absolute path (the folder's own path joined with the checked segments). */
  path: string;
  /** What is there now, seen with lstat: a link is reported as a link, never followed. */
  kind: 'file' | 'directory' | 'symlink' | 'other' | 'missing';
}

/** True when `rel` is a plain relative path: `/`-separated segments, no `.`/`..`, no NUL, no backslash. */
export function isPlainRelativePath(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || rel.includes('\0') || rel.includes('\\')) return false;
  return rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * The one link policy for file operations inside a folder (a skill, a library root): `rel` must
 * be a plain relative path, and no parent folder on the way may be a symbolic link, wherever it
 * points. Why refuse every link in a parent rather than check where it leads: a link can be
 * re-pointed between the check and the operation, and a link that leads outside makes reads,
 * writes, renames, deletes and previews act on files elsewhere on the computer. The last
 * segment is described with lstat and never followed: callers that read or write refuse a link
 * there too; deleting or renaming the link itself is safe (it moves the link, not its target).
 * Folders missing on the way are fine (the operation may create them) as long as nothing
 * existing on the way is a link. The error names the link and where it points.
 */
export async function resolveInside(
  folder: string,
  rel: string,
): Promise<{ ok: true; value: ContainedPath } | { ok: false; error: PathRefusal }> {
  if (!isPlainRelativePath(rel)) {
    return {
      ok: false,
      error: { reason: 'invalid', message: `"${rel}" is not a path inside this folder.` },
    };
  }
  const segments = rel.split('/');
  let current = folder;
  for (let i = 0; i < segments.length; i++) {
    current = join(current, segments[i]);
    let kind: ContainedPath['kind'];
    try {
      const st = await lstat(current);
      kind = st.isSymbolicLink()
        ? 'symlink'
        : st.isDirectory()
          ? 'directory'
          : st.isFile()
            ? 'file'
            : 'other';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return { ok: true, value: { path: join(folder, ...segments), kind: 'missing' } };
    }
    const last = i === segments.length - 1;
    if (last) return { ok: true, value: { path: current, kind } };
    if (kind === 'symlink') {
      const link = segments.slice(0, i + 1).join('/');
      const target = await readlink(current).catch(() => '?');
      return {
        ok: false,
        error: {
          reason: 'link',
          link,
          target,
          message: `${link} is a shortcut (symbolic link) to ${target}. Skillbench does not follow links inside a skill, so nothing was done.`,
        },
      };
    }
    if (kind !== 'directory') {
      return {
        ok: false,
        error: {
          reason: 'invalid',
          message: `${segments.slice(0, i + 1).join('/')} is a file, not a folder, so "${rel}" cannot be inside it.`,
        },
      };
    }
  }
  return { ok: true, value: { path: current, kind: 'directory' } };
}
