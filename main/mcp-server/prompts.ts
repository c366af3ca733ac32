/**
 * User-invocable skills as MCP prompts. A skill's `arguments` (string or list)
 * or its `argument-hint` become prompt arguments; Claude Code's placeholders are substituted
 * (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`, `$name`; docs/skill-format.md §2 claude-code).
 * Lines with `` !`command` `` are left as text and flagged: the server never runs anything.
 */
import type { ServedSkill } from './catalog';
import { grouped } from '../../shared/text/words';

/** One prompt argument as MCP lists it. */
export interface PromptArgumentSpec {
  name: string;
  description?: string;
  required?: boolean;
}

/** What the server needs to list and render one skill prompt. */
export interface SkillPrompt {
  name: string;
  description: string;
  arguments: PromptArgumentSpec[];
  /** Named arguments from the `arguments` field (empty: one free-text `arguments` argument). */
  named: string[];
  skill: ServedSkill;
}

/** The free-text argument used when a skill declares no named arguments. */
export const FREE_TEXT_ARGUMENT = 'arguments';

/** Whether a skill is user-invocable: Claude Code's `user-invocable` (default true) and agentskills-mcp's `userInvocable`. */
export function isUserInvocable(frontmatter: Record<string, unknown>): boolean {
  return frontmatter['user-invocable'] !== false && frontmatter.userInvocable !== false;
}

function namedArguments(frontmatter: Record<string, unknown>): string[] {
  const raw = frontmatter.arguments;
  const names =
    typeof raw === 'string'
      ? raw.split(/[\s,]+/)
      : Array.isArray(raw)
        ? raw.map((v) =>
            typeof v === 'string'
              ? v
              : typeof v === 'object' &&
                  v !== null &&
                  typeof (v as { name?: unknown }).name === 'string'
                ? (v as { name: string }).name
                : '',
          )
        : [];
  return [
    ...new Set(names.map((n) => n.trim()).filter((n) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(n))),
  ];
}

/** The prompts for a set of served skills; names are the skill names, or the paths when names repeat. */
export function skillPrompts(skills: readonly ServedSkill[]): SkillPrompt[] {
  const count = new Map<string, number>();
  for (const s of skills) count.set(s.name, (count.get(s.name) ?? 0) + 1);
  const out: SkillPrompt[] = [];
  for (const skill of skills) {
    const fm = skill.frontmatter;
    if (!isUserInvocable(fm)) continue;
    const named = namedArguments(fm);
    const hint =
      typeof fm['argument-hint'] === 'string'
        ? fm['argument-hint']
        : typeof fm.argumentHint === 'string'
          ? fm.argumentHint
          : undefined;
    const args: PromptArgumentSpec[] =
      named.length > 0
        ? named.map((n) => ({ name: n, required: false }))
        : [
            {
              name: FREE_TEXT_ARGUMENT,
              description: hint ? `Arguments: ${hint}` : 'Text passed to the skill as $ARGUMENTS.',
              required: false,
            },
          ];
    out.push({
      name: (count.get(skill.name) ?? 0) > 1 ? skill.skillPath : skill.name,
      description: skill.description,
      arguments: args,
      named,
      skill,
    });
  }
  return out;
}

/** Lines that ask for a shell command (`` !`cmd` ``); they are shown, never run. */
export function shellCommandLines(body: string): string[] {
  return body.split(/\r?\n/).filter((line) => /!`[^`]+`/.test(line));
}

/** Longest text a rendered prompt may reach (characters): far above any real skill, far below memory trouble. */
export const MAX_PROMPT_CHARS = 1024 * 1024;

/** Thrown when the arguments would make the prompt longer than {@link MAX_PROMPT_CHARS}. */
export class PromptTooLongError extends Error {}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/**
 * Substitute placeholders in a skill body with the prompt's argument values.
 *
 * One pass over the body with a replacement function, so a value is inserted literally: `$&`,
 * `$'` or `$1` in client text are not replacement patterns, and a value that contains a
 * placeholder is never expanded again. The work is linear in the body plus the inserted text,
 * which is capped at {@link MAX_PROMPT_CHARS}.
 */
export function renderPromptBody(
  prompt: SkillPrompt,
  values: Record<string, string | undefined>,
): string {
  const positional: string[] =
    prompt.named.length > 0
      ? prompt.named.map((n) => values[n] ?? '')
      : (values[FREE_TEXT_ARGUMENT] ?? '').split(/\s+/).filter((t) => t.length > 0);
  const all =
    prompt.named.length > 0
      ? positional.filter((v) => v.length > 0).join(' ')
      : (values[FREE_TEXT_ARGUMENT] ?? '').trim();
  // Longest names first, so `$service_name` is not read as `$service` + "_name"; `$ARGUMENTS[N]` before `$ARGUMENTS`.
  const names = [...prompt.named].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(
    `\\$(?:ARGUMENTS\\[(\\d+)\\]|(ARGUMENTS)\\b|(\\d+)\\b${names.length > 0 ? `|(${names.join('|')})\\b` : ''})`,
    'g',
  );
  const body = prompt.skill.body;
  let length = body.length;
  return body.replace(
    pattern,
    (match, index?: string, whole?: string, n?: string, name?: string): string => {
      let value: string;
      if (index !== undefined) value = positional[Number(index)] ?? '';
      else if (whole !== undefined) value = all;
      else if (n !== undefined) value = Number(n) >= 1 ? (positional[Number(n) - 1] ?? '') : match;
      else value = values[name ?? ''] ?? '';
      length += value.length - match.length;
      if (length > MAX_PROMPT_CHARS)
        throw new PromptTooLongError(
          `The arguments make this prompt longer than ${grouped(MAX_PROMPT_CHARS)} characters. Send shorter arguments.`,
        );
      return value;
    },
  );
}
