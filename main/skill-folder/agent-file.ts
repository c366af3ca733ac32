/**
 * The skill file an agent's own reading looks at in a skill folder (main/skill-folder/codex.ts,
 * agent-readings.ts): one listing of the folder, whatever kind each entry is (the reading says
 * what a link means for that agent), and its text read with the one bounded reader.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { readBoundedSync } from '../platform/read-file';

/** The exact name agents read a skill from. */
const SKILL_FILE = 'SKILL.md';

/**
 * The skill file in `dir`: `SKILL.md`, else a `skill.md` in other capitals (which the agent's
 * reading then refuses by name), else `SKILL.md` (whose read then fails as missing); or the
 * error that kept the folder from being listed.
 */
export function agentSkillFile(
  dir: string,
): { fileName: string; path: string } | { error: string } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    return { error: String((error as Error).message) };
  }
  const fileName = names.includes(SKILL_FILE)
    ? SKILL_FILE
    : (names.find((n) => n.toLowerCase() === 'skill.md') ?? SKILL_FILE);
  return { fileName, path: join(dir, fileName) };
}

/**
 * The skill file's text for an agent (`agent`, its name for people) that follows a SKILL.md
 * that is a link (Gemini CLI, OpenCode); or why it cannot be given. Skillbench never reads
 * through a link at the file itself (it could point anywhere), so it says so instead.
 */
export function agentSkillText(
  dir: string,
  agent: string,
): { fileName: string; text: string } | { why: string } {
  const found = agentSkillFile(dir);
  if ('error' in found) return { why: `${agent} cannot read the folder: ${found.error}` };
  try {
    if (lstatSync(found.path).isSymbolicLink())
      return {
        why: `Skillbench does not read a SKILL.md that is a link (it could point anywhere), so it cannot say what ${agent}, which follows the link, reads: put the file itself in the folder.`,
      };
    return {
      fileName: found.fileName,
      text: readBoundedSync(found.path, SKILL_MD_MAX_BYTES).toString('utf8'),
    };
  } catch (error) {
    return { why: `${agent} cannot read its SKILL.md: ${String((error as Error).message)}` };
  }
}
