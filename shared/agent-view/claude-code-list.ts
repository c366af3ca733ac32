/**
 * A skill's line in Claude Code's skill list, `- LABEL: TEXT`, as Claude Code builds it from the
 * SKILL.md in a skills folder (docs/claude-code-listing.md). Observed of Claude Code 2.1.332 with
 * scripts/agent-listing.mjs; every case there is a test in claude-code-list.test.ts:
 * - LABEL is the folder's name, then ` (NAME)` when the frontmatter's `name` can be shown there
 *   ({@link claudeCodeList}: not with whitespace, not a folder's name, once per name);
 * - TEXT is the description and `when_to_use` (shared/validation/listing.ts). With no description
 *   (none, empty or null), the body's first non-blank line stands in, a heading without its `#`
 *   marks, and `Skill` when the body has none. A number or `true` is listed as text;
 * - only a block closed by a `---` line is frontmatter: otherwise the whole file is body;
 * - a key given twice takes its last value;
 * - frontmatter that is not valid YAML is read again with each top-level value that is not quoted
 *   put in double quotes (the usual mistake: a colon or a `[` in a description); when that is not
 *   valid either, Claude Code reads no field at all: the folder's name and the body's first line.
 *   That second reading is ours, made to match every case observed.
 */
import { isJsonObject } from '../json/values';
import { parseSkill, type ParsedSkill } from '../skill/frontmatter-parser';
import { claudeCodeListing, type ListingLength } from '../validation/listing';
import { requoted } from './requote';

/** A skill as Claude Code's skill list shows it. */
export interface ClaudeCodeListEntry {
  /** The folder's name, with `(name)` after it when the frontmatter names the skill otherwise. */
  label: string;
  /** The text beside the label, and how much of it the list cuts. */
  listing: ListingLength;
  /** The whole line, `- LABEL: TEXT`. */
  line: string;
}

/** A frontmatter value Claude Code lists as text: a string, a number or a boolean. */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** The fields Claude Code reads from a SKILL.md, and its body. */
function fieldsOf(parsed: ParsedSkill): { fields: Record<string, unknown>; body: string } {
  // Why only a `---` closer: Claude Code takes a block closed otherwise (by `...`, or not at all)
  // for body, the opening `---` line first.
  if (!parsed.frontmatter) return { fields: {}, body: parsed.body };
  if (parsed.frontmatter.closer !== '---')
    return { fields: {}, body: parsed.text.replace(/^\uFEFF/, '') };
  // Why a repeated key is no failure: Claude Code's YAML reading takes the last value.
  if (parsed.yamlErrors.every((e) => e.code === 'DUPLICATE_KEY'))
    return { fields: isJsonObject(parsed.data) ? parsed.data : {}, body: parsed.body };
  // Why every top-level value: Claude Code quotes each one that is not quoted, not only the one
  // that broke the YAML.
  const again = parseSkill(
    `---\n${requoted(parsed.frontmatter.raw, (line) => line.indent === '', { blocks: false })}\n---\n`,
  );
  return {
    fields: again.yamlErrors.length === 0 && isJsonObject(again.data) ? again.data : {},
    body: parsed.body,
  };
}

/** The body's first non-blank line, a heading without its marks; `Skill` when there is none. */
function firstLine(body: string): string {
  for (const line of body.split('\n')) {
    const text = line.trim();
    if (text !== '') return text.replace(/^#+[ \t]*/, '').trim() || 'Skill';
  }
  return 'Skill';
}

/** What Claude Code reads of one SKILL.md for its list: the name it may show, and the text. */
export interface ClaudeCodeReading {
  /** The frontmatter's `name` as text, trimmed ('' when there is none). */
  name: string;
  listing: ListingLength;
}

/** Read one SKILL.md (its text, or as parseSkill read it) the way Claude Code's list reads it. */
export function claudeCodeReading(skill: string | ParsedSkill): ClaudeCodeReading {
  const { fields, body } = fieldsOf(typeof skill === 'string' ? parseSkill(skill) : skill);
  const described = asText(fields['description']);
  const description =
    described !== undefined && described.trim() !== '' ? described : firstLine(body);
  return {
    name: asText(fields['name'])?.trim() ?? '',
    listing: claudeCodeListing(description, asText(fields['when_to_use']) ?? ''),
  };
}

/**
 * The order of Claude Code's list: by folder name, as a person sorts words (`a`, `b`, `Slide-Maker`;
 * `my_skill` before `my-skill`, `my-skill-x` before `MySkill`), which is how Claude Code orders its
 * lines (11 folders of probes; docs/claude-code-listing.md). A fixed locale, so one library lists
 * alike on every computer.
 */
const FOLDER_ORDER = new Intl.Collator('en');

/** Sort by folder name in the order of Claude Code's list. */
export function byClaudeCodeOrder(a: string, b: string): number {
  return FOLDER_ORDER.compare(a, b);
}

/**
 * The lines of one skills folder's list, one per skill folder, in the order given. A `name` is
 * shown beside its folder at most once: not when it has whitespace, is the skill's own folder
 * name or another skill's folder name, or a skill before it in Claude Code's order showed it.
 */
export function claudeCodeList(
  skills: readonly { folder: string; reading: ClaudeCodeReading }[],
): ClaudeCodeListEntry[] {
  const folders = new Set(skills.map((s) => s.folder));
  const order = [...skills.keys()].sort((a, b) =>
    byClaudeCodeOrder(skills[a]?.folder ?? '', skills[b]?.folder ?? ''),
  );
  const shown = new Set<string>();
  const labels: string[] = [];
  for (const k of order) {
    const { folder, reading } = skills[k] ?? { folder: '', reading: { name: '' } };
    const name = reading.name;
    const suffix = name !== '' && !/\s/.test(name) && !folders.has(name) && !shown.has(name);
    if (suffix) shown.add(name);
    labels[k] = suffix ? `${folder} (${name})` : folder;
  }
  return skills.map(({ reading }, k) => {
    const label = labels[k] ?? '';
    return { label, listing: reading.listing, line: `- ${label}: ${reading.listing.shown}` };
  });
}

/** The line before the list in Claude Code's system prompt. */
export const CLAUDE_CODE_LIST_HEADING =
  'The following skills are available for use with the Skill tool:';

/** The skills section of Claude Code's system prompt for these lines, as it writes it. */
export function claudeCodeSection(lines: readonly string[]): string {
  return `${CLAUDE_CODE_LIST_HEADING}\n\n${lines.join('\n')}`;
}

/** The findings Claude Code reads past: a frontmatter not YAML, or never closed by `---`. */
const READ_OTHERWISE: ReadonlySet<string> = new Set(['yaml/syntax', 'frontmatter/unclosed']);

/**
 * Whether an agent with this reader loads a skill although its profile finds these errors (their
 * rule ids), reading it otherwise than written. Claude Code does for the frontmatter it cannot
 * read: run against Claude Code itself, it listed every such skill tried, with its values quoted
 * or with no field read (docs/claude-code-listing.md). Such a skill is listed and installed for
 * it with "loads it, not as written", never as refused. Other errors (a file too large to read)
 * and other readers, never run, keep the profile's verdict.
 */
export function loadsDespiteErrors(profile: string, errorRules: readonly string[]): boolean {
  return (
    profile === 'claude-code' &&
    errorRules.length > 0 &&
    errorRules.every((r) => READ_OTHERWISE.has(r))
  );
}
