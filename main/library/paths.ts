import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** Is `child` the same as or inside `parent` (both absolute, normalised)? */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
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
