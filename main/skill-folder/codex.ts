/**
 * What Codex reads of a skill folder (shared/agent-view/codex-list.ts; docs/codex-listing.md):
 * its SKILL.md by that exact name and its `agents/openai.yaml`, read with the one bounded reader.
 * Why apart from the skill-folder reader: the hashing workers load that reader, and this one
 * brings the YAML parser with it.
 */
import { lstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  CODEX_AGENT_SETTINGS,
  CODEX_SKILL_FILE,
  codexReading,
  type CodexReading,
} from '../../shared/agent-view/codex-list';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { readBoundedSync } from '../platform/read-file';
import { agentSkillFile } from './agent-file';

/** The most of an `agents/openai.yaml` read (a settings file of a few lines). */
const CODEX_SETTINGS_MAX_BYTES = 64 * 1024;

/**
 * A skill folder's `agents/openai.yaml`, which Codex reads beside SKILL.md; undefined when there
 * is none or it cannot be read as a plain file inside the folder.
 */
export function readCodexSettings(dir: string): string | undefined {
  try {
    // Why the folder is checked: the read never follows a link at the file itself, and an
    // `agents` folder that is a link could point it at a file outside the skill.
    if (!lstatSync(join(dir, 'agents')).isDirectory()) return undefined;
    return readBoundedSync(join(dir, CODEX_AGENT_SETTINGS), CODEX_SETTINGS_MAX_BYTES).toString(
      'utf8',
    );
  } catch {
    // Why nothing said: most skills have no such file, and Codex reads the skill without it.
    return undefined;
  }
}

/**
 * How Codex reads the skill in `dir` (shared/agent-view/codex-list.ts): its SKILL.md, found by
 * that exact name as Codex finds it (a `skill.md` is not, nor a SKILL.md that is a link), with
 * the folder's agents/openai.yaml.
 */
export function codexReadingOf(dir: string): CodexReading {
  const found = agentSkillFile(dir);
  if ('error' in found)
    return {
      loads: false,
      codex: 'failed to read skills dir',
      why: `Codex cannot read the folder: ${found.error}`,
    };
  const { fileName, path } = found;
  let text: string;
  try {
    if (fileName === CODEX_SKILL_FILE && lstatSync(path).isSymbolicLink())
      return {
        loads: false,
        codex: 'SKILL.md is a symbolic link',
        why: 'Codex does not see it: its SKILL.md is a link, and Codex reads only a SKILL.md that is a file.',
      };
    text = readBoundedSync(path, SKILL_MD_MAX_BYTES).toString('utf8');
  } catch (error) {
    return {
      loads: false,
      codex: 'failed to read file',
      why: `Codex cannot read its SKILL.md: ${String((error as Error).message)}`,
    };
  }
  const settings = readCodexSettings(dir);
  return codexReading(text, basename(dir), {
    fileName,
    ...(settings !== undefined ? { settings } : {}),
  });
}
