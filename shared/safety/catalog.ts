import type { SafetyCategory, SafetySeverity } from './types';

/** One rule of the safety review as documented for people and SARIF (docs/safety-review.md). */
export interface SafetyRuleInfo {
  id: string;
  category: SafetyCategory;
  /** Severity when the rule fires in ordinary text or code; context may lower it. */
  severity: SafetySeverity;
  /** A one-line headline. */
  title: string;
  /** Why it matters, in plain words. */
  why: string;
  /** What to do. */
  action: string;
}

const r = (
  id: string,
  category: SafetyCategory,
  severity: SafetySeverity,
  title: string,
  why: string,
  action: string,
): SafetyRuleInfo => ({ id, category, severity, title, why, action });

const READ_IT =
  'Open the file, read the highlighted line, and remove it unless you know why it is there.';
const ASK_AUTHOR =
  'Do not use the skill until its author explains this, or remove the part yourself.';

/** Every rule of the review, in the order docs/safety-review.md lists them. */
export const SAFETY_RULES: readonly SafetyRuleInfo[] = [
  // Hidden text
  r(
    'hidden/tag-characters',
    'hidden-text',
    'critical',
    'Invisible text hidden in tag characters',
    'Unicode tag characters are invisible on screen but an AI agent reads them as ordinary text, so they can carry instructions you never see.',
    ASK_AUTHOR,
  ),
  r(
    'hidden/zero-width',
    'hidden-text',
    'high',
    'Invisible zero-width characters',
    'Zero-width characters are invisible. They can hide a message, or split a word so that a check for it misses while the agent still reads it.',
    READ_IT,
  ),
  r(
    'hidden/bidi-control',
    'hidden-text',
    'high',
    'Characters that reorder text on screen',
    'Bidirectional controls make text display in a different order from the one an agent or a program reads, so what you see is not what runs.',
    READ_IT,
  ),
  r(
    'hidden/variation-selectors',
    'hidden-text',
    'critical',
    'Data hidden in variation selectors',
    'A run of variation selectors after a character is invisible but can encode a whole message that an agent may decode and follow.',
    ASK_AUTHOR,
  ),
  r(
    'hidden/html-comment',
    'hidden-text',
    'high',
    'Instructions hidden in an HTML comment',
    'HTML comments do not show when the Markdown is displayed, but an agent reads them. Instructions there are hidden from you.',
    READ_IT,
  ),
  r(
    'hidden/styled-text',
    'hidden-text',
    'high',
    'Instructions hidden by HTML styling',
    'Text styled to be invisible (hidden, white on white, a font of a pixel, pushed off screen) does not show when the Markdown is displayed, but an agent reads it.',
    READ_IT,
  ),
  r(
    'hidden/link-title',
    'hidden-text',
    'high',
    'Instructions hidden in a link title',
    'A link title only shows when you hover over the link, but an agent reads it as part of the text.',
    READ_IT,
  ),
  r(
    'hidden/alt-text',
    'hidden-text',
    'high',
    'Instructions hidden in image alt text',
    'Alt text is not shown beside a displayed image, but an agent reads it as part of the text.',
    READ_IT,
  ),
  r(
    'hidden/padding',
    'hidden-text',
    'medium',
    'Long padding that pushes text out of view',
    'Thousands of blank lines or spaces push the rest of the file far out of view, where a quick look misses it.',
    'Scroll past the padding and read what follows it.',
  ),
  // Instructions aimed at the agent
  r(
    'agent/override-instructions',
    'agent-instructions',
    'high',
    'Tells the agent to ignore its other instructions',
    'A skill that tells the agent to disregard earlier instructions is trying to take over the agent, a classic prompt injection.',
    ASK_AUTHOR,
  ),
  r(
    'agent/conceal-from-user',
    'agent-instructions',
    'high',
    'Tells the agent to hide something from you',
    'A skill has no honest reason to ask the agent to keep its actions from the person using it.',
    ASK_AUTHOR,
  ),
  r(
    'agent/fake-role-tag',
    'agent-instructions',
    'high',
    'Pretends to be a system or assistant message',
    'Text dressed up as a system or assistant message tries to make the agent treat the skill as having more authority than it has.',
    READ_IT,
  ),
  r(
    'agent/approval-bypass',
    'agent-instructions',
    'high',
    'Tells the agent to act without asking you',
    'Skipping permission prompts removes the moment where you could stop something harmful.',
    'Keep the agent asking before it runs commands; remove the instruction or the flag.',
  ),
  r(
    'agent/remote-instructions',
    'agent-instructions',
    'high',
    'Fetches its instructions from the internet at run time',
    'Instructions downloaded while the skill runs can change at any time after you reviewed it, so this review cannot vouch for them.',
    'Copy the instructions into the skill so they can be reviewed, or do not use it.',
  ),
  r(
    'agent/exfiltrate-data',
    'agent-instructions',
    'critical',
    'Tells the agent to send private data somewhere',
    'Sending keys, passwords, or your conversations to an outside address is how data is stolen.',
    ASK_AUTHOR,
  ),
  r(
    'agent/decode-and-follow',
    'agent-instructions',
    'high',
    'Tells the agent to decode text and follow it',
    'Encoded instructions cannot be read by you, only by the agent, which is a way to hide what the skill asks for.',
    ASK_AUTHOR,
  ),
  // Scripts
  r(
    'script/secret-to-network',
    'scripts',
    'critical',
    'A script reads secrets and sends data over the network',
    'Reading credentials (SSH keys, cloud keys, browser data, wallets, environment variables) in a script that also talks to the network is how credentials are stolen.',
    ASK_AUTHOR,
  ),
  r(
    'script/download-execute',
    'scripts',
    'critical',
    'A script downloads code and runs it',
    'Code fetched and run at once was never reviewed and can change at any time.',
    ASK_AUTHOR,
  ),
  r(
    'script/decode-execute',
    'scripts',
    'critical',
    'A script decodes hidden code and runs it',
    'Decoding text and running it at once hides what the code does from anyone reading the script.',
    ASK_AUTHOR,
  ),
  r(
    'script/reverse-shell',
    'scripts',
    'critical',
    'A script opens a remote shell',
    'A reverse shell gives someone else a command line on your computer.',
    'Do not run this skill. Delete it.',
  ),
  r(
    'script/persistence',
    'scripts',
    'high',
    'Changes files outside the skill that run again later',
    'Writing to shell start-up files, scheduled tasks, services, git hooks or your agents\u2019 settings makes something run again later, long after you used the skill.',
    READ_IT,
  ),
  r(
    'script/destructive-delete',
    'scripts',
    'high',
    'Deletes files outside the skill',
    'A recursive delete of your home folder, the whole disk or a folder outside the skill can destroy your work.',
    READ_IT,
  ),
  r(
    'script/reads-credentials',
    'scripts',
    'medium',
    'Reads credentials or private data',
    'The script reads files or variables that hold secrets. Check that it needs them and does not pass them on.',
    READ_IT,
  ),
  r(
    'script/install-hook',
    'scripts',
    'medium',
    'Runs code automatically when installed or tested',
    'Install scripts (npm lifecycle scripts, setup.py commands, .pth files, conftest.py) run without an explicit command.',
    'Read the hook before installing dependencies or running tests in this skill.',
  ),
  r(
    'script/obfuscated',
    'scripts',
    'medium',
    'Encoded or obfuscated code',
    'A long encoded block or escaped strings hide what the code does from someone reading it.',
    'Decode the block (or ask the author what it is) before running the skill.',
  ),
  // Frontmatter
  r(
    'frontmatter/unrestricted-tools',
    'frontmatter',
    'medium',
    'Lets the agent run any command without asking',
    'allowed-tools grants Bash with no limit, so every command the skill suggests runs without a permission prompt.',
    'Limit allowed-tools to the commands the skill needs, such as Bash(git status:*).',
  ),
  r(
    'frontmatter/hooks',
    'frontmatter',
    'high',
    'Declares hooks that run commands',
    'Hooks run shell commands automatically on agent events, without the agent deciding to.',
    'Read every hook command; remove the hooks unless you need them.',
  ),
  r(
    'frontmatter/shell-preprocess',
    'frontmatter',
    'high',
    'Runs a command when the skill loads',
    'A line written !`command` is run by the agent before the skill is even read, with no permission prompt.',
    'Replace it with an instruction the agent asks about, or remove it.',
  ),
  r(
    'frontmatter/trigger-everything',
    'frontmatter',
    'medium',
    'Wants to be used for every request',
    'A description written to match everything makes the agent load this skill far more often than you intend.',
    'Narrow the description to the tasks the skill is for.',
  ),
  // Supply chain
  r(
    'supply/unpinned-package',
    'supply-chain',
    'medium',
    'Installs a package without a fixed version',
    'Without a version, whatever is published next (including a hijacked release) is what runs.',
    'Pin an exact version (name@1.2.3).',
  ),
  r(
    'supply/registry-redirect',
    'supply-chain',
    'high',
    'Installs packages from another registry',
    'Pointing the package manager at another registry or index lets that server hand out any code under familiar names.',
    'Use the official registry, or check who runs this one.',
  ),
  r(
    'supply/lookalike-domain',
    'supply-chain',
    'high',
    'A web address that imitates a well-known one',
    'Punycode, mixed alphabets, near-miss spellings and a well-known name put in front of someone else’s address make an address look like one you trust.',
    'Compare the address letter by letter with the real one.',
  ),
  r(
    'supply/typosquat',
    'supply-chain',
    'high',
    'A package name one letter away from a popular package',
    'Attackers publish packages whose names are misspellings of popular ones.',
    'Check the package name against the one you meant.',
  ),
  r(
    'supply/pipe-to-shell',
    'supply-chain',
    'high',
    'Pipes a download straight into a shell',
    'curl \u2026 | sh runs whatever the server sends, unreviewed, and it can change at any time.',
    'Download the installer, check its checksum, then run it; or use a package manager.',
  ),
  r(
    'supply/data-in-image-url',
    'supply-chain',
    'high',
    'An image address that carries data',
    'Agents fetch images on their own; an image address with placeholders or data in it sends that data to the server.',
    'Remove the image or make its address fixed.',
  ),
  // Files
  r(
    'file/disguised-binary',
    'files',
    'critical',
    'A program disguised as another kind of file',
    'The file\u2019s bytes are not what its name says (for example, a program named like an image).',
    'Delete the file unless you know what it is.',
  ),
  r(
    'file/executable-binary',
    'files',
    'high',
    'A compiled program',
    'Compiled programs cannot be reviewed by reading them.',
    'Use the skill only if you trust where the program comes from.',
  ),
  r(
    'file/archive',
    'files',
    'medium',
    'An archive inside the skill',
    'What an archive holds was not examined, and a script may unpack and run it.',
    'Unpack it and review its contents, or remove it.',
  ),
  r(
    'file/compiled-python',
    'files',
    'high',
    'Compiled Python code',
    'Compiled Python (.pyc) can run instead of the readable source beside it, and cannot be reviewed.',
    'Delete the compiled files; Python rebuilds them from the source.',
  ),
  r(
    'file/lookalike-name',
    'files',
    'high',
    'A file name that imitates another',
    'A name spelled with lookalike letters from another alphabet, or one that reads the same as another file, makes you review one file while the agent runs or reads another.',
    'Rename the file with plain letters, or remove it if you did not expect it.',
  ),
  r(
    'file/link-outside',
    'files',
    'high',
    'A link that points outside the skill',
    'A link can make the agent read or change a file elsewhere on your computer through a harmless-looking name.',
    'Replace the link with the file itself, or remove it.',
  ),
  r(
    'file/link',
    'files',
    'low',
    'A link inside the skill',
    'Links are not copied when the skill is shared, so the skill may behave differently elsewhere.',
    'Replace the link with the file itself.',
  ),
  r(
    'file/not-examined',
    'files',
    'medium',
    'Part of the skill was not examined',
    'Something in the skill was too large or could not be read, so this review cannot vouch for it.',
    'Look at it yourself, or remove it.',
  ),
  // Secrets
  r(
    'secret/token',
    'secrets',
    'high',
    'A password or API key in the skill',
    'Anyone you share the skill with can use the key.',
    'Remove it, and revoke the key with its provider.',
  ),
  r(
    'secret/file',
    'secrets',
    'high',
    'A private key or credentials file in the skill',
    'Private keys and credential files should never travel with a skill.',
    'Remove the file, and replace the credentials if they were shared.',
  ),
];

const BY_ID = new Map(SAFETY_RULES.map((rule) => [rule.id, rule]));

/** The catalog entry of a rule id (throws for an unknown id: a programming error). */
export function safetyRule(id: string): SafetyRuleInfo {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`Unknown safety rule ${id}`);
  return rule;
}

/** The verdict in plain words. Why never "safe": a review finds known risks, it cannot prove their absence. */
export const VERDICT_HEADLINES = {
  clear: 'No known risks found',
  review: 'Review before trusting',
  danger: "Don't trust",
} as const;
