/**
 * Where each agent's skills folders are on this computer, which agents are installed, and where
 * the lock files and the canonical copies live, the same places the `skills` CLI uses
 * (docs/agents.md). Everything takes an {@link AgentEnv}, so tests point HOME and XDG_* at temp
 * folders without touching the process.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { linkOnTheWayIn, writeThroughRefusal } from '../platform/folder-links';
import { isPlainRelativePath } from '../platform/paths';
import {
  AGENTS,
  expandAgentPath,
  SHARED_GLOBAL_DIR,
  SHARED_PROJECT_DIR,
  type AgentSpec,
} from '../../shared/agents/agents';

/** The home folder and the environment variables agent paths depend on. */
export interface AgentEnv {
  home: string;
  vars: Readonly<Record<string, string | undefined>>;
}

/** The environment of this process (HOME, XDG_*, CLAUDE_CONFIG_DIR, …). */
export function processAgentEnv(vars: Record<string, string | undefined> = process.env): AgentEnv {
  return { home: vars.HOME ?? vars.USERPROFILE ?? homedir(), vars };
}

/** Where skills of one scope go: the user's (global) or one project's. */
export type Scope = { kind: 'global' } | { kind: 'project'; dir: string };

/** The scope in plain words. */
export function describeScope(scope: Scope): string {
  return scope.kind === 'global' ? 'your user folder (all projects)' : `the project ${scope.dir}`;
}

/**
 * Whether `name` is one folder's name, so that `<agent folder>/<name>` stays in the agent's
 * folder. Why: the names in a lock file are joined to agent folders to find the installed copies
 * an update replaces, and a project's `skills-lock.json` comes with the project; a name such as
 * `../../../elsewhere` would point an update or a removal at any folder on the computer.
 */
export function isOneFolderName(name: string): boolean {
  return isPlainRelativePath(name) && !name.includes('/');
}

/** The sentence for a name that {@link isOneFolderName} refuses. */
export const NOT_ONE_FOLDER =
  'is not the name of one folder (with "/", "\\", "." or ".." it would point somewhere else)';

/**
 * The link on the way from a project's folder to `path`, in words, or undefined when there is
 * none (main/platform/folder-links.ts). Not for the home folder: its agent folders are the
 * user's own, often linked from a dotfiles repository.
 */
export async function linkOnTheWay(scope: Scope, path: string): Promise<string | undefined> {
  return scope.kind === 'project' ? linkOnTheWayIn(scope.dir, path) : undefined;
}

/**
 * Why Skillbench will not write `dest` into an agent's skills `folder`, in words, or undefined
 * when it may (main/platform/folder-links.ts `writeThroughRefusal`, the one guard of every writer
 * into an agent's folder: an install, and a Claude Code export). `folder` null: only the links on
 * the way count (the canonical copy's folder, which the `skills` CLI also writes through when it
 * is a link).
 */
export async function agentFolderRefusal(
  scope: Scope,
  folder: string | null,
  dest: string,
): Promise<string | undefined> {
  return writeThroughRefusal(scope.kind === 'project' ? scope.dir : undefined, folder, dest);
}

/** The agent's skills folder in a scope, or null when it has none there (Eve has no global one). */
export function agentSkillsDir(spec: AgentSpec, scope: Scope, env: AgentEnv): string | null {
  if (scope.kind === 'project') return resolve(scope.dir, spec.projectDir);
  if (spec.globalDir === null) return null;
  const path = expandAgentPath(spec.globalDir, env);
  return path === null ? null : resolve(path);
}

/** The other folders an agent loads skills from in a scope (AgentSpec.alsoReads), resolved. */
export function agentAlsoReads(spec: AgentSpec, scope: Scope, env: AgentEnv): string[] {
  const also = spec.alsoReads;
  if (!also) return [];
  if (scope.kind === 'project') return also.project.map((p) => resolve(scope.dir, p));
  return also.global.flatMap((p) => {
    const path = expandAgentPath(p, env);
    return path === null ? [] : [resolve(path)];
  });
}

/**
 * The folder of the one canonical copy that linked installs point to, as the `skills` CLI
 * keeps it: `<project>/.agents/skills` or `~/.agents/skills`.
 */
export function canonicalDir(scope: Scope, env: AgentEnv): string {
  return scope.kind === 'project'
    ? resolve(scope.dir, SHARED_PROJECT_DIR)
    : resolve(expandAgentPath(SHARED_GLOBAL_DIR, env) ?? join(env.home, '.agents', 'skills'));
}

/** The lock file of a scope: `<project>/skills-lock.json`, or the user's `.skill-lock.json`. */
export function lockPath(scope: Scope, env: AgentEnv): string {
  if (scope.kind === 'project') return resolve(scope.dir, 'skills-lock.json');
  const state = env.vars.XDG_STATE_HOME;
  return state
    ? resolve(state, 'skills', '.skill-lock.json')
    : resolve(env.home, '.agents', '.skill-lock.json');
}

/** Whether the agent's configuration folder exists (it is installed here). */
export function isDetected(
  spec: AgentSpec,
  env: AgentEnv,
  projects: readonly string[] = [],
): boolean {
  for (const template of spec.detect) {
    if (template.startsWith('./')) {
      for (const project of projects) {
        const path = expandAgentPath(template, { ...env, project });
        if (path && existsSync(path)) return true;
      }
      continue;
    }
    const path = expandAgentPath(template, env);
    if (path && existsSync(path)) return true;
  }
  return false;
}

/** The agents installed on this computer (their configuration folders exist). */
export function detectAgents(env: AgentEnv, projects: readonly string[] = []): AgentSpec[] {
  return AGENTS.filter((a) => isDetected(a, env, projects));
}

/** Every skills folder of every known agent, global and in the given projects (for the link policy). */
export function allAgentSkillDirs(env: AgentEnv, projects: readonly string[]): string[] {
  const dirs = new Set<string>();
  const scopes: Scope[] = [
    { kind: 'global' },
    ...projects.map((dir) => ({ kind: 'project' as const, dir })),
  ];
  for (const scope of scopes) {
    dirs.add(canonicalDir(scope, env));
    for (const spec of AGENTS) {
      const dir = agentSkillsDir(spec, scope, env);
      if (dir) dirs.add(dir);
    }
  }
  return [...dirs];
}

/** A folder skills are loaded from, named for people by the agents that read it. */
export interface SkillPlace {
  label: string;
  path: string;
}

/** "Claude Code", "Cline and Codex", "Cline, Codex and 4 more". */
function agentNames(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names[0]}, ${names[1]} and ${names.length - 2} more`;
}

/**
 * The skills folders of the known agents that exist on this computer (the user's, and the
 * project's when one is given), one row per folder, named by every agent that reads it. Why from
 * the agents table: the welcome screen's suggestions and the Agents view must name the same
 * folder for the same agent (Codex reads `~/.agents/skills`, shared with other agents).
 */
export function skillPlaces(env: AgentEnv, projectDir?: string): SkillPlace[] {
  const scopes: Scope[] = [{ kind: 'global' }];
  if (projectDir) scopes.push({ kind: 'project', dir: resolve(projectDir) });
  const places: SkillPlace[] = [];
  for (const scope of scopes) {
    const readers = new Map<string, string[]>();
    for (const spec of AGENTS) {
      const dir = agentSkillsDir(spec, scope, env);
      if (dir) readers.set(dir, [...(readers.get(dir) ?? []), spec.name]);
    }
    const where = scope.kind === 'global' ? 'personal' : 'this project';
    for (const [path, names] of readers) {
      if (existsSync(path)) places.push({ label: `${agentNames(names)} (${where})`, path });
    }
  }
  return places;
}
