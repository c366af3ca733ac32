/**
 * Comparing a presented secret (a bearer token) with the expected one: the one way both HTTP hosts
 * (the embedded MCP server and the browser shell) check their tokens.
 */
import { hash, timingSafeEqual } from 'node:crypto';

/** Why the one-shot `hash`: a server checks every request, and it costs a fraction of a Hash object. */
function digestOf(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/**
 * A check of presented secrets against `expected`. Why digests compared in constant time: the
 * time an answer takes then says nothing about how much of a guess was right, nor how long the
 * secret is. The expected digest is computed once (a server checks every request).
 */
export function secretMatcher(expected: string): (given: string) => boolean {
  const want = digestOf(expected);
  return (given) => timingSafeEqual(digestOf(given), want);
}

/** Whether `given` is the secret `expected` (see {@link secretMatcher}). */
export function sameSecret(given: string, expected: string): boolean {
  return secretMatcher(expected)(given);
}
