import type { ProfileId, Severity } from './types';

/** One rule as documented for people and SARIF: stable id, title, help, severity per profile (absent: silent). */
export interface RuleInfo {
  id: string;
  title: string;
  help: string;
  severity: Partial<Record<ProfileId, Severity>>;
}

type Sev = Partial<Record<ProfileId, Severity>>;

const E: Severity = 'error';
const W: Severity = 'warning';
const I: Severity = 'info';

/** The same severity in every profile. */
function all(s: Severity): Sev {
  return {
    agentskills: s,
    'claude-upload': s,
    'claude-code': s,
    'agentskills-mcp': s,
    'x-personal-mcp': s,
    'universal-2.1': s,
    'mcp-serve': s,
  };
}

/** Every profile that requires a valid `name` and `description` (all but Claude Code). */
function strict(s: Severity): Sev {
  const out = all(s);
  delete out['claude-code'];
  return out;
}

/** The rule catalog (docs/skill-format.md §1 and §2). */
const CATALOG = [
  // §1 parsing traps
  {
    id: 'frontmatter/bom',
    title: 'Byte-order mark before the frontmatter',
    help: 'The file starts with an invisible UTF-8 byte-order mark. Official validators and Claude upload reject it (agentskills-mcp and Claude Code skip it). Remove it.',
    // Why W in agentskills-mcp: its loader (gray-matter) strips the mark before reading.
    severity: { ...all(E), 'claude-code': W, 'agentskills-mcp': W },
  },
  {
    id: 'frontmatter/missing',
    title: 'No frontmatter',
    help: 'SKILL.md must start with a line `---`, the YAML fields, and another `---` line.',
    severity: { ...all(E), 'claude-code': W },
  },
  {
    id: 'frontmatter/not-at-start',
    title: 'Text before the frontmatter',
    help: 'The opening `---` must be the very first line; blank lines or comments before it make every reader ignore the frontmatter.',
    severity: all(E),
  },
  {
    id: 'frontmatter/unclosed',
    title: 'Frontmatter not closed',
    help: 'The frontmatter needs a closing line that is exactly `---`.',
    severity: all(E),
  },
  {
    id: 'frontmatter/dots-closer',
    title: '`...` used to close the frontmatter',
    help: 'Close the frontmatter with `---`, not the YAML document end marker `...`.',
    severity: all(E),
  },
  {
    id: 'frontmatter/opener-whitespace',
    title: 'Spaces after the opening `---`',
    help: 'The first `---` line has trailing spaces. skill-creator looks for exactly `---` and a line break, so Claude upload rejects the file; the reference validator accepts it.',
    severity: { ...all(W), 'claude-upload': E },
  },
  {
    id: 'frontmatter/delimiter-whitespace',
    title: 'Spaces after the closing `---`',
    help: 'The closing `---` line has trailing spaces. The official validators accept it, simpler loaders miss the end of the frontmatter.',
    severity: all(W),
  },
  {
    id: 'frontmatter/not-mapping',
    title: 'Frontmatter is not a set of fields',
    help: 'The frontmatter must be a YAML mapping (`key: value` lines).',
    severity: all(E),
  },
  {
    id: 'file/line-endings',
    title: 'Windows (CRLF) or mixed line endings',
    help: 'Official validators accept CRLF, many other loaders break on it. Export normalises to LF.',
    severity: all(W),
  },
  {
    id: 'file/too-complex',
    title: 'File too large or complex to check fully',
    help: 'The file goes past one of the bounds on the work one SKILL.md may cause (VALIDATION_LIMITS: size of the frontmatter and of the body, nesting, number of YAML nodes, anchors and aliases, findings). Only what can be checked safely was checked; no real skill comes near these bounds.',
    // Why an error everywhere: Skillbench cannot vouch for a file it could not check fully, and
    // readers that load such a file spend the same time and memory on it.
    severity: all(E),
  },
  {
    id: 'file/wrong-name',
    title: 'File named skill.md',
    help: 'Only the reference validator accepts a lowercase `skill.md`; every upload target needs `SKILL.md`.',
    severity: { ...all(E), agentskills: W },
  },
  {
    id: 'yaml/syntax',
    title: 'YAML syntax error',
    help: 'The frontmatter is not valid YAML 1.2.',
    severity: all(E),
  },
  {
    id: 'yaml/parser-warning',
    title: 'YAML parser warning',
    help: 'The YAML parser accepted the frontmatter with a warning.',
    severity: all(W),
  },
  {
    id: 'yaml/unquoted-colon',
    title: 'Unquoted `: ` inside a value',
    help: 'A colon followed by a space starts a new field in YAML. Strict parsers reject the file; Claude Code tolerates it; some loaders silently drop the skill. Quote the value.',
    severity: { ...all(E), 'claude-code': W },
  },
  {
    id: 'yaml/comment-truncates-value',
    title: '` #` cuts the value short',
    help: 'In an unquoted value, ` #` starts a comment: the rest of the text is silently lost. Quote the value.',
    severity: all(W),
  },
  {
    id: 'yaml/triple-dash-in-value',
    title: '`---` inside the frontmatter',
    help: 'The reference validator splits the file at every `---`, so the value is cut there.',
    severity: all(W),
  },
  {
    id: 'yaml/ambiguous-scalar',
    title: 'Value that YAML may not read as text',
    help: 'Unquoted yes/no/on/off/true/false/null/~, numbers and dates are typed differently by YAML 1.1 and 1.2. Quote text values.',
    severity: all(W),
  },
  {
    id: 'yaml/flow-collection',
    title: 'Inline `[...]` or `{...}`',
    help: 'The reference validator (strictyaml) rejects inline lists and mappings; other readers accept them. Use block style (one `- item` per line).',
    severity: { ...all(W), agentskills: E, 'claude-code': undefined },
  },
  {
    id: 'yaml/anchor-alias',
    title: 'YAML anchor or alias',
    help: 'The reference validator (strictyaml) rejects anchors (`&a`) and aliases (`*a`); other readers resolve them. Write the value out.',
    severity: { ...all(W), agentskills: E, 'claude-code': undefined },
  },
  {
    id: 'yaml/explicit-tag',
    title: 'Explicit YAML type tag',
    help: 'A tag such as `!!str` names the type of a value. The reference validator (strictyaml) rejects every tag; other readers accept the standard ones. Quote the value instead.',
    severity: { ...all(W), agentskills: E, 'claude-code': undefined },
  },
  {
    id: 'yaml/unknown-tag',
    title: 'Unknown YAML tag',
    help: 'A tag that is not a standard YAML type (`!custom`): the safe loaders of the reference validator, skill-creator and agentskills-mcp refuse the file.',
    severity: { agentskills: E, 'claude-upload': E, 'agentskills-mcp': E },
  },
  {
    id: 'yaml/duplicate-key',
    title: 'Field written twice',
    help: 'A field appears twice; strict parsers reject the file and others keep only one.',
    severity: all(E),
  },
  {
    id: 'yaml/tab-indentation',
    title: 'Tab used for indentation',
    help: 'YAML forbids tabs for indentation. Use spaces.',
    severity: all(E),
  },
  {
    id: 'yaml/not-json',
    title: 'Frontmatter does not convert to JSON',
    help: 'The embedded server needs frontmatter that converts to JSON without loss: string keys only, no timestamps, no infinities.',
    severity: { 'mcp-serve': E },
  },
  // §2 fields
  // Why mcp-serve: W — SEP-2640 §3 serves the frontmatter "verbatim: every field the author wrote", and
  // the embedded server serves skills that carry x-personal-mcp or Claude Code fields; an extra field cannot make an entry wrong.
  {
    id: 'keys/unexpected',
    title: 'Unexpected field',
    help: 'A field this reader does not know.',
    severity: {
      agentskills: E,
      'claude-upload': E,
      'claude-code': W,
      'agentskills-mcp': W,
      'universal-2.1': E,
      'mcp-serve': W,
    },
  },
  {
    id: 'name/missing',
    title: 'No name',
    help: 'The `name` field is required.',
    severity: strict(E),
  },
  {
    id: 'name/type',
    title: 'Name is not text',
    help: 'The `name` field must be a single line of text.',
    severity: { ...strict(E), 'claude-code': W },
  },
  {
    id: 'name/too-long',
    title: 'Name longer than 64 characters',
    help: 'The name may have at most 64 characters.',
    severity: strict(E),
  },
  {
    id: 'name/uppercase',
    title: 'Name has capital letters',
    help: 'The name must be lowercase.',
    severity: strict(E),
  },
  {
    id: 'name/pattern',
    title: 'Name has characters that are not allowed',
    help: 'Lowercase letters, digits and single hyphens, not at either end.',
    severity: strict(E),
  },
  {
    id: 'name/non-ascii',
    title: 'Name uses letters outside a–z',
    help: 'The reference validator accepts lowercase letters of other scripts; upload targets accept only a–z, 0–9 and `-`.',
    severity: {
      agentskills: W,
      'claude-upload': E,
      'agentskills-mcp': E,
      'x-personal-mcp': E,
      'universal-2.1': E,
      'mcp-serve': W,
    },
  },
  {
    id: 'name/folder-mismatch',
    title: 'Name differs from the folder',
    help: 'The name must equal the skill folder name (compared after Unicode NFKC; agentskills-mcp compares them exactly).',
    severity: {
      agentskills: E,
      'claude-upload': E,
      'agentskills-mcp': E,
      'x-personal-mcp': E,
      'universal-2.1': W,
      'mcp-serve': E,
    },
  },
  {
    id: 'name/reserved-word',
    title: 'Name contains a reserved word',
    help: "Anthropic's upload rejects names containing 'anthropic' or 'claude'.",
    severity: { 'claude-upload': E, 'x-personal-mcp': E },
  },
  {
    id: 'name/xml-tag',
    title: 'XML tag in the name',
    help: 'Anthropic targets reject XML-like tags (`<word>`) in the name.',
    severity: { 'claude-upload': E, 'x-personal-mcp': E, 'universal-2.1': E },
  },
  {
    id: 'description/missing',
    title: 'No description',
    help: 'The `description` field is required: it tells the agent when to use the skill.',
    severity: strict(E),
  },
  {
    id: 'description/type',
    title: 'Description is not text',
    help: 'The `description` field must be text.',
    severity: { ...strict(E), 'claude-code': W },
  },
  {
    id: 'description/empty',
    title: 'Empty description',
    help: 'The description must not be empty.',
    severity: strict(E),
  },
  {
    id: 'description/too-long',
    title: 'Description longer than 1024 characters',
    help: 'The description may have at most 1024 characters (code points).',
    severity: strict(E),
  },
  {
    id: 'description/too-short',
    title: 'Short description',
    help: 'agentskills-mcp recommends at least 50 characters so the agent knows when to use the skill.',
    severity: { 'agentskills-mcp': W },
  },
  {
    id: 'description/template-text',
    title: 'Template text in the description',
    help: "The description is still a template's placeholder (such as `TODO: …`). Agents choose a skill by its description, so this one would not be chosen when it should be.",
    severity: all(W),
  },
  {
    id: 'description/xml-tag',
    title: 'XML tag in the description',
    help: 'Anthropic targets reject XML-like tags (`<word>`, `</word>`) in the description.',
    severity: { 'claude-upload': E, 'x-personal-mcp': E, 'universal-2.1': E },
  },
  {
    id: 'description/angle-bracket',
    title: '`<` or `>` in the description',
    help: "skill-creator's checks, which packaging and upload follow, reject any `<` or `>` in the description (such as `->` or `>200MB`).",
    severity: { 'claude-upload': E, 'x-personal-mcp': W },
  },
  {
    id: 'description/listing-truncated',
    title: 'Description cut in the skill listing',
    help: 'Claude Code truncates description plus when_to_use at 1,536 characters in its listing.',
    severity: { 'claude-code': W },
  },
  {
    id: 'compatibility/too-long',
    title: 'Compatibility longer than 500 characters',
    help: 'The compatibility field may have at most 500 characters.',
    severity: {
      agentskills: E,
      'claude-upload': E,
      'agentskills-mcp': E,
      'x-personal-mcp': E,
      'mcp-serve': E,
    },
  },
  {
    id: 'compatibility/type',
    title: 'Compatibility is not text',
    help: 'The compatibility field must be text.',
    severity: {
      agentskills: E,
      'claude-upload': E,
      'claude-code': W,
      'agentskills-mcp': E,
      'x-personal-mcp': E,
      'mcp-serve': E,
    },
  },
  {
    id: 'metadata/type',
    title: 'Metadata is not a mapping',
    help: 'The metadata field must be a mapping of names to text values.',
    severity: {
      agentskills: E,
      'claude-upload': E,
      'claude-code': W,
      'agentskills-mcp': E,
      'x-personal-mcp': E,
      'mcp-serve': E,
    },
  },
  {
    id: 'metadata/non-string-value',
    title: 'Metadata value is not text',
    help: 'Metadata values should be text; other values are turned into text by readers.',
    severity: {
      agentskills: W,
      'claude-upload': W,
      'agentskills-mcp': W,
      'x-personal-mcp': W,
      'mcp-serve': W,
    },
  },
  {
    id: 'allowed-tools/list',
    title: 'allowed-tools written as a list',
    help: 'The Agent Skills specification wants a space-separated string.',
    severity: { agentskills: W, 'claude-upload': W, 'agentskills-mcp': W, 'mcp-serve': W },
  },
  {
    id: 'allowed-tools/commas',
    title: 'allowed-tools separated by commas',
    help: 'The Agent Skills specification separates the tools with spaces; a reader that follows it takes "Read," as a tool name. Claude Code accepts commas too.',
    severity: { agentskills: W, 'claude-upload': W, 'agentskills-mcp': W, 'mcp-serve': W },
  },
  {
    id: 'allowed-tools/type',
    title: 'allowed-tools has the wrong type',
    help: 'allowed-tools must be a space-separated string (Claude Code also accepts a list).',
    severity: {
      agentskills: E,
      'claude-upload': E,
      'claude-code': W,
      'agentskills-mcp': E,
      'x-personal-mcp': W,
      'mcp-serve': E,
    },
  },
  {
    id: 'argument-hint/list',
    title: 'argument-hint read as a list',
    help: 'An unquoted `[x]` is a YAML list, not text. Quote the hint. agentskills-mcp rejects the skill; Claude Code shows the hint wrongly.',
    severity: { 'claude-code': W, 'agentskills-mcp': E, 'x-personal-mcp': W },
  },
  {
    id: 'license/missing',
    title: 'No license',
    help: 'agentskills-mcp recommends a license field.',
    severity: { 'agentskills-mcp': W },
  },
  {
    id: 'body/too-long',
    title: 'Long body',
    help: 'Keep SKILL.md under about 500 lines / 5,000 tokens (agentskills-mcp: 20,000 characters); move detail into reference files.',
    severity: {
      agentskills: W,
      'claude-upload': W,
      'claude-code': W,
      'agentskills-mcp': W,
      'x-personal-mcp': W,
      'mcp-serve': W,
    },
  },
  {
    id: 'body/placeholder',
    title: 'Argument placeholder in the body',
    help: 'The body uses a placeholder that the reader replaces when the skill is invoked.',
    severity: { 'claude-code': I, 'agentskills-mcp': I },
  },
  {
    id: 'body/shell-command',
    title: 'Shell command in the body',
    help: 'A `!`command`` line runs a shell command when the skill loads. Skillbench never runs it; review it.',
    severity: { 'claude-code': W, 'agentskills-mcp': W },
  },
  // x-personal-mcp
  {
    id: 'x-personal-mcp/missing',
    title: 'No x-personal-mcp block',
    help: 'The repository contract requires an `x-personal-mcp` block.',
    severity: { 'x-personal-mcp': E },
  },
  {
    id: 'x-personal-mcp/id',
    title: 'x-personal-mcp id differs from the name',
    help: '`x-personal-mcp.id` must equal `name` and the folder name.',
    severity: { 'x-personal-mcp': E },
  },
  {
    id: 'x-personal-mcp/version',
    title: 'Version is not semver',
    help: '`x-personal-mcp.version` must be a semantic version such as 1.2.0.',
    severity: { 'x-personal-mcp': E },
  },
  {
    id: 'x-personal-mcp/capabilities',
    title: 'Capabilities missing the document resource',
    help: '`capabilities` must be a non-empty list that includes `resource://skills/<id>/document`.',
    severity: { 'x-personal-mcp': E },
  },
  {
    id: 'x-personal-mcp/tags',
    title: 'Tag not kebab-case',
    help: '`tags` must be a list of kebab-case words.',
    severity: { 'x-personal-mcp': E },
  },
  {
    id: 'x-personal-mcp/reference',
    title: 'Reference entry invalid',
    help: 'Each reference: a kebab-case id mapping to `{path, mime_type: text/markdown, title?}` with a relative `references/….md` path without `..`.',
    severity: { 'x-personal-mcp': E },
  },
  {
    id: 'x-personal-mcp/reference-missing',
    title: 'Referenced file missing',
    help: 'The reference path must point at a file inside the skill folder.',
    severity: { 'x-personal-mcp': E },
  },
  // universal-2.1
  {
    id: 'tools/name',
    title: 'Tool name not allowed',
    help: 'Tool names follow the same rule as skill names: lowercase letters, digits and `-`, at most 64.',
    severity: { 'universal-2.1': E },
  },
  {
    id: 'tools/input-schema',
    title: 'Tool input_schema is not a valid schema',
    help: 'Each tool `input_schema` must be a valid JSON Schema 2020-12 with `type: object`.',
    severity: { 'universal-2.1': E },
  },
  {
    id: 'tools/input-schema-open',
    title: 'Tool input_schema allows any property',
    help: 'Add `additionalProperties: false` so unexpected arguments are rejected.',
    severity: { 'universal-2.1': W },
  },
  {
    id: 'tools/entrypoint',
    title: 'Entrypoint does not match the runtime',
    help: 'python → .py, node → .js or .mjs (not .ts), bash → .sh.',
    severity: { 'universal-2.1': E },
  },
  {
    id: 'tools/entrypoint-missing',
    title: 'Entrypoint file missing',
    help: 'The tool entrypoint must exist inside the skill folder.',
    severity: { 'universal-2.1': E },
  },
  {
    id: 'tools/tools-json-stale',
    title: 'tools.json out of date',
    help: '`tools.json` must equal the frontmatter `tools`.',
    severity: { 'universal-2.1': E },
  },
  {
    id: 'permissions/overbroad',
    title: 'Overbroad permission',
    help: 'A permission of `*` or `**/*` grants everything; list what the skill needs.',
    severity: { 'universal-2.1': W },
  },
  // folder
  {
    id: 'files/symlink-escapes',
    title: 'Symlink leaves the skill folder',
    help: 'A symbolic link points outside the skill folder (or nowhere); it is never followed silently.',
    severity: {
      agentskills: W,
      'claude-upload': W,
      'agentskills-mcp': W,
      'x-personal-mcp': W,
      'universal-2.1': W,
      'mcp-serve': E,
    },
  },
  {
    id: 'files/symlink-inside',
    title: 'Symlink inside the skill folder',
    help: 'A symbolic link to another file of the skill: Claude Code reading the folder in place follows it, but the server, archives and copies leave links out, so readers that get the skill that way cannot open it by this name.',
    severity: {
      agentskills: W,
      'claude-upload': W,
      'agentskills-mcp': W,
      'x-personal-mcp': W,
      'universal-2.1': W,
      'mcp-serve': W,
      'claude-code': I,
    },
  },
  {
    id: 'files/too-many',
    title: 'Too many files',
    help: 'The embedded server serves skills of at most 512 files.',
    severity: { 'mcp-serve': E },
  },
  {
    id: 'files/too-large',
    title: 'Skill folder too large',
    help: 'The embedded server serves skills of at most 16.8 MB (16 MiB).',
    severity: { 'mcp-serve': E },
  },
  // links in the body, checked against the file view (shared/validation/link-rules.ts)
  {
    id: 'links/broken',
    title: 'Link to a missing file',
    help: 'A relative link in SKILL.md points at a file that is not in the skill folder. The agent cannot open it.',
    severity: all(W),
  },
  {
    id: 'links/mentioned-missing',
    title: 'Instructions name a missing file',
    help: "The instructions name a file in the skill's scripts/, references/ or assets/ folder (`python scripts/fill.py`) that is not there. The agent will try to open or run it and fail.",
    severity: all(W),
  },
  {
    id: 'links/outside-skill',
    title: 'Link leaves the skill folder',
    help: 'A link points outside the skill folder (`../` or an absolute path). Packages contain only the skill folder, so the link breaks once the skill is shared.',
    severity: all(W),
  },
  {
    id: 'engine/rule-failed',
    title: 'A check failed',
    help: 'An internal error stopped one check; the other findings are still reported.',
    severity: all(W),
  },
  // JSON Schema (ajv) findings no hand rule covers
  {
    id: 'schema/invalid',
    title: 'Field does not match the profile schema',
    help: "A field's value does not match the profile's JSON Schema.",
    severity: { ...all(E), 'claude-code': W },
  },
] as const satisfies readonly RuleInfo[];

/** Every rule of the validation core, for people and SARIF. */
export const RULES: readonly RuleInfo[] = CATALOG;

/** A rule id of the validation core: a misspelt id in a rule does not compile. */
export type RuleId = (typeof CATALOG)[number]['id'];

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

/** The rule with this id, if any. */
export function getRule(id: string): RuleInfo | undefined {
  return BY_ID.get(id);
}

/** The severity of a rule in a profile, or null when the profile does not check it. */
export function severityOf(id: string, profile: ProfileId): Severity | null {
  return BY_ID.get(id)?.severity[profile] ?? null;
}
