import { createHash } from 'node:crypto';

/** Fingerprint of a file's bytes: what the editor passes back to detect outside edits. */
export function versionOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}
