/** What the agent commands share: the skill manager over the CLI's environment, scopes, names. */
import { join, resolve } from 'node:path';
import { agentById, unknownAgentSentence } from '../../../shared/agents/agents';
import type { ScopeRef } from '../../../shared/agents/types';
import { projectFolderProblem, SkillManager } from '../../agents/manager';
import { InspectorService } from '../../inspector';
import { processAgentEnv, type Scope } from '../../agents/paths';
import { SettingsStore } from '../../library/settings-store';
import { defaultUserDataDir } from '../../platform/user-data';
import { term } from '../../security/terminal-text';
import { UsageError, type CliIO } from '../support/types';

/** The skill manager for the CLI: HOME, XDG_* and the user-data folder from the environment. */
export function managerFor(io: CliIO): { manager: SkillManager; dataDir: string } {
  const dataDir = defaultUserDataDir(io.env);
  const manager = new SkillManager({
    env: processAgentEnv(io.env),
    dataDir,
    trashDir: join(dataDir, 'trash'),
    libraryRoots: async () => (await new SettingsStore(dataDir).get()).roots,
    // Why an inspector of its own: a skill installed from a server is checked by connecting to
    // its URL (with the saved connection of that label, if any); each check closes its connection.
    remote: new InspectorService({ dataDir }),
  });
  return { manager, dataDir };
}

/** Check agent ids; a wrong one is a usage error that names the likely one. */
export function checkAgents(ids: readonly string[]): string[] {
  const unknown = ids.find((id) => !agentById(id));
  if (unknown !== undefined) throw new UsageError(unknownAgentSentence(unknown));
  return [...ids];
}

/**
 * The folders `--project DIR` named, resolved against the current folder; a usage error in words
 * for one that is not there or not a folder (a typo would otherwise show nothing installed).
 */
export async function projectFolders(given: readonly string[], cwd: string): Promise<string[]> {
  const dirs = given.map((p) => resolve(cwd, p));
  for (const dir of dirs) {
    const problem = await projectFolderProblem(dir);
    if (problem !== undefined) throw new UsageError(problem);
  }
  return dirs;
}

/** The scope of `--global` / `--project DIR` (default: the project in the current folder). */
export async function scopeOf(
  values: { global?: boolean; project?: string },
  io: CliIO,
): Promise<Scope> {
  if (values.global && values.project !== undefined)
    throw new UsageError('Choose --global or --project DIR, not both.');
  if (values.global) return { kind: 'global' };
  if (values.project === undefined) return { kind: 'project', dir: resolve(io.cwd) };
  const [dir] = await projectFolders([values.project], io.cwd);
  return { kind: 'project', dir };
}

/** A scope in a few words for a listing. */
export function scopeWords(scope: ScopeRef): string {
  return scope.kind === 'global' ? 'global' : term`project ${scope.dir}`;
}
