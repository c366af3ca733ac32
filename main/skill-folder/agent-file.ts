/**
 * The skill file an agent's own reading looks at in a skill folder (main/skill-folder/codex.ts,
 * gemini.ts): one listing of the folder, whatever kind each entry is (the reading says what a
 * link means for that agent).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

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
