import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { lineDiff } from '../../shared/projection';
import {
  fail,
  ok,
  type ApiHandlers,
  type ChannelInput,
  type Result,
} from '../../shared/ipc/contract';
import { describeFsError } from '../platform/fs-errors';
import {
  exportSkill,
  importSkill,
  planSkillExport,
  previewImport,
  NotASkillError,
  type ExportOptions,
} from '../pack';
import { receiveUpload } from '../pack/uploads';
import type { ApiDeps } from './services';

type PackChannels =
  | 'export.plan'
  | 'export.run'
  | 'export.reveal'
  | 'import.preview'
  | 'import.run'
  | 'import.upload';

/** Where exports go unless the user picks another place: Downloads when there is one. */
function defaultOutputFolder(): string {
  const downloads = join(homedir(), 'Downloads');
  return existsSync(downloads) ? downloads : homedir();
}

/** A plain message for anything the exporter or importer throws (a vanished folder, a full disk). */
function trouble<T>(error: unknown, path: string): Result<T> {
  if (error instanceof NotASkillError) return fail('not-a-skill', error.message);
  return { ok: false, error: describeFsError(error, path, 'read') };
}

/** The export and import channels, over main/pack. */
export function createPackHandlers(deps: ApiDeps): Pick<ApiHandlers, PackChannels> {
  const trashDir = join(deps.userDataDir, 'trash');

  /** A skill folder inside a library root, or a verified copy the inspector handed over. */
  async function exportSource(skillDir: string): Promise<string | null> {
    return (
      (await deps.library.resolve(skillDir)) ??
      (deps.exportable.has(resolve(skillDir)) ? resolve(skillDir) : null)
    );
  }

  async function options(input: ChannelInput<'export.plan'>): Promise<ExportOptions> {
    return {
      keep: input.keep,
      project: input.project,
      out: input.out,
      claudeCode: input.claudeCode,
      sha256File: input.sha256File,
      trashDir,
      dataDir: deps.userDataDir,
      cwd: defaultOutputFolder(),
      ...(input.target === 'folder' && !input.out ? { out: defaultOutputFolder() } : {}),
    };
  }

  return {
    'export.plan': async (input) => {
      const skillDir = await exportSource(input.skillDir);
      if (!skillDir)
        return fail(
          'outside-library',
          `${input.skillDir} is not inside a folder you opened in Skillbench.`,
        );
      try {
        const { plan, skill } = await planSkillExport(skillDir, input.target, await options(input));
        const defaultOut =
          plan.target.output === 'folder'
            ? defaultOutputFolder()
            : join(defaultOutputFolder(), `${plan.skillName}${plan.target.extension ?? ''}`);
        return ok({ plan, diff: lineDiff(skill.skillText, plan.projection.text), defaultOut });
      } catch (error) {
        return trouble(error, input.skillDir);
      }
    },
    'export.run': async (input) => {
      const skillDir = await exportSource(input.skillDir);
      if (!skillDir)
        return fail(
          'outside-library',
          `${input.skillDir} is not inside a folder you opened in Skillbench.`,
        );
      try {
        const opts = {
          ...(await options(input)),
          overwrite: input.overwrite,
          force: input.force,
          trust: input.trust,
        };
        const result = await exportSkill(skillDir, input.target, opts);
        // Why an error for an archive: the dialog offers Replace for it (a folder copy shows its diff).
        if (result.status === 'archive-exists')
          return fail(
            'exists',
            `${basename(result.path)} already exists in that folder. Choose Replace to overwrite it, or pick another name.`,
          );
        return ok(result);
      } catch (error) {
        return trouble(error, input.skillDir);
      }
    },
    'export.reveal': async ({ path }) => {
      if (!deps.revealPath) return ok({ shown: false });
      deps.revealPath(path);
      return ok({ shown: true });
    },
    'import.preview': async ({ source, pick }) => {
      try {
        const { extraProfiles } = await deps.settings.get();
        return ok(await previewImport(source, { pick, dataDir: deps.userDataDir, extraProfiles }));
      } catch (error) {
        return trouble(error, source);
      }
    },
    'import.run': async ({ source, into, pick, onConflict, trust }) => {
      const root = await deps.library.resolve(into);
      if (!root)
        return fail(
          'outside-library',
          `${into} is not one of your library folders. Open it first.`,
        );
      try {
        const { extraProfiles } = await deps.settings.get();
        const result = await importSkill(source, {
          into: root,
          pick,
          onConflict,
          trashDir,
          dataDir: deps.userDataDir,
          trust,
          extraProfiles,
        });
        return ok(result);
      } catch (error) {
        return trouble(error, source);
      }
    },
    'import.upload': async ({ name, base64 }) =>
      receiveUpload(deps.userDataDir, name, Buffer.from(base64, 'base64')),
  };
}
