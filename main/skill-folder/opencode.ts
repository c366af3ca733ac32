/**
 * What OpenCode reads of a skill folder (shared/agent-view/opencode-list.ts;
 * docs/opencode-listing.md): its SKILL.md by that exact name, read with the one bounded reader.
 * OpenCode follows a SKILL.md that is a link; Skillbench never reads through a link at the file
 * itself (it could point anywhere), so it says so instead. Why apart from the skill-folder
 * reader: the hashing workers load that reader, and this one brings the YAML parser with it.
 */
import { lstatSync } from 'node:fs';
import { openCodeReading, type OpenCodeReading } from '../../shared/agent-view/opencode-list';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { readBoundedSync } from '../platform/read-file';
import { agentSkillFile } from './agent-file';

/** How OpenCode reads the skill in `dir`. */
export function openCodeReadingOf(dir: string): OpenCodeReading {
  const found = agentSkillFile(dir);
  if ('error' in found)
    return { loads: false, why: `OpenCode cannot read the folder: ${found.error}` };
  const { fileName, path } = found;
  if (fileName !== 'SKILL.md')
    return {
      loads: false,
      why: `OpenCode does not see it: it reads only a file named SKILL.md, in capitals, and this one is named ${fileName}.`,
    };
  try {
    if (lstatSync(path).isSymbolicLink())
      return {
        loads: false,
        why: 'Skillbench does not read a SKILL.md that is a link (it could point anywhere), so it cannot say what OpenCode, which follows the link, reads: put the file itself in the folder.',
      };
    return openCodeReading(readBoundedSync(path, SKILL_MD_MAX_BYTES).toString('utf8'));
  } catch (error) {
    return {
      loads: false,
      why: `OpenCode cannot read its SKILL.md: ${String((error as Error).message)}`,
    };
  }
}
