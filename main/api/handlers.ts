import { homedir } from 'node:os';
import { fail, ok, type ApiHandlers, type Result } from '../../shared/ipc/contract';
import { skillPlaces } from '../agents/paths';
import { browseFolder } from '../library/folder-browser';
import { createAgentViewHandlers } from './agent-view-handlers';
import { createAgentsHandlers } from './agents-handlers';
import { createInspectorHandlers } from './inspector-handlers';
import { createPackHandlers } from './pack-handlers';
import { createSafetyHandlers } from './safety-handlers';
import type { ApiDeps } from './services';

export type { ApiDeps } from './services';

/**
 * The one implementation of the contract: both shells call these. Handlers get parsed inputs
 * and return results as data (docs/conventions.md §2).
 */
export function createApiHandlers(deps: ApiDeps): ApiHandlers {
  const { library, settings, files, drafts, server } = deps;

  /** Run `action` on a skill folder only when it lies inside a library root. */
  async function inSkill<T>(
    skillDir: string,
    action: (dir: string) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    const real = await library.resolve(skillDir);
    if (!real)
      return fail(
        'outside-library',
        `${skillDir} is not inside a folder you opened in Skillbench, so it was not touched.`,
      );
    return action(real);
  }

  return {
    ...createPackHandlers(deps),
    ...createInspectorHandlers(deps),
    ...createAgentViewHandlers(deps),
    ...createAgentsHandlers(deps),
    ...createSafetyHandlers(deps),
    'app.info': async () =>
      ok({
        shell: deps.shell,
        version: deps.version,
        platform: process.platform,
        homeDir: homedir(),
        nativeDialogs: deps.pickFolder !== undefined,
      }),
    'dialog.pickFolder': async ({ title }) => {
      if (!deps.pickFolder) {
        return fail(
          'unsupported',
          'This window has no folder dialog. Type the folder path or use Browse.',
        );
      }
      return ok({ path: await deps.pickFolder(title) });
    },
    'fs.browse': async ({ path }) => browseFolder(path),
    'settings.get': async () => ok(await settings.get()),
    'settings.update': async (patch) => {
      const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return ok(await settings.update(clean));
    },
    'library.suggestions': async ({ projectDir }) =>
      ok({ places: skillPlaces(deps.agentEnv, projectDir) }),
    'library.open': async ({ path }) => {
      const result = await library.open(path);
      if (result.ok) await server.rootsChanged();
      return result;
    },
    'library.close': async ({ root }) => {
      const roots = await library.close(root);
      await server.rootsChanged();
      return ok({ roots });
    },
    'library.list': async () => ok(await library.list()),
    'skill.read': async ({ path }) => library.read(path),
    'skill.save': async ({ path, text, expectedVersion }) => {
      const result = await library.save(path, text, expectedVersion);
      if (result.ok) await drafts.discard(path);
      return result;
    },
    'skill.validate': async ({ path, profiles }) => library.validate(path, profiles),
    'skill.renameFolder': async ({ path, newName }) => {
      const result = await library.renameSkillFolder(path, newName);
      if (result.ok) await drafts.discard(path);
      return result;
    },
    'skill.fileView': async ({ path }) => library.fileView(path),
    'skill.create': async ({ root, name, description, template }) =>
      library.createSkill(root, name, description, template),
    'skill.files': async ({ skillDir }) =>
      inSkill(skillDir, async (dir) => {
        const listed = await files.list(dir);
        return listed.ok ? ok({ entries: listed.value }) : listed;
      }),
    'file.create': async ({ skillDir, path, kind, text }) =>
      inSkill(skillDir, (dir) => files.create(dir, path, kind, text)),
    'file.rename': async ({ skillDir, from, to }) =>
      inSkill(skillDir, (dir) => files.rename(dir, from, to)),
    'file.delete': async ({ skillDir, path }) =>
      inSkill(skillDir, (dir) => files.delete(dir, path)),
    'file.restore': async ({ undoToken }) => files.restore(undoToken),
    'file.import': async ({ skillDir, path, base64 }) =>
      inSkill(skillDir, (dir) => files.importFile(dir, path, Buffer.from(base64, 'base64'))),
    'file.preview': async ({ skillDir, path }) =>
      inSkill(skillDir, (dir) => files.preview(dir, path)),
    'drafts.put': async ({ path, text, baseVersion }) => {
      if (!(await library.resolve(path)))
        return fail('outside-library', `${path} is not inside a folder you opened in Skillbench.`);
      await drafts.put(path, text, baseVersion);
      return ok({});
    },
    'drafts.list': async () => ok({ drafts: await drafts.list() }),
    'drafts.discard': async ({ path }) => {
      await drafts.discard(path);
      return ok({});
    },
    'server.panel': async () => ok(await server.panel()),
    'server.start': async () => {
      const panel = await server.start();
      if (panel.status.state === 'failed')
        return fail(
          'server-failed',
          `The skills server could not start: ${panel.status.error ?? 'unknown reason'}.`,
        );
      return ok(panel);
    },
    'server.stop': async () => ok(await server.stop()),
    'server.regenerateToken': async () => ok(await server.regenerateToken()),
    'server.addToClient': async ({ client, replace }) =>
      ok(await server.addToClient(client, replace === true)),
  };
}
