/**
 * The readings of a skill folder by the agents whose own reading Skillbench models beyond their
 * validation profile (shared/agent-view/readers.ts): Codex's, Gemini CLI's and OpenCode's. One place, so the
 * install checks and the Agents view read a folder for an agent the same way.
 */
import type { AgentReadings } from '../../shared/agent-view/readers';
import { codexReadingOf } from './codex';
import { geminiReadingOf } from './gemini';
import { openCodeReadingOf } from './opencode';

/** Agent `agent`'s own reading of the skill in `dir`, when Skillbench models one. */
export function readingsOf(agent: string, dir: string): AgentReadings {
  if (agent === 'codex') return { codex: codexReadingOf(dir) };
  if (agent === 'gemini-cli') return { gemini: geminiReadingOf(dir) };
  if (agent === 'opencode') return { opencode: openCodeReadingOf(dir) };
  return {};
}
