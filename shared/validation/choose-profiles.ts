import type { ParsedSkill } from '../skill/frontmatter-parser';
import { PROFILES } from './profiles';
import { suggestProfiles } from './suggest-profiles';
import type { Diagnostic, ProfileId } from './types';

/** The profiles a skill is checked for, and which of them are its own format. */
export interface ProfileChoice {
  /** Every profile to check: its own format first, then the extra targets. */
  profiles: ProfileId[];
  /** The skill's own format (or the profiles the caller named). */
  own: ProfileId[];
  source: 'given' | 'suggested';
}

/**
 * The one answer to "which profiles does this skill get checked for" (the app, the library list,
 * the import preview and the CLI all ask here): the profiles the caller named (`--profile`), else
 * the skill's own format as its frontmatter shows it (`suggestProfiles`) plus the extra targets
 * the user chose in Settings (e.g. a claude.ai upload).
 */
export function chooseProfiles(
  parsed: ParsedSkill,
  given?: readonly ProfileId[],
  extra: readonly ProfileId[] = [],
): ProfileChoice {
  if (given && given.length > 0) {
    const list = [...new Set(given)];
    return { profiles: list, own: list, source: 'given' };
  }
  const suggested = suggestProfiles(parsed);
  const own: ProfileId[] = suggested.length > 0 ? suggested : ['agentskills'];
  return { profiles: [...new Set([...own, ...extra])], own, source: 'suggested' };
}

/**
 * Drop the fixes an extra target offers that would break the skill for its own format: moving a
 * field into `metadata` that the skill's own format reads at the top level.
 */
export function keepOwnFormatFixes(
  diagnostics: Diagnostic[],
  own: readonly ProfileId[] | undefined,
): void {
  if (!own || own.length === 0) return;
  for (const d of diagnostics) {
    if (!d.fixes || own.includes(d.profile) || d.ruleId !== 'keys/unexpected') continue;
    const key = (d.field ?? '').slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
    const owner = own.find((p) => PROFILES[p].keys.has(key));
    if (key === '' || owner === undefined) continue;
    delete d.fixes;
    d.message = `${d.message.replace(' You can move it into metadata.', '')} It is part of this skill's own format (${PROFILES[owner].title}), so keep it.`;
  }
}
