/**
 * The verdict an agent's reader gives a skill, one rule for the whole app (the Agents view, the
 * install checks, `skillbench agents`). It starts from the agent's validation profile; where
 * Skillbench has run the agent itself and models its reading, the agent's own behaviour decides:
 * - Claude Code loads a skill whose frontmatter it cannot read as written (not YAML, or never
 *   closed) — docs/claude-code-listing.md, `loadsDespiteErrors`;
 * - Codex loads or skips a skill by its own rules, which differ from the Agent Skills spec both
 *   ways (it lists `Upper_Case Name`, and skips a file with a byte-order mark before `---`) —
 *   docs/codex-listing.md, `codexReading`;
 * - Gemini CLI too (it lists a name of any form, and skips a file whose first line is `--- `) —
 *   docs/gemini-cli-listing.md, `geminiReading`;
 * - and OpenCode (any name; a skill without a description loaded but never shown to the model) —
 *   docs/opencode-listing.md, `openCodeReading`.
 * Other agents, never run, keep their profile's verdict.
 */
import { loadsDespiteErrors } from './claude-code-list';
import { CODEX_DESCRIPTION_MAX, type CodexReading } from './codex-list';
import type { GeminiReading } from './gemini-list';
import type { OpenCodeReading } from './opencode-list';

/** One finding of the profile, as the verdict needs it. */
export interface ReaderFinding {
  severity: 'error' | 'warning' | 'info' | 'hint';
  ruleId: string;
  message: string;
}

/** What an agent's reader makes of a skill. */
export interface ReaderVerdict {
  verdict: 'valid' | 'warning' | 'error';
  /** What the verdict is about, in plain words: the errors, or with none the warnings. */
  problems: string[];
  /** The agent loads it, but not as written (the verdict is then `warning`). */
  notAsWritten?: boolean;
}

/** The agents whose reading is modelled here, beyond their profile. */
export const MODELLED_READERS: ReadonlySet<string> = new Set([
  'claude-code',
  'codex',
  'gemini-cli',
  'opencode',
]);

/** The readings of a skill by the agents whose own reading is modelled beyond their profile. */
export interface AgentReadings {
  /** codexReading of the SKILL.md, with the folder's agents/openai.yaml. */
  codex?: CodexReading;
  /** geminiReading of the SKILL.md. */
  gemini?: GeminiReading;
  /** openCodeReading of the SKILL.md. */
  opencode?: OpenCodeReading;
}

/**
 * How an agent's skills are checked, in a few words after "checked by the … rules" (the Agents
 * view, `skillbench agents`); '' when by its profile alone.
 */
export function readerNote(agent: string): string {
  if (agent === 'codex')
    return 'and by what Codex itself loads and skips (checked against Codex 0.171.0)';
  if (agent === 'gemini-cli')
    return 'and by what Gemini CLI itself loads and skips (checked against Gemini CLI 0.61.0)';
  if (agent === 'opencode')
    return 'and by what OpenCode itself loads and skips (checked against OpenCode 1.18.33)';
  if (agent === 'claude-code')
    return 'and by what Claude Code itself loads (checked against Claude Code 2.1.332)';
  return '';
}

/**
 * The verdict of agent `agent` (its id) for a skill its profile judged `verdict` with `findings`.
 * For Codex, Gemini CLI and OpenCode, `readings` holds the agent's own reading of the skill;
 * without it the agent keeps its profile's verdict.
 */
export function readerVerdict(
  agent: string,
  profile: string,
  verdict: 'valid' | 'warning' | 'error',
  findings: readonly ReaderFinding[],
  readings: AgentReadings = {},
): ReaderVerdict {
  const errors = findings.filter((f) => f.severity === 'error');
  const warnings = findings.filter((f) => f.severity === 'warning');
  const shown = (verdict === 'error' ? errors : warnings).map((f) => f.message);
  const own = ownReading(agent, readings);
  if (own) return ownVerdict(own, errors, warnings);
  if (
    verdict === 'error' &&
    loadsDespiteErrors(
      profile,
      errors.map((f) => f.ruleId),
    )
  )
    return { verdict: 'warning', problems: shown, notAsWritten: true };
  return { verdict, problems: shown };
}

/** An agent's own reading, as its verdict needs it: whether it loads the skill, and what else it does. */
interface OwnReading {
  /** The agent's name for people. */
  name: string;
  /** Why it does not load the skill, in plain words; undefined when it loads it. */
  refused?: string;
  /** What it reads otherwise than written (it loads the skill, not as written). */
  otherwise: readonly string[];
  /** What else it does with a skill it loads that the user should know (a cut, no description). */
  notes: readonly string[];
}

/** The empty-description note (Gemini CLI and OpenCode list such a skill). */
const emptyDescription = (name: string): string =>
  `${name} lists it with an empty description, so the model has nothing to choose it by.`;

/** Agent `agent`'s own reading among `readings`, when there is one for it. */
function ownReading(agent: string, readings: AgentReadings): OwnReading | undefined {
  const { codex, gemini, opencode } = readings;
  if (agent === 'codex' && codex)
    return codex.loads
      ? {
          name: 'Codex',
          otherwise: codex.otherwise,
          notes:
            codex.cut > 0
              ? [
                  `Codex shows the model the first ${CODEX_DESCRIPTION_MAX - 3} characters of the description and "...".`,
                ]
              : [],
        }
      : { name: 'Codex', refused: codex.why, otherwise: [], notes: [] };
  if (agent === 'gemini-cli' && gemini)
    return gemini.loads
      ? {
          name: 'Gemini CLI',
          otherwise: gemini.otherwise,
          notes: gemini.description.trim() === '' ? [emptyDescription('Gemini CLI')] : [],
        }
      : { name: 'Gemini CLI', refused: gemini.why, otherwise: [], notes: [] };
  if (agent === 'opencode' && opencode)
    return opencode.loads
      ? {
          name: 'OpenCode',
          otherwise: opencode.otherwise,
          notes:
            opencode.description === undefined
              ? ['OpenCode loads it but never shows it to the model: it has no description.']
              : opencode.description.trim() === ''
                ? [emptyDescription('OpenCode')]
                : [],
        }
      : { name: 'OpenCode', refused: opencode.why, otherwise: [], notes: [] };
  return undefined;
}

/**
 * The verdict of an agent that reads the skill by its own rules: refused with its reason (and the
 * spec's errors), or loaded with what it reads otherwise than written, what else it does, then
 * the spec's errors (the agent loads it anyway) or warnings.
 */
function ownVerdict(
  own: OwnReading,
  errors: readonly ReaderFinding[],
  warnings: readonly ReaderFinding[],
): ReaderVerdict {
  if (own.refused !== undefined)
    return { verdict: 'error', problems: [own.refused, ...errors.map((f) => f.message)] };
  const { name: agent, otherwise } = own;
  const problems: string[] = [
    ...otherwise.map((o) => `${agent} loads it, but ${o}.`),
    ...own.notes,
  ];
  if (errors.length > 0)
    problems.push(
      `${agent} loads it, though agents that follow the Agent Skills spec would refuse it: ${errors[0]?.message ?? ''}`,
      ...errors.slice(1).map((f) => f.message),
    );
  else problems.push(...warnings.map((f) => f.message));
  return {
    verdict: problems.length > 0 ? 'warning' : 'valid',
    problems,
    ...(otherwise.length > 0 ? { notAsWritten: true } : {}),
  };
}
