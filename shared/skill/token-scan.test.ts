import { describe, expect, it } from 'vitest';
import { tokenLookingContent } from './file-set';

// One sample per token format; the quick pre-check must let every one through to its pattern.
const SAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['a private key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n'],
  ['an Anthropic API key', 'ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz'],
  ['an OpenAI API key', 'key = sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
  ['an AWS access key', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE'],
  ['an AWS access key', 'temporary: ASIAIOSFODNN7EXAMPLE'],
  ['a GitHub token', 'token: ghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'],
  ['a GitHub token', 'token: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
  ['a Slack token', 'SLACK=xoxb-1234567890-abcdef'],
  ['a Google API key', 'maps: AIzaSyA1234567890abcdefghijklmnopqrstuv'],
  ['a Stripe secret key', 'stripe: sk_live_abcdefghijklmnopqrstuvwx'],
  ['a Stripe secret key', 'restricted: rk_live_abcdefghijklmnopqrstuvwx'],
];

describe('tokenLookingContent', () => {
  it.each(SAMPLES)('recognises %s', (label, text) => {
    expect(tokenLookingContent(`# Notes\n\nSome prose before.\n${text}\nand after.\n`)).toBe(label);
  });

  it('passes ordinary prose and near misses', () => {
    expect(
      tokenLookingContent(
        '# Guide\n\nRun the script, then check the summary. Ask before you export.\n',
      ),
    ).toBeUndefined();
    expect(
      tokenLookingContent(
        'a task-list and an AKIA prefix alone, sk-short, ghp_tooShort, xoxb-1, AIzaShort, sk_live_x',
      ),
    ).toBeUndefined();
  });
});
