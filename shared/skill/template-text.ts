/**
 * Text a template leaves in a skill for its author to replace. One owner: `skillbench new` writes
 * {@link PLACEHOLDER_DESCRIPTION} when it is given no description, and the rule
 * `description/template-text` recognizes it, with the placeholders other skill templates write.
 */

/** The description `skillbench new` writes when the author gives none. */
export const PLACEHOLDER_DESCRIPTION =
  'Describe what this skill does and when the agent should use it (one or two sentences).';

/**
 * What marks `description` as a template's, or null. Recognized: Skillbench's own placeholder,
 * a description that starts with a TODO, FIXME or TBD note (`TODO: …`, `[TODO: …]`, as
 * skill-creator's and other skill templates write), and one that is nothing but a `{{ field }}`
 * slot an unfilled template left. Why so narrow: a warning that fires on real descriptions
 * ("Todo lists: …") would teach authors to ignore it.
 */
export function templateTextIn(description: string): string | null {
  const d = description.trim();
  if (d === PLACEHOLDER_DESCRIPTION) return 'the placeholder that skillbench new writes';
  const note = /^\[?\s*(TODO|FIXME|TBD)\s*(?:[:\]-]|$)/.exec(d);
  if (note) return `a ${note[1]} note`;
  if (/^\{\{\s*[\w.-]+\s*\}\}$/.test(d)) return `the unfilled slot ${d}`;
  return null;
}
