/**
 * How Codex reads a SKILL.md: whether it loads the skill, and the line its skill list gives the
 * model, `- NAME: DESCRIPTION (file: …)` (docs/codex-listing.md). Observed of Codex 0.171.0 with
 * scripts/agent-listing.mjs; every case there is a test in codex-list.test.ts:
 * - the first line, trimmed, must be `---` (a byte-order mark before it, a blank line or `----`
 *   is no frontmatter), and a later line, trimmed, `---` closes it; a file without both, or with
 *   nothing between them, is skipped ("missing YAML frontmatter delimited by ---");
 * - the block must be YAML. When it is not, Codex reads it again with the value of each
 *   `key: value` line (at any indent, not in a block of text) that is not YAML by itself in
 *   double quotes; when that is not YAML either, or gives a key twice or a value of the wrong
 *   type, the skill is skipped with the first reading's error;
 * - `name`, `description` and `metadata` may each appear once; `name` and `description` must be
 *   text (a number or `true` is read as written, a list or a map skips the skill), `metadata` a
 *   map. Other keys are not read;
 * - whitespace runs in the name and description become one space, the ends trimmed;
 * - no name (none, empty or `null`) is the folder's name; a name over 64 characters (code points)
 *   skips the skill, and so does no description (none, empty, `null` or `~`);
 * - a description over 1,024 characters keeps its first 1,021 and ends with "...".
 * The name is not checked otherwise: Codex lists `Upper_Case Name` as written, and a name that
 * differs from its folder.
 */
import { isAlias, isMap, isScalar, type Document, type Node as YamlNode } from 'yaml';
import { isJsonObject } from '../json/values';
import { parseSkill, type ParsedSkill } from '../skill/frontmatter-parser';
import { codePointLength } from '../skill/yaml-strings';
import { requoted } from './requote';

/** Codex skips a skill whose name is longer than this (code points). */
export const CODEX_NAME_MAX = 64;
/** Codex cuts a description longer than this (code points) to this many, "..." included. */
export const CODEX_DESCRIPTION_MAX = 1024;

/** Why Codex skips a SKILL.md: its own words, and the same for a person. */
export interface CodexRefusal {
  loads: false;
  /** Codex's message, as it logs it ("failed to load skill PATH: MESSAGE"). */
  codex: string;
  /** What is wrong, in plain words, for the user. */
  why: string;
}

/** A skill Codex loads: the name and description it lists. */
export interface CodexListed {
  loads: true;
  name: string;
  /** The description as the list shows it (cut with "..." past 1,024 characters). */
  description: string;
  /** Characters of the description the list cuts off (0: none). */
  cut: number;
  /** The line without its `(file: …)` part: `- NAME: DESCRIPTION`. */
  line: string;
  /**
   * What Codex reads otherwise than written, in plain words: the name taken from the folder, the
   * frontmatter read with its values quoted. Empty when it reads the file as written.
   */
  otherwise: string[];
  /**
   * Whether the model sees it in the list: not when the skill's `agents/openai.yaml` sets
   * `policy.allow_implicit_invocation: false` (Codex then loads it for the user to name, `$NAME`).
   */
  inList: boolean;
}

export type CodexReading = CodexListed | CodexRefusal;

/** Unicode White_Space, which Rust's trim and split_whitespace use (not JavaScript's \s). */
const WS =
  '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
const RUNS = new RegExp(`[${WS}]+`, 'g');

const rustTrim = (s: string): string => s.replace(TRIM, '');
/** Whitespace runs as one space, the ends trimmed (Rust's split_whitespace, joined). */
const oneLine = (s: string): string => rustTrim(s).replace(RUNS, ' ');

/** The frontmatter block as Codex cuts it out: the lines between the two `---`, or null. */
function frontmatterOf(text: string): string | null {
  // Why line by line, \n ends a line and one \r before it is dropped: that is how Rust's
  // `lines()` reads a file; and the body after the closing line is never split.
  const lines: string[] = [];
  let at = 0;
  while (at <= text.length) {
    const end = text.indexOf('\n', at);
    const raw = end === -1 ? text.slice(at) : text.slice(at, end);
    // Why a final empty piece is no line: "a\n" is one line to `lines()`.
    if (end === -1 && raw === '') break;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lines.length === 0) {
      if (rustTrim(line) !== '---') return null;
    } else if (rustTrim(line) === '---')
      return lines.length === 1 ? null : lines.slice(1).join('\n');
    lines.push(line);
    if (end === -1) break;
    at = end + 1;
  }
  return null;
}

/**
 * A value that may not read as YAML by itself: it starts with an indicator, or holds `: `, ` #`
 * or a tab, or ends with `:`. Any other value is plain text YAML reads as it is. Why: the second
 * reading asks for each line, and a hostile frontmatter can have thousands.
 */
const MAYBE_NOT_YAML = /^[[\]{}&*!|>'"%@`#,?-]|: |:$| #|\t/;

/** Whether one `key: value` line reads as YAML by itself. */
function readsAlone(key: string, value: string): boolean {
  if (!MAYBE_NOT_YAML.test(value)) return true;
  const alone = parseSkill(`---\n${key}: ${value}\n---\n`);
  return alone.yamlErrors.length === 0 && alone.repairs.length === 0;
}

/**
 * The most lines the second reading reads one by one (real frontmatter has fewer than 100 keys).
 * Why a bound: each is a parse of its own, and a hostile frontmatter can have thousands.
 */
const MAX_LINES_READ_ALONE = 256;

/** The YAML of a frontmatter read (the first reading, or the second with values quoted). */
function readYaml(
  raw: string,
  parsed?: ParsedSkill,
): { first: ParsedSkill; again?: ParsedSkill; tooMany?: true } {
  const wrap = (yaml: string): ParsedSkill => parseSkill(`---\n${yaml}\n---\n`);
  const first =
    parsed && !parsed.hasBom && parsed.frontmatter?.raw === `${raw}\n` ? parsed : wrap(raw);
  // Why no second reading past the parser's bounds: the file is not read at all then, and a
  // line-by-line reading of a frontmatter that large would undo the bound.
  if (!notYaml(first) || first.overLimits.length > 0) return { first };
  // Why lines at any indent, but not in a block of text: Codex reads `metadata:` then `  k: [x`
  // again with `"[x"`, and a description's `|` block as written.
  let read = 0;
  const again = requoted(
    raw,
    (line) => {
      if (!MAYBE_NOT_YAML.test(line.value)) return false;
      read++;
      return read <= MAX_LINES_READ_ALONE && !readsAlone(line.key, line.value);
    },
    { blocks: true },
  );
  if (read > MAX_LINES_READ_ALONE) return { first, tooMany: true };
  return { first, again: wrap(again) };
}

/** Whether a reading found the text not YAML (a repeated key is Codex's own check, below). */
function notYaml(p: ParsedSkill): boolean {
  return p.repairs.length > 0 || p.yamlErrors.some((e) => e.code !== 'DUPLICATE_KEY');
}

/** The first YAML error of a reading, in the parser's words. */
function yamlError(p: ParsedSkill): string {
  const error = p.yamlErrors.find((e) => e.code !== 'DUPLICATE_KEY');
  if (error) return error.message;
  const repair = p.repairs[0];
  return `the value of \`${repair?.key ?? ''}\` has ": " in it without quotes`;
}

/** A field's value as text, as Codex reads it: null when absent or null, else text or a type. */
function fieldText(
  found: unknown,
  doc: Document.Parsed | null,
): { text: string } | { type: string } | null {
  const node = isAlias(found) && doc ? found.resolve(doc) : found;
  if (node === undefined || node === null) return null;
  if (isScalar(node)) {
    if (node.value === null) return null;
    if (typeof node.value === 'string') return { text: node.value };
    // Why the source: Codex reads a plain `1.0` or `true` as the text written, not a number.
    if (typeof node.source === 'string') return { text: node.source };
    const value: unknown = node.value;
    return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
      ? { text: String(value) }
      : { type: 'a value of another kind' };
  }
  return { type: isMap(node) ? 'a map' : 'a list' };
}

const refuse = (codex: string, why: string): CodexRefusal => ({ loads: false, codex, why });

/** The skill folder's Codex settings file, beside SKILL.md. */
export const CODEX_AGENT_SETTINGS = 'agents/openai.yaml';

/** Whether a skill's `agents/openai.yaml` (its text) leaves it out of the model's list. */
function implicitOff(settings: string | undefined): boolean {
  if (settings === undefined) return false;
  const read = parseSkill(`---\n${settings}\n---\n`);
  const data = read.yamlErrors.length === 0 ? read.data : undefined;
  const policy = isJsonObject(data) ? data['policy'] : undefined;
  return isJsonObject(policy) && policy['allow_implicit_invocation'] === false;
}

/** The fields Codex reads, as text (null when absent). */
interface Fields {
  name: { text: string } | null;
  description: { text: string } | null;
}

/** The fields of a YAML reading, or why Codex refuses them: a field twice, a wrong type. */
function fieldsOf(parsed: ParsedSkill): Fields | CodexRefusal {
  const contents: unknown = parsed.document?.contents;
  if (!isMap(contents))
    return refuse(
      'invalid YAML: the frontmatter is not a map of keys',
      'Codex skips it: its frontmatter is not a list of `key: value` lines.',
    );
  const found = new Map<string, YamlNode | null>();
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'name' && key !== 'description' && key !== 'metadata') continue;
    if (found.has(key))
      return refuse(
        `invalid YAML: duplicate field \`${key}\``,
        `Codex skips it: \`${key}\` is given twice.`,
      );
    found.set(key, (pair.value ?? null) as YamlNode | null);
  }
  const metadata = found.get('metadata');
  if (metadata !== undefined && metadata !== null && !isMap(metadata)) {
    const value = isScalar(metadata) ? metadata.value : undefined;
    if (value !== null)
      return refuse(
        'invalid YAML: metadata: invalid type, expected struct SkillFrontmatterMetadata',
        'Codex skips it: `metadata` must be a map of keys.',
      );
  }
  const doc = parsed.document;
  const name = fieldText(found.get('name'), doc);
  const description = fieldText(found.get('description'), doc);
  for (const [key, value] of [
    ['name', name],
    ['description', description],
  ] as const)
    if (value !== null && 'type' in value)
      return refuse(
        `invalid YAML: ${key}: invalid type, expected a string`,
        `Codex skips it: \`${key}\` must be text, not ${value.type}.`,
      );
  return {
    name: name !== null && 'text' in name ? name : null,
    description: description !== null && 'text' in description ? description : null,
  };
}

/** The one file name Codex reads a skill from (`skill.md` is not found). */
export const CODEX_SKILL_FILE = 'SKILL.md';

/** What else the reading may be given. */
export interface CodexReadingOptions {
  /** The folder's `agents/openai.yaml`, when it has one. */
  settings?: string;
  /** The skill file's name when it may be other than `SKILL.md`. */
  fileName?: string;
  /**
   * The text as parseSkill already read it. Why: when its frontmatter is the block Codex cuts
   * out (the usual file: no byte-order mark, `\n` line ends), its YAML is not read twice.
   */
  parsed?: ParsedSkill;
}

/**
 * How Codex reads one SKILL.md (its text) in a folder named `folder`: the line it lists, or why
 * it skips the skill.
 */
export function codexReading(
  text: string,
  folder: string,
  options: CodexReadingOptions = {},
): CodexReading {
  const fileName = options.fileName ?? CODEX_SKILL_FILE;
  const settings = options.settings;
  if (fileName !== CODEX_SKILL_FILE)
    return refuse(
      `no ${CODEX_SKILL_FILE} (the file is named ${fileName})`,
      `Codex does not see it: it reads only a file named ${CODEX_SKILL_FILE}, in capitals, and this one is named ${fileName}.`,
    );
  const raw = frontmatterOf(text);
  if (raw === null) {
    const why = text.startsWith('\uFEFF')
      ? 'the file starts with an invisible byte-order mark before its first `---`'
      : rustTrim(text.split('\n')[0] ?? '') !== '---'
        ? 'its first line is not `---`'
        : 'its frontmatter is empty or not closed by a `---` line';
    return refuse('missing YAML frontmatter delimited by ---', `Codex skips it: ${why}.`);
  }
  const read = readYaml(raw, options.parsed);
  const over = read.tooMany
    ? `more than ${MAX_LINES_READ_ALONE} lines that are not YAML`
    : read.first.yamlErrors.find((e) => e.code === 'LIMIT_EXCEEDED')?.message;
  if (over !== undefined)
    return refuse(
      `not read: ${over}`,
      `Skillbench does not read a frontmatter this large or complex (${over}), so it cannot say what Codex makes of it; real skills are far smaller.`,
    );
  let fields: Fields | CodexRefusal;
  if (read.again === undefined) fields = fieldsOf(read.first);
  else {
    // Why the first reading's error when the second fails in any way (not YAML, a key twice, a
    // value of the wrong type): that is the error Codex gives.
    const again = notYaml(read.again) ? null : fieldsOf(read.again);
    const error = yamlError(read.first);
    fields =
      again === null || 'loads' in again
        ? refuse(
            `invalid YAML: ${error}`,
            `Codex skips it: its frontmatter is not YAML it can read (${error}).`,
          )
        : again;
  }
  if ('loads' in fields) return fields;
  const { name, description } = fields;
  const otherwise: string[] = [];
  if (read.again !== undefined)
    otherwise.push(
      'its frontmatter is not YAML: it reads it with the values that break it in quotes',
    );
  let shownName = name !== null ? oneLine(name.text) : '';
  if (shownName === '') {
    shownName = oneLine(folder);
    otherwise.push(`it names the skill after its folder, “${shownName}”`);
  }
  if (codePointLength(shownName) > CODEX_NAME_MAX)
    return refuse(
      `invalid name: exceeds maximum length of ${CODEX_NAME_MAX} characters`,
      `Codex skips it: its name is longer than ${CODEX_NAME_MAX} characters.`,
    );
  const described = description !== null ? oneLine(description.text) : '';
  if (described === '')
    return refuse('missing field `description`', 'Codex skips it: it has no description.');
  const chars = [...described];
  const cut = chars.length > CODEX_DESCRIPTION_MAX ? chars.length - (CODEX_DESCRIPTION_MAX - 3) : 0;
  const shown = cut > 0 ? `${chars.slice(0, CODEX_DESCRIPTION_MAX - 3).join('')}...` : described;
  return {
    loads: true,
    name: shownName,
    description: shown,
    cut,
    line: `- ${shownName}: ${shown}`,
    otherwise,
    inList: !implicitOff(settings),
  };
}

/** Code point order, as Rust compares strings (JavaScript's `<` compares UTF-16 units). */
function byCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x === y) continue;
    // Why only here: UTF-16 units and code points order alike except where one is half of a
    // pair (U+10000 and up) and the other a unit from U+E000 to U+FFFF.
    const surrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;
    if (!surrogate(x) && !surrogate(y)) return x - y;
    return (a.codePointAt(k) ?? x) - (b.codePointAt(k) ?? y);
  }
  return a.length - b.length;
}

/**
 * The order of Codex's list within one scope (a project's skills, then the user's): by name as
 * Rust compares strings (`Zed` before `alpha`), then by path. Two skills may share a name: Codex
 * lists both.
 */
export function byCodexOrder(
  a: { name: string; path: string },
  b: { name: string; path: string },
): number {
  return byCodePoints(a.name, b.name) || byCodePoints(a.path, b.path);
}

/** A line of Codex's list with where its SKILL.md is: the skills folder and the path in it. */
export interface CodexListedFile {
  /** The skills folder (Codex's "skill root"). */
  root: string;
  /** The SKILL.md's path inside it, with `/` (`pdf-forms/SKILL.md`). */
  file: string;
  /** The line without its `(file: …)` part. */
  line: string;
}

/**
 * The part of Codex's skills section this models, for these lines in Codex's order: the table
 * of skill roots, then each line with its short path, as Codex writes them. Codex numbers its own
 * folders (its bundled skills among them) in an order of its own; here the roots are numbered in
 * the order the list first names them.
 */
export function codexSection(listed: readonly CodexListedFile[]): string {
  const roots: string[] = [];
  const lines = listed.map((l) => {
    let k = roots.indexOf(l.root);
    if (k === -1) k = roots.push(l.root) - 1;
    return `${l.line} (file: r${k}/${l.file})`;
  });
  return [
    '### Skill roots',
    ...roots.map((r, k) => `- \`r${k}\` = \`${r}\``),
    '### Available skills',
    ...lines,
  ].join('\n');
}
