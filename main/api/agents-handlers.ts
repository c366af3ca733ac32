import { fail, ok, type ApiHandlers } from '../../shared/ipc/contract';
import type { ApiDeps } from './services';

type AgentChannels =
  | 'agents.overview'
  | 'agents.addProject'
  | 'agents.removeProject'
  | 'agents.check'
  | 'agents.install'
  | 'agents.checkRemote'
  | 'agents.installRemote'
  | 'agents.uninstall'
  | 'agents.restore'
  | 'agents.outdated'
  | 'agents.update';

/** Why a message: a thrown error becomes a plain result (docs/conventions.md §2). */
const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The skill manager's channels: one service call each. */
export function createAgentsHandlers(deps: ApiDeps): Pick<ApiHandlers, AgentChannels> {
  const { agents, library, inspector } = deps;

  /** A discovered skill read and verified again, or the refusal (any other failure: an error). */
  async function verifiedRemote(key: string) {
    try {
      return await inspector.installableSkill(key);
    } catch (error) {
      return { ok: false as const, message: message(error) };
    }
  }

  /** The real folders of library skills; refuses any path outside the library. */
  async function librarySkills(
    paths: string[],
  ): Promise<{ ok: true; dirs: string[] } | { ok: false; path: string }> {
    const dirs: string[] = [];
    for (const p of paths) {
      const real = await library.resolve(p);
      if (!real) return { ok: false, path: p };
      dirs.push(real);
    }
    return { ok: true, dirs };
  }

  const outside = (path: string) =>
    fail<never>(
      'outside-library',
      `${path} is not a skill in a folder you opened in Skillbench, so nothing was installed.`,
    );

  return {
    'agents.overview': async () => ok(await agents.overview()),
    'agents.addProject': async ({ dir }) => {
      try {
        return ok({ projects: await agents.addProject(dir) });
      } catch (error) {
        return fail('not-a-folder', message(error));
      }
    },
    'agents.removeProject': async ({ dir }) => ok({ projects: await agents.removeProject(dir) }),
    'agents.check': async ({ skills, agents: ids }) => {
      const found = await librarySkills(skills);
      if (!found.ok) return outside(found.path);
      return ok({ checks: await agents.check(found.dirs, ids) });
    },
    'agents.install': async ({ skills, agents: ids, scope, mode, onConflict, trust }) => {
      const found = await librarySkills(skills);
      if (!found.ok) return outside(found.path);
      const report = await agents.install({
        skills: found.dirs.map((dir) => ({ dir, source: { kind: 'library' as const, path: dir } })),
        agents: ids,
        scope: scope,
        ...(mode ? { mode } : {}),
        ...(onConflict ? { onConflict } : {}),
        ...(trust ? { trust } : {}),
      });
      return ok(report);
    },
    'agents.checkRemote': async ({ key, agents: ids }) => {
      const skill = await verifiedRemote(key);
      if (!skill.ok) return ok({ checks: [], refused: skill.message });
      return ok({ checks: await agents.checkFiles(skill, ids) });
    },
    'agents.installRemote': async ({ key, agents: ids, scope, mode, onConflict, trust }) => {
      const skill = await verifiedRemote(key);
      // Why a report and not an error: the dialog shows each agent's outcome in plain words.
      if (!skill.ok)
        return ok({
          checks: [],
          lockNotes: [],
          outcomes: ids.map((agent) => ({
            skill: key.split('\n').pop() ?? key,
            agent,
            status: 'refused' as const,
            message: skill.message,
          })),
        });
      return ok(
        await agents.installFiles(skill, {
          agents: ids,
          scope,
          ...(mode ? { mode } : {}),
          ...(onConflict ? { onConflict } : {}),
          ...(trust ? { trust } : {}),
        }),
      );
    },
    'agents.uninstall': async ({ name, agents: ids, scope }) =>
      ok(await agents.uninstall(name, ids, scope)),
    'agents.restore': async ({ undoToken }) => ok(await agents.restore(undoToken)),
    'agents.outdated': async () => ok({ entries: await agents.outdated() }),
    'agents.update': async ({ names, choice, resolved, trust, scope }) =>
      ok({ outcomes: await agents.update(names, choice, resolved, trust, scope) }),
  };
}
