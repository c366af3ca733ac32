/**
 * What Gemini CLI's own settings say about loading skills (docs/gemini-cli-listing.md): its
 * settings.json (JSON with comments) in the user's `${GEMINI_CLI_HOME:-~}/.gemini` and, for a
 * project, the project's `.gemini`. `skills.enabled: false` turns every skill off; `skills.disabled`
 * lists names (any case) it loads but keeps from the model, the lists of both files together.
 * Read with the one bounded reader (through a link, as Gemini CLI reads it); a file that is
 * missing, larger than 1 MB or not JSON says nothing here.
 */
import { join } from 'node:path';
import { expandAgentPath } from '../../shared/agents/agents';
import { parseJsonc } from '../../shared/json/jsonc';
import { isJsonObject } from '../../shared/json/values';
import { readResolvedBoundedSync } from '../platform/read-file';
import type { AgentEnv, Scope } from './paths';

/** The most of a settings file read (Gemini CLI's is a few kilobytes). */
const GEMINI_SETTINGS_MAX_BYTES = 1024 * 1024;

/** Gemini CLI's skill settings for one scope. */
export interface GeminiSkillSettings {
  /** The settings file that turns skills off (`skills.enabled: false`), if one does. */
  off?: string;
  /** Each disabled name, in lower case, with the file that lists it. */
  disabled: Map<string, string>;
}

/** The `skills` object of one settings file, or undefined. */
function skillsOf(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    // Why through a link: settings files are often kept with a person's dotfiles and linked, and
    // Gemini CLI reads them so; the file named is still read the careful way (no pipe, bounded).
    text = readResolvedBoundedSync(path, GEMINI_SETTINGS_MAX_BYTES).toString('utf8');
  } catch {
    return undefined;
  }
  const parsed = parseJsonc(text);
  if ('error' in parsed || !isJsonObject(parsed.value)) return undefined;
  const skills = parsed.value['skills'];
  return isJsonObject(skills) ? skills : undefined;
}

/** What Gemini CLI's settings say of skills in `scope` (the user's file, then the project's). */
export function geminiSkillSettings(env: AgentEnv, scope: Scope): GeminiSkillSettings {
  const home = expandAgentPath('${GEMINI_CLI_HOME:-~}/.gemini', env) ?? join(env.home, '.gemini');
  const files = [join(home, 'settings.json')];
  if (scope.kind === 'project') files.push(join(scope.dir, '.gemini', 'settings.json'));
  const settings: GeminiSkillSettings = { disabled: new Map() };
  for (const file of files) {
    const skills = skillsOf(file);
    if (!skills) continue;
    // Why the later file decides: a project's settings override the user's, as in Gemini CLI.
    if (skills['enabled'] === false) settings.off = file;
    else if (skills['enabled'] === true) delete settings.off;
    const disabled = skills['disabled'];
    if (Array.isArray(disabled))
      for (const name of disabled)
        if (typeof name === 'string' && !settings.disabled.has(name.toLowerCase()))
          settings.disabled.set(name.toLowerCase(), file);
  }
  return settings;
}

/** Why Gemini CLI does not load skill `name` in `scope` by its settings, or undefined. */
export function geminiTurnedOff(settings: GeminiSkillSettings, name: string): string | undefined {
  if (settings.off !== undefined)
    return `Gemini CLI loads no skills: skills.enabled is false in ${settings.off}.`;
  const file = settings.disabled.get(name.toLowerCase());
  return file === undefined
    ? undefined
    : `Gemini CLI does not load it: ${file} lists it under skills.disabled.`;
}
