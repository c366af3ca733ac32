import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { lineDiff } from '../../shared/projection';
import {
  fail,
  ok,
  type ApiHandlers,
  type ChannelInput,
  type Result,
} from '../../shared/ipc/contract';
import { describeFsError } from '../library/fs-errors';
import {
  exportSkill,
  importSkill,
  planSkillExport,
  previewImport,
  NotASkillError,
  type ExportOptions,
} from '../pack';
import type { ApiDeps } from './handlers';

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

/** The export and import channels (issue 6), over main/pack. */
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
    const { profiles } = await deps.settings.get();
    return {
      keep: input.keep,
      project: input.project,
      profiles,
      out: input.out,
      claudeCode: input.claudeCode,
      sha256File: input.sha256File,
      trashDir,
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
        const opts = { ...(await options(input)), overwrite: input.overwrite, force: input.force };
        // Why: an archive of the same name is never replaced silently; the dialog asks first.
        if (
          input.out &&
          !input.overwrite &&
          existsSync(input.out) &&
          !['claude-code', 'folder'].includes(input.target)
        ) {
          return fail(
            'exists',
            `${basename(input.out)} already exists in that folder. Choose Replace to overwrite it, or pick another name.`,
          );
        }
        return ok(await exportSkill(skillDir, input.target, opts));
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
        return ok(await previewImport(source, { pick }));
      } catch (error) {
        return trouble(error, source);
      }
    },
    'import.run': async ({ source, into, pick, onConflict }) => {
      const root = await deps.library.resolve(into);
      if (!root)
        return fail(
          'outside-library',
          `${into} is not one of your library folders. Open it first.`,
        );
      try {
        const result = await importSkill(source, { into: root, pick, onConflict, trashDir });
        return ok(result);
      } catch (error) {
        return trouble(error, source);
      }
    },
    'import.upload': async ({ name, base64 }) => {
      // Why a private folder and a random sub-folder: the dropped file's name is untrusted and must not choose the path.
      const kept = basename(name).replace(/[^A-Za-z0-9._-]/g, '_');
      // Why not only dots: "." and ".." name the folder itself or its parent, not a new file.
      const safeName = /^\.*$/.test(kept) ? 'upload' : kept;
      const dir = join(deps.userDataDir, 'incoming', randomBytes(8).toString('hex'));
      try {
        await mkdir(dir, { recursive: true });
        const path = join(dir, safeName);
        await writeFile(path, Buffer.from(base64, 'base64'), { flag: 'wx' });
        return ok({ source: path });
      } catch (error) {
        return { ok: false, error: describeFsError(error, dir, 'write') };
      }
    },
  };
}
