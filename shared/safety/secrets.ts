/**
 * What looks like a secret: well-known token formats and credential file names. The safety
 * review owns this list (docs/safety-review.md, "Secrets"); the file set
 * (shared/skill/file-set.ts) asks here whether a file is withheld when a skill is shared.
 *
 * Documented example keys and placeholders are not secrets: AWS's own documentation key
 * `AKIAIOSFODNN7EXAMPLE`, values that say EXAMPLE, `your-api-key`, `xxxx`, one character
 * repeated. Why: tutorials and API-client skills quote them, and treating them as real blocked
 * exports of harmless skills.
 */

/** Patterns of well-known token formats: [label, pattern]. Each pattern is linear (bounded). */
const TOKEN_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'a private key',
    /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/g,
  ],
  ['an Anthropic API key', /\bsk-ant-[A-Za-z0-9_-]{20,300}/g],
  ['an OpenAI API key', /\bsk-(?:proj-)?[A-Za-z0-9]{32,300}/g],
  ['an AWS access key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['a GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,300}|github_pat_[A-Za-z0-9_]{40,300})/g],
  ['a Slack token', /\bxox[abprs]-[A-Za-z0-9-]{10,300}/g],
  ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['a Stripe secret key', /\b(?:sk|rk)_live_[0-9A-Za-z]{20,300}/g],
];

/**
 * The fixed text every pattern above starts with (or, for Stripe, contains). Why: one pass with
 * this finds nothing in almost every file, where the eight patterns would scan it eight times;
 * the patterns run only on a hit. Keep it in step with TOKEN_PATTERNS.
 */
const TOKEN_HINT = /-----BEGIN |sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abprs]-|AIza|_live_/;

/** Words that mark a value as a stand-in (documentation, templates, tests). */
const PLACEHOLDER_WORD =
  /example|sample|placeholder|dummy|fake|your|redacted|changeme|xxxx|0000|1234/i;

/** Keys published in vendors' documentation as examples. */
const DOCUMENTED_EXAMPLES = new Set(['AKIAIOSFODNN7EXAMPLE', 'ASIAIOSFODNN7EXAMPLE']);

/**
 * Whether a matched token is a stand-in rather than a real secret: a documented example, a value
 * with a placeholder word, or too few distinct characters to be random.
 */
export function isPlaceholderSecret(token: string): boolean {
  if (DOCUMENTED_EXAMPLES.has(token)) return true;
  if (token.startsWith('-----BEGIN')) return false;
  if (PLACEHOLDER_WORD.test(token)) return true;
  // Why: real keys are random; "sk-ant-aaaaaaaa…" or "ghp_abcabcabc…" are not.
  const body = token.replace(/^[a-z]+[-_](?:ant-|proj-|live_)?/i, '');
  const distinct = new Set(body).size;
  return body.length >= 16 && distinct < 8;
}

/** One token found in a text: what kind, where, and the matched text. */
export interface SecretMatch {
  label: string;
  index: number;
  token: string;
}

/** Every real-looking token in `text` (placeholders and documented examples left out). */
export function findSecrets(text: string, limit = 20): SecretMatch[] {
  if (!TOKEN_HINT.test(text)) return [];
  const out: SecretMatch[] = [];
  for (const [label, pattern] of TOKEN_PATTERNS) {
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null && out.length < limit) {
      if (!isPlaceholderSecret(m[0])) out.push({ label, index: m.index, token: m[0] });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** What kind of token the text seems to contain (placeholders aside), or undefined. */
export function tokenLookingContent(text: string): string | undefined {
  return findSecrets(text, 1)[0]?.label;
}

/** `.env` templates that hold no secrets by convention. */
const ENV_TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;
/** Private-key and credential file names (ssh, TLS, package registries). */
const SECRET_NAME =
  /^(id_(rsa|dsa|ecdsa|ed25519)|\.netrc|\.npmrc|\.pypirc|credentials\.json|.*\.(pem|key|p12|pfx|jks|keystore))$/i;

/** Why a file name looks like it holds secrets, or undefined. */
export function secretFileName(name: string): string | undefined {
  if (/^\.env(\..*)?$/i.test(name) && !ENV_TEMPLATE.test(name))
    return `${name} usually holds passwords or API keys.`;
  if (SECRET_NAME.test(name)) return `${name} looks like a private key or a credentials file.`;
  return undefined;
}

/** Names of headers and environment variables that carry credentials by convention. */
const SECRET_VARIABLE =
  /^(authorization|proxy-authorization|cookie)$|token|secret|passw|credential|api[-_]?key|private[-_]?key|(^|[-_])key$/i;

/**
 * Whether a header or environment variable named `name` with `value` carries a secret: a name that
 * says so (Authorization, *_TOKEN, *_API_KEY, …) or a value that looks like a known token. The
 * inspector keeps such values hidden and, in the desktop app, sealed.
 */
export function secretVariable(name: string, value: string): boolean {
  return SECRET_VARIABLE.test(name) || findSecrets(value, 1).length > 0;
}
