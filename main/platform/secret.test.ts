import { describe, expect, it } from 'vitest';
import { sameSecret, secretMatcher } from './secret';

describe('secret comparison', () => {
  it('accepts the secret itself and refuses every other string, of any length', () => {
    const token = 'x7Kp2mQ9vLr4TtY8wZa1';
    const matches = secretMatcher(token);
    expect(matches(token)).toBe(true);
    expect(sameSecret(token, token)).toBe(true);
    for (const other of [
      '',
      'x',
      token.slice(0, -1),
      `${token}0`,
      token.toUpperCase(),
      ` ${token}`,
    ])
      expect([matches(other), sameSecret(other, token)]).toEqual([false, false]);
  });

  it('compares the text, not a lookalike: a different normal form of the same letters is refused', () => {
    expect(sameSecret('caf\u00e9-token-123456', 'cafe\u0301-token-123456')).toBe(false);
  });
});
