/**
 * What Gemini CLI reads of a skill folder (shared/agent-view/gemini-list.ts;
 * docs/gemini-cli-listing.md): its SKILL.md by that exact name, read with the one bounded reader.
 * Gemini CLI follows a SKILL.md that is a link, as it follows a linked skill folder; Skillbench
 * never reads through a link at the file itself (it could point anywhere), so it says so instead.
 * Why apart from the skill-folder reader: the hashing workers load that reader, and this one
 * brings the YAML parser with it.
 */
import { lstatSync } from 'node:fs';
import { basename } from 'node:path';
import { geminiReading, type GeminiReading } from '../../shared/agent-view/gemini-list';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { readBoundedSync } from '../platform/read-file';
import { agentSkillFile } from './agent-file';

/** How Gemini CLI reads the skill in `dir`, a folder directly in one of its skills folders. */
export function geminiReadingOf(dir: string): GeminiReading {
  const found = agentSkillFile(dir);
  if ('error' in found)
    return { loads: false, why: `Gemini CLI cannot read the folder: ${found.error}` };
  const { fileName, path } = found;
  let text: string;
  try {
    if (lstatSync(path).isSymbolicLink())
      return {
        loads: false,
        why: 'Skillbench does not read a SKILL.md that is a link (it could point anywhere), so it cannot say what Gemini CLI, which follows the link, reads: put the file itself in the folder.',
      };
    text = readBoundedSync(path, SKILL_MD_MAX_BYTES).toString('utf8');
  } catch (error) {
    return {
      loads: false,
      why: `Gemini CLI cannot read its SKILL.md: ${String((error as Error).message)}`,
    };
  }
  return geminiReading(text, basename(dir), { fileName });
}
