import { describe, expect, it } from 'vitest';
import { findSecrets, isPlaceholderSecret, secretFileName, tokenLookingContent } from './secrets';

// One random-looking sample per token format (made up; none is a real key).
const SAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['a private key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n'],
  ['an Anthropic API key', 'ANTHROPIC_API_KEY=sk-ant-api03-Qm9vT2xLc3RzWnpQa0RnVnR4'],
  ['an OpenAI API key', 'key = sk-proj-R8x2Lq9ZtY4mKv7NwP3sJ6dF1gH5aB0cE2kU'],
  ['an AWS access key', 'aws_access_key_id = AKIAQ3JZ7XW2L9PRT5VM'],
  ['an AWS access key', 'temporary: ASIAQ3JZ7XW2L9PRT5VM'],
  ['a GitHub token', 'token: ghp_R8x2Lq9ZtY4mKv7NwP3sJ6dF1gH5aB0cE2kU'],
  ['a GitHub token', 'token: github_pat_11AQ3JZ7XW2L9_R8x2Lq9ZtY4mKv7NwP3sJ6dF1gH5aB0cE2kU'],
  ['a Slack token', 'SLACK=xoxb-7731902245-Qm8sLk2PzW9x'],
  ['a Google API key', 'maps: AIzaSyQ3JZ7XW2L9PRT5VMr8x2Lq9ZtY4mKv7Nw'],
  ['a Stripe secret key', 'stripe: sk_live_R8x2Lq9ZtY4mKv7NwP3sJ6dF'],
  ['a Stripe secret key', 'restricted: rk_live_R8x2Lq9ZtY4mKv7NwP3sJ6dF'],
];

describe('secrets (owned by the safety review, asked by the file set)', () => {
  it.each(SAMPLES)('recognises %s', (label, text) => {
    expect(tokenLookingContent(`# Notes\n\nSome prose before.\n${text}\nand after.\n`)).toBe(label);
  });

  it('passes ordinary prose and near misses', () => {
    expect(
      tokenLookingContent('# Guide\n\nRun the script, then check the summary.\n'),
    ).toBeUndefined();
    expect(
      tokenLookingContent(
        'a task-list and an AKIA prefix alone, sk-short, ghp_tooShort, xoxb-1, AIzaShort, sk_live_x',
      ),
    ).toBeUndefined();
  });

  it.each([
    ['the documented AWS example key', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE'],
    ['a value that says example', 'OPENAI_API_KEY=sk-proj-EXAMPLEEXAMPLEEXAMPLEEXAMPLE1234'],
    ['a your-key placeholder', 'ANTHROPIC_API_KEY=sk-ant-your-api-key-goes-here-ok'],
    ['x padding', 'GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'],
    ['a repeated character', 'SLACK=xoxb-aaaaaaaaaaaaaaaaaaaa'],
    ['a sequential run', 'maps: AIzaSyA1234567890abcdefghijklmnopqrstuv'],
  ])('does not treat %s as a secret', (_why, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('always treats a private key block as real', () => {
    expect(isPlaceholderSecret('-----BEGIN RSA PRIVATE KEY-----')).toBe(false);
  });

  it('names credential files but not templates', () => {
    expect(secretFileName('.env')).toMatch(/passwords or API keys/);
    expect(secretFileName('id_ed25519')).toMatch(/private key/);
    expect(secretFileName('.env.example')).toBeUndefined();
    expect(secretFileName('notes.md')).toBeUndefined();
  });
});
