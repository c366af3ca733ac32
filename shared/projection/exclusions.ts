import type { ExclusionRule } from './types';

/** A rule that always leaves a path out of an export. */
export interface AlwaysExcluded {
  rule: ExclusionRule;
  reason: string;
  /** The path is a folder whose contents need not be listed. */
  folder: boolean;
}

/**
 * Paths always left out (spec §3 "Always on export"): VCS data, OS junk, dependency and
 * Python caches, and a root `evals/` (test cases for the author, not for the model).
 */
export function alwaysExcluded(path: string, isDirectory: boolean): AlwaysExcluded | undefined {
  // Why lastIndexOf rather than split: this runs for every file of every skill in a library listing.
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (isDirectory) {
    if (last === '.git')
      return {
        rule: 'vcs-folder',
        reason: 'Git history is never part of a skill package.',
        folder: true,
      };
    if (last === '__MACOSX')
      return {
        rule: 'os-junk',
        reason: 'macOS archive leftovers (__MACOSX) are never part of a skill package.',
        folder: true,
      };
    if (last === 'node_modules')
      return {
        rule: 'dependency-folder',
        reason:
          'Installed dependencies (node_modules) are left out; the destination installs nothing from them.',
        folder: true,
      };
    if (last === '__pycache__')
      return {
        rule: 'python-cache',
        reason: 'Python caches (__pycache__) are rebuilt automatically and are left out.',
        folder: true,
      };
    if (path === 'evals')
      return {
        rule: 'evals-folder',
        reason:
          'The root evals/ folder holds test cases for the author, not for the model; it is left out.',
        folder: true,
      };
    return undefined;
  }
  if (last === '.DS_Store')
    return {
      rule: 'os-junk',
      reason: 'macOS folder settings (.DS_Store) are left out.',
      folder: false,
    };
  if (last === '.git')
    return {
      rule: 'vcs-folder',
      reason: 'Git data is never part of a skill package.',
      folder: false,
    };
  if (last.endsWith('.pyc'))
    return {
      rule: 'python-cache',
      reason: 'Compiled Python files (.pyc) are rebuilt automatically and are left out.',
      folder: false,
    };
  return undefined;
}

/** `.env` templates that hold no secrets by convention. */
const ENV_TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;

/** Private-key and credential file names (ssh, TLS, package registries). */
const SECRET_NAME =
  /^(id_(rsa|dsa|ecdsa|ed25519)|\.netrc|\.npmrc|\.pypirc|credentials\.json|.*\.(pem|key|p12|pfx|jks|keystore))$/i;

/**
 * Why a file name looks like it holds secrets, or undefined. Why: skills are shared and
 * uploaded; `.env*` files and private keys leak credentials (spec §3 "warn on .env* and
 * other secret-looking files").
 */
export function secretFileReason(path: string): string | undefined {
  const last = path.split('/').pop() ?? '';
  if (/^\.env(\..*)?$/i.test(last) && !ENV_TEMPLATE.test(last)) {
    return `${last} usually holds passwords or API keys.`;
  }
  if (SECRET_NAME.test(last)) return `${last} looks like a private key or a credentials file.`;
  return undefined;
}

/** Patterns of well-known token formats: [label, pattern]. */
const TOKEN_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'a private key',
    /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/,
  ],
  ['an Anthropic API key', /\bsk-ant-[A-Za-z0-9_-]{20,}/],
  ['an OpenAI API key', /\bsk-(?:proj-)?[A-Za-z0-9]{32,}/],
  ['an AWS access key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['a GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/],
  ['a Slack token', /\bxox[abprs]-[A-Za-z0-9-]{10,}/],
  ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}\b/],
  ['a Stripe secret key', /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}/],
];

/**
 * The fixed text every pattern above starts with (or, for Stripe, contains). Why: one pass with
 * this finds nothing in almost every file, where the eight patterns would scan it eight times;
 * the patterns run only on a hit. Keep it in step with TOKEN_PATTERNS.
 */
const TOKEN_HINT = /-----BEGIN |sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abprs]-|AIza|_live_/;

/** What kind of token the text seems to contain, or undefined. */
export function tokenLookingContent(text: string): string | undefined {
  if (!TOKEN_HINT.test(text)) return undefined;
  for (const [label, pattern] of TOKEN_PATTERNS) {
    if (pattern.test(text)) return label;
  }
  return undefined;
}
