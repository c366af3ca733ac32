import { createHash } from 'node:crypto';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill/limits';
import { readResolvedBounded } from '../platform/read-file';

/** Fingerprint of a file's bytes: what the editor passes back to detect outside edits. */
export function versionOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/**
 * The bytes of a file the editor opens or compares: a regular file of at most
 * {@link SKILL_MD_MAX_BYTES}, a link resolved first (a library may link a file to another of its
 * files). Why: a file swapped for a pipe, or a link to `/dev/zero`, must not hang the app or fill
 * its memory.
 */
export function readEditableFile(path: string): Promise<Buffer> {
  return readResolvedBounded(path, SKILL_MD_MAX_BYTES);
}

/** The fingerprint of the file at `path` now, or null when nothing is there. */
export async function versionOfFile(path: string): Promise<string | null> {
  try {
    return versionOf(await readEditableFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
