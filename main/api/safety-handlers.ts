import { dirname, resolve } from 'node:path';
import { fail, ok, type ApiHandlers, type Result } from '../../shared/ipc/contract';
import { revokeAcceptance } from '../safety/acceptances';
import { reviewSkillFolder, trustAnyway } from '../safety/service';
import type { ApiDeps } from './services';

type SafetyChannels =
  'safety.review' | 'safety.trust' | 'safety.untrust' | 'safety.library' | 'safety.agents';

/** The safety review's channels (docs/safety-review.md): review, trust anyway, stop trusting, badges. */
export function createSafetyHandlers(deps: ApiDeps): Pick<ApiHandlers, SafetyChannels> {
  const reviews = deps.safety;

  /** The skill folder for `path` (a folder or its SKILL.md) inside a library root, or an error. */
  async function skillDir(path: string): Promise<string | Result<never>> {
    const abs = resolve(path);
    const dir = /(?:^|[\\/])skill\.md$/i.test(abs) ? dirname(abs) : abs;
    const real = (await deps.library.resolve(dir)) ?? (deps.exportable.has(dir) ? dir : null);
    if (!real)
      return fail('outside-library', `${path} is not inside a folder you opened in Skillbench.`);
    return real;
  }

  async function guarded<T>(path: string, action: (dir: string) => Promise<T>): Promise<Result<T>> {
    const dir = await skillDir(path);
    if (typeof dir !== 'string') return dir;
    try {
      return ok(await action(dir));
    } catch (error) {
      return fail(
        'io',
        `The skill could not be reviewed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  return {
    'safety.review': ({ path }) => guarded(path, (dir) => reviews.review(dir)),
    'safety.trust': ({ path, hash, reason, days }) =>
      guarded(path, async (dir) => {
        const current = await reviewSkillFolder(dir, deps.userDataDir);
        // Why compare: the user accepted what they saw; a skill changed since then asks again.
        if (current.hash !== hash)
          throw new Error(
            'it changed since you looked at it. Read the new findings and decide again.',
          );
        await trustAnyway(deps.userDataDir, current, reason, days);
        reviews.forget(dir);
        await deps.server.trustChanged();
        return reviews.review(dir);
      }),
    'safety.untrust': ({ path, hash }) =>
      guarded(path, async (dir) => {
        await revokeAcceptance(deps.userDataDir, hash);
        reviews.forget(dir);
        await deps.server.trustChanged();
        return reviews.review(dir);
      }),
    'safety.agents': async () => {
      try {
        // Why main lists the folders: the renderer names none, so no folder outside what the
        // agents load is ever read for it.
        const { agents } = await deps.agents.overview();
        const dirs = agents
          .flatMap((a) => a.folders.flatMap((f) => f.skills))
          .flatMap((s) => (s.realDir === null ? [] : [s.realDir]));
        return ok({ skills: await reviews.badges(dirs) });
      } catch (error) {
        return fail(
          'io',
          `The agents' skills could not be reviewed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    'safety.library': async () => {
      try {
        const listing = await deps.library.list();
        const dirs = listing.skills
          .filter((s) => !s.linked || s.linked.state === 'followed')
          .map((s) => (s.linked?.state === 'followed' ? s.linked.target : dirname(s.path)));
        return ok({ skills: await reviews.badges(dirs) });
      } catch (error) {
        return fail(
          'io',
          `The library could not be reviewed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}
