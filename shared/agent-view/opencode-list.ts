/**
 * How OpenCode reads a SKILL.md: whether it loads the skill, and the name and description it
 * gives the model (docs/opencode-listing.md). Observed of OpenCode 1.18.33 with
 * scripts/agent-listing.mjs (`opencode debug skill`); every case there is a test in
 * opencode-list.test.ts. OpenCode reads the frontmatter with gray-matter and js-yaml 3:
 * - a byte-order mark is dropped; the file must start with `---` not followed by another `-`; the
 *   rest of that line names the format (empty or `yaml`; `--- ` is fine, `---x` is not);
 * - the first later line starting with `---` closes it (`----`, `--- x` too); with none, the whole
 *   rest of the file is frontmatter;
 * - when that is not YAML, OpenCode reads it again with each top-level `key: value` whose value
 *   holds a `:` (and is not quoted, `|` or `>`) turned into a `|-` block; when that is not YAML
 *   either, the skill is skipped;
 * - `name` must be text; `description` text or absent (absent: loaded, but never shown to the
 *   model); a number, `true`, a date, null or a list skips the skill. Nothing else is checked:
 *   any name, not its folder's, is listed as written.
 */
import { parseSkill, type ParsedSkill } from '../skill/frontmatter-parser';
import { afterColon, dashBlock, jsYamlField } from './js-yaml';

/** Why OpenCode does not load a SKILL.md, in plain words. */
export interface OpenCodeRefusal {
  loads: false;
  why: string;
}

/** A skill OpenCode loads: its name, and the description it shows the model (if any). */
export interface OpenCodeListed {
  loads: true;
  name: string;
  /** Undefined when the skill has none: OpenCode loads it but leaves it out of the model's list. */
  description?: string;
  /** What OpenCode reads otherwise than written, in plain words (empty: as written). */
  otherwise: string[];
}

export type OpenCodeReading = OpenCodeListed | OpenCodeRefusal;

const refuse = (why: string): OpenCodeRefusal => ({
  loads: false,
  why: `OpenCode skips it: ${why}.`,
});

/** The frontmatter as gray-matter cuts it out of `text`, or why there is none. */
function frontmatterOf(text: string): { yaml: string } | { none: string } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!body.startsWith('---')) return { none: 'its first line is not `---`' };
  if (body.charAt(3) === '-') return { none: 'it starts with `----`, not `---`' };
  let rest = body.slice(3);
  const lineEnd = rest.search(/\r?\n/);
  const first = lineEnd === -1 ? rest : rest.slice(0, lineEnd);
  const format = first.trim();
  if (format !== '') {
    if (format.toLowerCase() !== 'yaml' && format.toLowerCase() !== 'yml')
      return { none: `its first line \`---${first}\` names a format it cannot read` };
    rest = rest.slice(first.length);
  }
  const close = rest.indexOf('\n---');
  return { yaml: close === -1 ? rest : rest.slice(0, close) };
}

/**
 * The text with OpenCode's second reading's changes: each top-level `key: value` line of the
 * frontmatter (between a first line `---` and the next line starting `---`) whose value holds a
 * `:` and is not quoted, `|` or `>` becomes `key: |-` and the value indented below it.
 */
function requotedForOpenCode(text: string): string {
  const cut = dashBlock(text);
  if (cut === null) return text;
  const { start } = cut;
  const block = text.slice(start, cut.end);
  const lines = block.split(/\r?\n/).flatMap((line) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || /^\s/.test(line)) return [line];
    const key = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line)?.[0];
    if (key === undefined) return [line];
    const after = line.slice(key.length).trimStart();
    if (!after.startsWith(':')) return [line];
    const value = afterColon(after.slice(1));
    if (value === undefined) return [line];
    if (value === '' || value === '>' || value === '|' || /^["']/.test(value)) return [line];
    return value.includes(':') ? [`${key}: |-`, `  ${value}`] : [line];
  });
  return text.slice(0, start) + lines.join('\n') + text.slice(start + block.length);
}

/** The YAML reading of a frontmatter: its fields, or null when it is not YAML js-yaml 3 reads. */
function readYaml(
  yaml: string,
  parsed?: ParsedSkill,
): { read: ParsedSkill } | { notYaml: string } | { over: string } {
  // Why: js-yaml 3 reads one document; text after a `...` end line is a second one, and an error.
  const end = /^\.\.\.[ \t]*$/m.exec(yaml);
  if (end && /^\s*[^\s#]/m.test(yaml.slice(end.index + end[0].length)))
    return { notYaml: 'a line `...` ends the YAML and more follows it' };
  const read =
    parsed && parsed.frontmatter?.raw === `${yaml.replace(/^\r?\n/, '')}\n`
      ? parsed
      : parseSkill(`---\n${yaml.replace(/^\r?\n/, '')}\n---\n`);
  const over = read.yamlErrors.find((e) => e.code === 'LIMIT_EXCEEDED')?.message;
  if (over !== undefined) return { over };
  // Why a tab before a key is no error: js-yaml 3 reads it (OpenCode listed such a skill).
  const error = read.yamlErrors.find((e) => e.code !== 'TAB_AS_INDENT');
  if (error) return { notYaml: error.message };
  if (read.repairs.length > 0)
    return {
      notYaml: `the value of \`${read.repairs[0]?.key ?? ''}\` has ": " in it without quotes`,
    };
  return { read };
}

/** The one file name OpenCode reads a skill from. */
export const OPENCODE_SKILL_FILE = 'SKILL.md';

/** What else the reading may be given. */
export interface OpenCodeReadingOptions {
  /** The skill file's name when it may be other than `SKILL.md`. */
  fileName?: string;
  /** The text as parseSkill already read it (its YAML is then not read twice when it is the same). */
  parsed?: ParsedSkill;
}

/** How OpenCode reads one SKILL.md (its text): what it loads, or why it skips the skill. */
export function openCodeReading(
  text: string,
  options: OpenCodeReadingOptions = {},
): OpenCodeReading {
  const fileName = options.fileName ?? OPENCODE_SKILL_FILE;
  if (fileName !== OPENCODE_SKILL_FILE)
    return {
      loads: false,
      why: `OpenCode does not see it: it reads only a file named ${OPENCODE_SKILL_FILE}, in capitals, and this one is named ${fileName}.`,
    };
  const cut = frontmatterOf(text);
  if ('none' in cut) return refuse(`it has no frontmatter (${cut.none})`);
  let yaml = readYaml(cut.yaml, options.parsed);
  const otherwise: string[] = [];
  if ('notYaml' in yaml) {
    const first = yaml.notYaml;
    const again = frontmatterOf(requotedForOpenCode(text));
    yaml = 'none' in again ? { notYaml: first } : readYaml(again.yaml);
    if ('notYaml' in yaml) return refuse(`its frontmatter is not YAML it can read (${first})`);
    if (!('over' in yaml))
      otherwise.push(
        'its frontmatter is not YAML: it reads each value with a colon in it as a block of text',
      );
  }
  if ('over' in yaml)
    return {
      loads: false,
      why: `Skillbench does not read a frontmatter this large or complex (${yaml.over}), so it cannot say what OpenCode makes of it; real skills are far smaller.`,
    };
  const doc = yaml.read.document;
  if (!doc) return refuse('its frontmatter is empty');
  const name = jsYamlField(doc, 'name', { merge: true });
  if (name === 'absent') return refuse('it has no `name`');
  if (name === 'other') return refuse('its `name` is not text');
  const description = jsYamlField(doc, 'description', { merge: true });
  if (description === 'other')
    return refuse('its `description` is not text (a number, `true`, a date, a list or null)');
  return {
    loads: true,
    name: name.text,
    ...(description === 'absent' ? {} : { description: description.text }),
    otherwise,
  };
}

/** OpenCode's order of its skills: by name, as `localeCompare` orders them. */
export function byOpenCodeOrder(a: string, b: string): number {
  return a.localeCompare(b);
}
