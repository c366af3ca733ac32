/**
 * The readings of a skill folder by the agents whose own reading Skillbench models beyond their
 * validation profile (shared/agent-view/readers.ts): Codex's, Gemini CLI's and OpenCode's. One
 * place, so the install checks and the Agents view read a folder for an agent the same way.
 * Why apart from the skill-folder reader: the hashing workers load that reader, and these
 * readings bring the YAML parser with them.
 */
import { basename } from 'node:path';
import { geminiReading } from '../../shared/agent-view/gemini-list';
import { openCodeReading } from '../../shared/agent-view/opencode-list';
import type { AgentReadings } from '../../shared/agent-view/readers';
import { agentSkillText } from './agent-file';
import { codexReadingOf } from './codex';

/** Agent `agent`'s own reading of the skill in `dir`, when Skillbench models one. */
export function readingsOf(agent: string, dir: string): AgentReadings {
  if (agent === 'codex') return { codex: codexReadingOf(dir) };
  if (agent === 'gemini-cli') {
    const read = agentSkillText(dir, 'Gemini CLI');
    return {
      gemini:
        'why' in read
          ? { loads: false, why: read.why }
          : geminiReading(read.text, basename(dir), { fileName: read.fileName }),
    };
  }
  if (agent === 'opencode') {
    const read = agentSkillText(dir, 'OpenCode');
    return {
      opencode:
        'why' in read
          ? { loads: false, why: read.why }
          : openCodeReading(read.text, { fileName: read.fileName }),
    };
  }
  return {};
}
