/**
 * The SEP-2640 digest of bytes: `sha256:` and the 64 lowercase hex digits of exactly these bytes
 * (the format is `shared/sep/digest.ts`; the hashing happens here, where bytes live). The one
 * place the server, the legacy index, the safety review, the inspector's checks and the read-ahead
 * worker compute it, so they can never disagree about the same bytes.
 */
import { hash } from 'node:crypto';

/** Why the one-shot `hash`: a Hash object per file cost about as much as hashing a small file. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${hash('sha256', bytes, 'hex')}`;
}

/** Lowercase hex sha256 of bytes (an archive's checksum, a folder copy compared file by file). */
export function sha256Hex(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}
