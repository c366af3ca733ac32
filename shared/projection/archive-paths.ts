import { collisionKey, unportableSegmentReason } from './normalise';
import type { ImportLimits, Refusal } from './types';

/** Default import limits. Why 512 files / 16 MiB: what a skill server may serve (docs/skill-format.md §2 mcp-serve); 100:1 is far beyond what ordinary files compress to. */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxFiles: 512,
  maxBytes: 16 * 1024 * 1024,
  maxRatio: 100,
  maxDepth: 32,
};

/** A checked archive path, or the reason it is refused. */
export type CheckedPath =
  { ok: true; path: string; directory: boolean } | { ok: false; refusal: Refusal };

/** A refusal about one entry. */
function refuse(
  code: Refusal['code'],
  message: string,
  detail: string,
  entry: string,
): CheckedPath {
  return { ok: false, refusal: { code, message, detail, entry } };
}

/**
 * Check one archive entry name and return the safe relative path (NFC, `/`-separated, no
 * `./`). Why each refusal: an entry with `..`, an absolute path, a drive letter or a UNC path
 * would be written outside the chosen folder (zip-slip); `\` is a separator on Windows, so
 * `..\evil` is traversal there (docs/skills-over-mcp.md §6).
 */
export function checkEntryName(raw: string, limits: Pick<ImportLimits, 'maxDepth'>): CheckedPath {
  if (raw.includes('\u0000'))
    return refuse(
      'unsafe-name',
      `The archive has a file name with a hidden null character, a known trick to confuse unpackers.`,
      'NUL byte in entry name',
      raw,
    );
  const slashed = raw.replace(/\\/g, '/');
  if (/^\/\//.test(slashed))
    return refuse(
      'absolute-path',
      `The archive has a file that points to a network location (${raw}); unpacking it could write to another computer.`,
      'UNC path',
      raw,
    );
  if (slashed.startsWith('/'))
    return refuse(
      'absolute-path',
      `The archive has a file with an absolute path (${raw}); unpacking it would write outside the chosen folder.`,
      'absolute path',
      raw,
    );
  if (/^[A-Za-z]:/.test(slashed))
    return refuse(
      'absolute-path',
      `The archive has a file with a Windows drive path (${raw}); unpacking it would write outside the chosen folder.`,
      'drive-letter path',
      raw,
    );
  const directory = slashed.endsWith('/');
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..'))
    return refuse(
      'path-traversal',
      `The archive has a file whose path climbs out of its folder (${raw}); unpacking it would write outside the chosen folder. This is a known attack ("zip slip").`,
      '".." segment in entry name',
      raw,
    );
  if (segments.length === 0) {
    if (directory || slashed === '.' || slashed === '')
      return { ok: true, path: '', directory: true };
  }
  if (segments.length > limits.maxDepth)
    return refuse(
      'too-deep',
      `The archive nests folders ${segments.length} levels deep; at most ${limits.maxDepth} are accepted.`,
      `depth ${segments.length} > ${limits.maxDepth}`,
      raw,
    );
  for (const segment of segments) {
    const why = unportableSegmentReason(segment);
    if (why)
      return refuse(
        'unsafe-name',
        `The archive has a file named "${segment}", which ${why}; it cannot be unpacked safely on every system.`,
        `unsafe segment in ${raw}`,
        raw,
      );
  }
  return { ok: true, path: segments.join('/').normalize('NFC'), directory };
}

/**
 * Find names that collide after Unicode NFC normalisation or case folding, and files that are
 * also used as folders. Why: on macOS and Windows the second would overwrite the first, so
 * what is previewed would not be what is written (docs/skills-over-mcp.md §6).
 */
export function findCollision(
  paths: ReadonlyArray<{ path: string; directory: boolean; raw: string }>,
): Refusal | undefined {
  const byKey = new Map<string, { raw: string; directory: boolean }>();
  for (const item of paths) {
    if (item.path === '') continue;
    const key = collisionKey(item.path);
    const seen = byKey.get(key);
    if (seen && !(seen.directory && item.directory)) {
      return {
        code: 'collision',
        message: `The archive has two files that would land on the same name (${seen.raw} and ${item.raw}), for example differing only in upper/lower case or accents. One would silently replace the other.`,
        detail: `collision after NFC + case folding: ${key}`,
        entry: item.raw,
      };
    }
    if (!seen) byKey.set(key, { raw: item.raw, directory: item.directory });
  }
  for (const item of paths) {
    if (item.directory) continue;
    const parts = collisionKey(item.path).split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = byKey.get(parts.slice(0, i).join('/'));
      if (parent && !parent.directory) {
        return {
          code: 'collision',
          message: `The archive uses ${parent.raw} both as a file and as a folder.`,
          detail: `file/folder clash at ${parts.slice(0, i).join('/')}`,
          entry: item.raw,
        };
      }
    }
  }
  return undefined;
}

/** A skill found in a list of paths. */
export interface FoundRoot {
  /** Folder of the skill relative to the archive root ('' for the root). */
  root: string;
  /** Path of its SKILL.md. */
  skillFile: string;
}

/**
 * The skills in a list of file paths: folders holding a SKILL.md (or skill.md) that are not
 * inside another skill (a skill may contain another, SEP-2640 §1). Sorted by root.
 */
export function findSkillRoots(files: readonly string[]): FoundRoot[] {
  const candidates = files
    .filter((p) => (p.split('/').pop() ?? '').toLowerCase() === 'skill.md')
    .map((p) => ({ root: p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '', skillFile: p }));
  // Prefer the exact name when both SKILL.md and skill.md sit in one folder.
  const byRoot = new Map<string, FoundRoot>();
  for (const c of candidates) {
    const prior = byRoot.get(c.root);
    if (!prior || c.skillFile.endsWith('SKILL.md')) byRoot.set(c.root, c);
  }
  const roots = [...byRoot.values()].sort(
    (a, b) => a.root.length - b.root.length || (a.root < b.root ? -1 : 1),
  );
  const top: FoundRoot[] = [];
  for (const r of roots) {
    if (!top.some((t) => t.root === '' || r.root.startsWith(`${t.root}/`))) top.push(r);
  }
  return top.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
}
