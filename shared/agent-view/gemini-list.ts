/**
 * How Gemini CLI reads a SKILL.md: whether it loads the skill, and the entry its
 * `<available_skills>` list gives the model (docs/gemini-cli-listing.md). Observed of Gemini CLI
 * 0.61.0 with scripts/agent-listing.mjs; every case there is a test in gemini-list.test.ts:
 * - the file must start with a line that is exactly `---` (no byte-order mark, no space after
 *   it); the first later line that starts with `---` closes it (`----` and `--- x` too), and the
 *   text between is the frontmatter (it may be empty);
 * - the frontmatter is read as YAML. When it is not YAML, or `name` or `description` is not text
 *   there (a number, `true`, a date, a list; or missing), Gemini CLI reads it again line by line:
 *   a line `name: …` at any indent gives the name as written (quotes and comments kept, the last
 *   such line wins), a line `description: …` the description, with the indented lines after it
 *   joined by spaces. When that finds no `name:` or no `description:` line, the skill is skipped;
 * - `: \ / < > * ? " |` in the name become `-`; nothing else about the name is checked (any case,
 *   spaces, any length, not its folder's name, even empty), and the description may be empty;
 * - the list is not escaped: the name and description go into the XML as they are.
 * Gemini CLI says nothing when it skips a skill (its debug log only).
 */
import type { Document } from 'yaml';
import { parseSkill, type ParsedSkill } from '../skill/frontmatter-parser';
import { afterColon, dashBlock, jsYamlField } from './js-yaml';

/** The one file name Gemini CLI reads a skill from (on Linux; its file search ignores case elsewhere). */
export const GEMINI_SKILL_FILE = 'SKILL.md';

/** Why Gemini CLI does not load a SKILL.md, in plain words. */
export interface GeminiRefusal {
  loads: false;
  why: string;
}

/** A skill Gemini CLI loads: the name and description its list shows. */
export interface GeminiListed {
  loads: true;
  name: string;
  description: string;
  /**
   * What Gemini CLI reads otherwise than written, in plain words: the frontmatter read line by
   * line, characters of the name replaced. Empty when it reads the file as written.
   */
  otherwise: string[];
}

export type GeminiReading = GeminiListed | GeminiRefusal;

const refuse = (why: string): GeminiRefusal => ({
  loads: false,
  why: `Gemini CLI skips it: ${why}.`,
});

/**
 * The frontmatter as Gemini CLI cuts it out: after a first line `---` (a `\r` may end it), up to
 * the first later line that starts with `---`; null without both.
 */
function frontmatterOf(text: string): string | null {
  const block = dashBlock(text);
  return block === null ? null : text.slice(block.start, block.end);
}

/** A field's value when the YAML reading gives text for it, else undefined. */
function textOf(doc: Document.Parsed, key: string): string | undefined {
  const field = jsYamlField(doc, key);
  return typeof field === 'object' ? field.text : undefined;
}

/**
 * The value of a line `KEY: VALUE` (whitespace before the key allowed), trimmed, as Gemini CLI's
 * pattern `^\s*KEY:\s*(.*)$` finds it; undefined when the line is not one.
 */
function valueOf(line: string, key: string): string | undefined {
  const rest = line.trimStart();
  return rest.startsWith(`${key}:`) ? afterColon(rest.slice(key.length + 1)) : undefined;
}

/** The name and description as Gemini CLI's line-by-line reading finds them, when both are there. */
function lineByLine(raw: string): { name: string; description: string } | null {
  const lines = raw.split(/\r?\n/);
  let name: string | undefined;
  let description: string | undefined;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] ?? '';
    const named = valueOf(line, 'name');
    if (named !== undefined) {
      name = named;
      continue;
    }
    const described = valueOf(line, 'description');
    if (described === undefined) continue;
    const parts = [described];
    while (k + 1 < lines.length && /^[ \t]+\S/.test(lines[k + 1] ?? '')) {
      parts.push((lines[k + 1] ?? '').trim());
      k++;
    }
    description = parts.filter((p) => p !== '').join(' ');
  }
  return name !== undefined && description !== undefined ? { name, description } : null;
}

/** The characters Gemini CLI replaces with `-` in a skill's name. */
const REPLACED = /[:\\/<>*?"|]/g;

/** What else the reading may be given. */
export interface GeminiReadingOptions {
  /** The skill file's name when it may be other than `SKILL.md`. */
  fileName?: string;
  /**
   * How many folders down the skills folder the skill's folder is: 1 for a folder directly in it
   * (the default), 0 for a SKILL.md in the skills folder itself.
   */
  depth?: number;
  /**
   * The text as parseSkill already read it. Why: when its frontmatter is the block Gemini CLI
   * cuts out (the usual file), its YAML is not read twice.
   */
  parsed?: ParsedSkill;
}

/**
 * How Gemini CLI reads one SKILL.md (its text) in a folder named `folder`: what it lists, or why
 * it does not load the skill.
 */
export function geminiReading(
  text: string,
  folder: string,
  options: GeminiReadingOptions = {},
): GeminiReading {
  const fileName = options.fileName ?? GEMINI_SKILL_FILE;
  if (fileName !== GEMINI_SKILL_FILE)
    return {
      loads: false,
      why: `Gemini CLI does not see it: it reads only a file named ${GEMINI_SKILL_FILE}, in capitals, and this one is named ${fileName}.`,
    };
  const depth = options.depth ?? 1;
  if (depth > 1)
    return {
      loads: false,
      why: `Gemini CLI does not see it: it looks for ${GEMINI_SKILL_FILE} only in its skills folder and the folders directly in it, and this one is ${depth} folders down.`,
    };
  if (depth === 1 && folder.startsWith('.'))
    return {
      loads: false,
      why: 'Gemini CLI does not see it: it does not look in a folder whose name starts with a dot.',
    };
  if (depth === 1 && folder === 'node_modules')
    return {
      loads: false,
      why: 'Gemini CLI does not see it: it does not look in a folder named node_modules.',
    };
  const raw = frontmatterOf(text);
  if (raw === null) {
    const first = text.split('\n')[0] ?? '';
    return refuse(
      text.startsWith('\uFEFF')
        ? 'the file starts with an invisible byte-order mark before its first `---`'
        : first.replace(/\r$/, '') !== '---'
          ? 'its first line is not exactly `---`'
          : 'its frontmatter is not closed by a line that starts with `---`',
    );
  }
  const parsed =
    options.parsed && !options.parsed.hasBom && options.parsed.frontmatter?.raw === `${raw}\n`
      ? options.parsed
      : parseSkill(`---\n${raw}\n---\n`);
  const over = parsed.yamlErrors.find((e) => e.code === 'LIMIT_EXCEEDED')?.message;
  if (over !== undefined)
    return {
      loads: false,
      why: `Skillbench does not read a frontmatter this large or complex (${over}), so it cannot say what Gemini CLI makes of it; real skills are far smaller.`,
    };
  // Why any YAML error or repair: js-yaml, Gemini CLI's reader, refuses what this reader refuses
  // or repairs (a `: ` in a plain value, a key given twice).
  const yamlRead =
    parsed.yamlErrors.length === 0 && parsed.repairs.length === 0 && parsed.document !== null;
  const name = yamlRead && parsed.document ? textOf(parsed.document, 'name') : undefined;
  const description =
    yamlRead && parsed.document ? textOf(parsed.document, 'description') : undefined;
  const otherwise: string[] = [];
  let fields: { name: string; description: string } | null;
  if (name !== undefined && description !== undefined) fields = { name, description };
  else {
    fields = lineByLine(raw);
    const because = !yamlRead
      ? 'its frontmatter is not YAML'
      : name === undefined && description === undefined
        ? '`name` and `description` are not both text in its YAML'
        : `\`${name === undefined ? 'name' : 'description'}\` is not text in its YAML`;
    if (fields === null)
      return refuse(
        `${because}, and it finds no \`name:\` and \`description:\` lines to read instead`,
      );
    otherwise.push(
      `${because}: it reads the \`name:\` and \`description:\` lines as written, quotes and comments kept`,
    );
  }
  const shown = fields.name.replace(REPLACED, '-');
  if (shown !== fields.name)
    otherwise.push(`it shows the name as “${shown}” (it puts \`-\` for : \\ / < > * ? " |)`);
  return { loads: true, name: shown, description: fields.description, otherwise };
}

/** A skill's entry in Gemini CLI's `<available_skills>` list, as Gemini CLI writes it. */
export function geminiEntry(skill: {
  name: string;
  description: string;
  location: string;
}): string {
  return [
    '  <skill>',
    `    <name>${skill.name}</name>`,
    `    <description>${skill.description}</description>`,
    `    <location>${skill.location}</location>`,
    '  </skill>',
  ].join('\n');
}

/** Gemini CLI's `<available_skills>` list of these skills, in the order given. */
export function geminiSection(
  skills: readonly { name: string; description: string; location: string }[],
): string {
  return ['<available_skills>', ...skills.map(geminiEntry), '</available_skills>'].join('\n');
}
