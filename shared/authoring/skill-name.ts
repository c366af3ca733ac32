import { skillFolderNameProblem } from '../projection/normalise';

/**
 * Check a new skill's name as the user types it, with the portable rules (docs/skill-format.md §2 `agentskills`:
 * 1–64 lowercase letters, digits and single hyphens, no hyphen at either end; upload targets
 * also reject `anthropic`/`claude`). Returns a plain sentence, or null when the name is fine.
 */
export function checkSkillName(name: string): string | null {
  if (name === '') return 'Give the skill a name.';
  if ([...name].length > 64)
    return `The name has ${[...name].length} characters; at most 64 are allowed.`;
  if (/[A-Z]/.test(name)) return 'Use lowercase letters only (for example "meeting-notes").';
  if (/\s/.test(name)) return 'Use hyphens instead of spaces (for example "meeting-notes").';
  if (!/^[a-z0-9-]+$/.test(name)) return 'Use only lowercase letters a–z, digits and hyphens.';
  if (name.startsWith('-') || name.endsWith('-'))
    return 'The name cannot start or end with a hyphen.';
  if (name.includes('--')) return 'The name cannot have two hyphens in a row.';
  if (/anthropic|claude/.test(name))
    return 'claude.ai and the Claude API refuse names containing "anthropic" or "claude". Choose another name.';
  // Why: the name becomes the skill's folder, and names such as "con" or "nul" pass the rules above.
  const folderProblem = skillFolderNameProblem(name);
  if (folderProblem !== undefined)
    return `The name becomes the skill's folder, and "${name}" cannot be one: it ${folderProblem}. Choose another name.`;
  return null;
}

/** Turn free text into a valid skill name suggestion ("Meeting Notes!" → "meeting-notes"). */
export function suggestSkillName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '');
}
