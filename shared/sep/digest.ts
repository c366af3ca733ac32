/**
 * The SEP-2640 digest format: `sha256:` + 64 lowercase hex digits of a file's raw bytes
 * (docs/skills-over-mcp.md §3). Hashing itself happens where bytes live (main/); this module only
 * formats and checks strings, so it stays pure.
 */

/** The exact digest shape; uppercase hex is not a valid digest (SEP-2640 §3). */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** True when `value` is a well-formed SEP-2640 digest. */
export function isDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_PATTERN.test(value);
}

/** Turn 64 hex digits into a digest string; throws for anything that is not a SHA-256 hex value. */
export function formatDigest(hex: string): string {
  const lower = hex.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(lower))
    throw new Error(`"${hex}" is not a SHA-256 value written as 64 hex digits.`);
  return `sha256:${lower}`;
}

/** The 64 hex digits of a digest, or undefined when the string is not a digest. */
export function digestHex(digest: string): string | undefined {
  return isDigest(digest) ? digest.slice('sha256:'.length) : undefined;
}

/** Compare two digests; both must be well-formed. */
export function digestsEqual(a: string, b: string): boolean {
  return isDigest(a) && isDigest(b) && a === b;
}
