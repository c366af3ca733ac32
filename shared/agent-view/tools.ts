/**
 * A skill's tools for each host (seed 003's host profiles; docs/agent-view.md §4): the same
 * frontmatter `tools` (Universal 2.1, docs/skill-format.md §2.6) become Claude API tools
 * (`input_schema`), MCP `tools/list` entries (`inputSchema`) and OpenAI function tools with
 * `strict: true`. Strict mode accepts only a subset of JSON Schema: every object must say
 * `additionalProperties: false` and list every property in `required`, and some keywords are
 * refused. {@link strictProblems} finds what it would refuse, with a text edit on SKILL.md where
 * the change cannot alter what the tool accepts from a correct caller.
 */
import { isMap, type Document } from 'yaml';
import { parseSkill } from '../skill/frontmatter-parser';
import type { QuickFix, TextEdit } from '../validation/types';
import { isJsonObject } from '../json/values';

/** A tool as the frontmatter declares it. */
export interface SkillTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The tool definition formats Skillbench writes. */
export type ToolFormat = 'mcp' | 'openai' | 'claude';

/** How many entries the frontmatter's `tools` list has, named or not. */
export function declaredToolCount(frontmatter: unknown): number {
  const list = isJsonObject(frontmatter) ? frontmatter['tools'] : undefined;
  return Array.isArray(list) ? list.length : 0;
}

/** The frontmatter's `tools` that have a text name (the rest are the validator's to report). */
export function toolsOf(frontmatter: unknown): SkillTool[] {
  const list = isJsonObject(frontmatter) ? frontmatter['tools'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((t): SkillTool[] =>
    isJsonObject(t) && typeof t['name'] === 'string'
      ? [
          {
            name: t['name'],
            description: typeof t['description'] === 'string' ? t['description'] : '',
            input_schema: isJsonObject(t['input_schema']) ? t['input_schema'] : {},
          },
        ]
      : [],
  );
}

/** Tool definitions in one host's format, ready to paste into a request or a server. */
export function toolDefinitions(tools: readonly SkillTool[], format: ToolFormat): unknown[] {
  return tools.map((t) => {
    switch (format) {
      case 'mcp':
        // MCP tools/list: camelCase inputSchema.
        return { name: t.name, description: t.description, inputSchema: t.input_schema };
      case 'claude':
        return { name: t.name, description: t.description, input_schema: t.input_schema };
      case 'openai':
        // Chat Completions function tools; strict: true is what makes the schema binding.
        return {
          type: 'function',
          function: {
            name: t.name,
            description: t.description,
            parameters: t.input_schema,
            strict: true,
          },
        };
    }
  });
}

/** Keywords OpenAI strict mode refuses (its "supported schemas" subset; docs/agent-view.md §4). */
export const STRICT_UNSUPPORTED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
] as const;

/** Strict mode's nesting limit (levels of objects). */
export const STRICT_MAX_DEPTH = 10;

/** One thing strict mode would refuse. */
export interface StrictProblem {
  /** `missing-additional-properties`, `additional-properties-allowed`, `not-required`, `unsupported-keyword`, `root-not-object`, `too-deep`, `free-form-object`. */
  code:
    | 'missing-additional-properties'
    | 'additional-properties-allowed'
    | 'free-form-object'
    | 'not-required'
    | 'unsupported-keyword'
    | 'root-not-object'
    | 'too-deep';
  tool: string;
  /** Path of the schema inside `input_schema` (`properties/address`), '' for the root. */
  at: string;
  message: string;
  /** A fix that edits SKILL.md, where one is safe. */
  fix?: QuickFix;
}

function isObjectSchema(s: Record<string, unknown>): boolean {
  const t = s['type'];
  return (
    t === 'object' || (Array.isArray(t) && t.includes('object')) || isJsonObject(s['properties'])
  );
}

type Segment = string | number;

/** Every subschema of `s` with its path segments (JSON Schema 2020-12 applicators). */
function subschemas(s: Record<string, unknown>): { path: Segment[]; schema: unknown }[] {
  const out: { path: Segment[]; schema: unknown }[] = [];
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    const m = s[key];
    if (isJsonObject(m))
      for (const [k, v] of Object.entries(m)) out.push({ path: [key, k], schema: v });
  }
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else'] as const)
    if (isJsonObject(s[key])) out.push({ path: [key], schema: s[key] });
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const a = s[key];
    if (Array.isArray(a)) a.forEach((v, i) => out.push({ path: [key, i], schema: v }));
  }
  return out;
}

function where(path: readonly Segment[]): string {
  return path.length === 0 ? 'the top level' : `“${path.join('/')}”`;
}

/**
 * A tool whose `input_schema` is not an object schema (`type: object` at the top): MCP's
 * `inputSchema` and the Claude API's `input_schema` must be one, and so must strict mode's.
 */
export function rootNotObject(tool: SkillTool): StrictProblem | undefined {
  if (tool.input_schema['type'] === 'object') return undefined;
  return {
    code: 'root-not-object',
    tool: tool.name,
    at: '',
    message: `The input_schema of ${tool.name} must be an object schema (type: object) at the top level.`,
  };
}

/**
 * What OpenAI strict mode would refuse in one tool's `input_schema`. `text` (the SKILL.md) and
 * `toolIndex` let a problem carry a fix; without them only the problems are found.
 */
export function strictProblems(
  tool: SkillTool,
  fixContext?: { text: string; toolIndex: number },
): StrictProblem[] {
  const problems: StrictProblem[] = [];
  const root = tool.input_schema;
  const add = (p: Omit<StrictProblem, 'tool'>) => problems.push({ tool: tool.name, ...p });
  const notObject = rootNotObject(tool);
  if (notObject) problems.push(notObject);
  const visit = (s: Record<string, unknown>, path: Segment[], depth: number) => {
    for (const k of STRICT_UNSUPPORTED)
      if (k in s)
        add({
          code: 'unsupported-keyword',
          at: path.join('/'),
          message: `Strict mode does not support “${k}” (at ${where(path)} of ${tool.name}); remove it or describe the rule in the field's description.`,
        });
    if (isObjectSchema(s)) {
      if (depth > STRICT_MAX_DEPTH)
        add({
          code: 'too-deep',
          at: path.join('/'),
          message: `Objects nest more than ${STRICT_MAX_DEPTH} levels deep at ${where(path)} of ${tool.name}; strict mode allows ${STRICT_MAX_DEPTH}.`,
        });
      const props = isJsonObject(s['properties']) ? Object.keys(s['properties']) : [];
      const ap = s['additionalProperties'];
      if (ap === undefined && props.length > 0) {
        const problem: Omit<StrictProblem, 'tool'> = {
          code: 'missing-additional-properties',
          at: path.join('/'),
          message: `The object at ${where(path)} of ${tool.name} does not say “additionalProperties: false”, which strict mode requires.`,
        };
        const fix = fixContext
          ? additionalPropertiesFix(
              fixContext.text,
              ['tools', fixContext.toolIndex, 'input_schema', ...path],
              tool.name,
            )
          : null;
        if (fix) problem.fix = fix;
        add(problem);
      } else if (ap === undefined || (props.length === 0 && ap !== false))
        add({
          code: 'free-form-object',
          at: path.join('/'),
          message: `The object at ${where(path)} of ${tool.name} lists no properties, so it accepts anything; strict mode needs every field named. List its properties, or pass it as a JSON text field.`,
        });
      else if (ap !== false)
        add({
          code: 'additional-properties-allowed',
          at: path.join('/'),
          message: `The object at ${where(path)} of ${tool.name} allows extra fields (additionalProperties is not false); strict mode refuses that. Name every field and set additionalProperties: false.`,
        });
      const required = Array.isArray(s['required']) ? (s['required'] as unknown[]) : [];
      const missing = props.filter((p) => !required.includes(p));
      if (missing.length > 0)
        add({
          code: 'not-required',
          at: path.join('/'),
          message: `Strict mode needs every field required: ${missing.map((m) => `“${m}”`).join(', ')} at ${where(path)} of ${tool.name} ${missing.length === 1 ? 'is' : 'are'} optional. List ${missing.length === 1 ? 'it' : 'them'} in required and, if ${missing.length === 1 ? 'it' : 'they'} may be left out, allow null (for example type: [string, "null"]).`,
        });
    }
    for (const sub of subschemas(s))
      if (isJsonObject(sub.schema))
        visit(sub.schema, [...path, ...sub.path], depth + (isObjectSchema(s) ? 1 : 0));
  };
  visit(root, [], 1);
  return problems;
}

/** The line break a text uses (CRLF when it has any, else LF). */
function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * A fix inserting `additionalProperties: false` into the YAML mapping at `path` of the
 * frontmatter, or null when the file cannot be edited safely (YAML that needed repair or has
 * errors, a mapping not found) or the edited file would not read back as exactly that change.
 * Safe: the object already names its properties, so a correct caller sends nothing else.
 */
export function additionalPropertiesFix(
  text: string,
  path: readonly Segment[],
  toolName: string,
): QuickFix | null {
  const parsed = parseSkill(text);
  const doc: Document.Parsed | null = parsed.document;
  if (!doc || parsed.yamlErrors.length > 0 || parsed.repairs.length > 0) return null;
  const node = doc.getIn(path, true);
  if (!isMap(node) || node.items.length === 0) return null;
  let edit: TextEdit;
  if (node.flow) {
    const span = parsed.nodeSpan(node);
    if (!span) return null;
    const close = text.lastIndexOf('}', span.end);
    if (close < span.start) return null;
    // Keep `{ a: 1 }` spacing tidy: insert before the spaces that precede the brace.
    let at = close;
    while (at > span.start && text[at - 1] === ' ') at--;
    edit = { start: at, end: at, newText: ', additionalProperties: false' };
  } else {
    const first = node.items[0];
    const last = node.items[node.items.length - 1];
    const keySpan = first ? parsed.nodeSpan(first.key) : null;
    const lastSpan = last ? (parsed.nodeSpan(last.value) ?? parsed.nodeSpan(last.key)) : null;
    if (!keySpan || !lastSpan) return null;
    const lineStart = Math.max(text.lastIndexOf('\n', keySpan.start - 1) + 1, 0);
    const indent = text.slice(lineStart, keySpan.start);
    if (!/^[ ]*$/.test(indent)) return null;
    let at = lastSpan.end;
    while (at > 0 && (text[at - 1] === '\n' || text[at - 1] === '\r')) at--;
    while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at++;
    edit = {
      start: at,
      end: at,
      newText: `${eolOf(text)}${indent}additionalProperties: false`,
    };
  }
  const after = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
  // Why read back: the edit must add exactly this key and change nothing else.
  const check = parseSkill(after);
  if (!check.document || check.yamlErrors.length > 0) return null;
  if (check.document.getIn([...path, 'additionalProperties']) !== false) return null;
  const expected = JSON.parse(JSON.stringify(parsed.data)) as unknown;
  let target: unknown = expected;
  for (const seg of path) target = (target as Record<string | number, unknown>)[seg];
  (target as Record<string, unknown>)['additionalProperties'] = false;
  if (JSON.stringify(check.data) !== JSON.stringify(expected)) return null;
  return {
    title: `Add “additionalProperties: false” at ${where(path.slice(3))} of ${toolName}`,
    edits: [edit],
    safe: true,
  };
}

/** Who reads each format, as a sentence's subject. */
export const TOOL_READER: Readonly<Record<ToolFormat, string>> = {
  mcp: 'MCP',
  claude: 'the Claude API',
  openai: 'OpenAI strict mode',
};

/** The frontmatter's tools in one host's format, or why there are none to give. */
export type ToolExport =
  | { status: 'no-tools' }
  | {
      status: 'blocked';
      /** Who would refuse them, as a sentence's subject ({@link TOOL_READER}). */
      refusedBy: string;
      problems: StrictProblem[];
    }
  | {
      status: 'ready';
      /** The definitions as pretty JSON with a final newline. */
      json: string;
      count: number;
      /** Entries of the frontmatter's `tools` left out because they have no name. */
      unnamed: number;
    };

/**
 * The one decision of what tool definitions may be given in a host's format (the command line's
 * `pack --target tools-*` and the app's Hosts panel both ask it): none while a tool's input
 * schema is not an object schema (MCP and the Claude API take no other), and none for OpenAI
 * while strict mode would refuse a schema. Nothing is given that the host would refuse.
 */
export function exportTools(frontmatter: unknown, format: ToolFormat): ToolExport {
  const tools = toolsOf(frontmatter);
  if (tools.length === 0) return { status: 'no-tools' };
  const problems =
    format === 'openai'
      ? tools.flatMap((t) => strictProblems(t))
      : tools.flatMap((t) => rootNotObject(t) ?? []);
  if (problems.length > 0) return { status: 'blocked', refusedBy: TOOL_READER[format], problems };
  return {
    status: 'ready',
    json: `${JSON.stringify(toolDefinitions(tools, format), null, 2)}\n`,
    count: tools.length,
    unnamed: declaredToolCount(frontmatter) - tools.length,
  };
}
