import { join, normalize, sep } from 'node:path';

/**
 * Map a URL path (already percent-decoded) to a file under `rootDir`, or null when it would
 * leave it. Why: `..`, an encoded separator, a backslash (a separator on Windows) or a NUL
 * must never reach outside the renderer build, in either shell.
 */
export function resolveStaticFile(rootDir: string, decodedPath: string): string | null {
  if (decodedPath.includes('\\') || decodedPath.includes('\0')) return null;
  const relativePath =
    decodedPath === '/' || decodedPath === '' ? 'index.html' : decodedPath.replace(/^\/+/, '');
  const root = normalize(rootDir);
  const file = normalize(join(root, relativePath));
  return file.startsWith(root + sep) ? file : null;
}
