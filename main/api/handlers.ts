import { homedir } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fail, ok, type ApiHandlers } from '../../shared/ipc/contract';
import { describeFsError } from '../library/fs-errors';
import type { LibraryService } from '../library/library-service';

/** What the handlers need from the shell they run in. */
export interface ApiDeps {
  shell: 'electron' | 'browser';
  version: string;
  library: LibraryService;
  /** The native folder dialog; absent in the browser shell. */
  pickFolder?: (title?: string) => Promise<string | null>;
}

/**
 * The one implementation of the contract: both shells call these. Handlers get parsed inputs
 * and return results as data (CONVENTIONS 2).
 */
export function createApiHandlers(deps: ApiDeps): ApiHandlers {
  return {
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
        return fail('unsupported', 'This window has no folder dialog. Type the folder path or use Browse.');
      }
      return ok({ path: await deps.pickFolder(title) });
    },
    'fs.browse': async ({ path }) => {
      const folder = resolve(path && path.trim() !== '' ? path.trim() : homedir());
      try {
        const info = await stat(folder);
        if (!info.isDirectory()) return fail('not-a-folder', `${folder} is a file, not a folder.`);
        const entries = await readdir(folder, { withFileTypes: true });
        const folders = entries
          .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
          .map((e) => ({ name: e.name, path: join(folder, e.name) }))
          .sort((a, b) => a.name.localeCompare(b.name));
        const parent = dirname(folder) === folder ? null : dirname(folder);
        const isSkill = entries.some((e) => e.isFile() && e.name === 'SKILL.md');
        return ok({ path: folder, parent, folders, isSkill });
      } catch (error) {
        return { ok: false, error: describeFsError(error, folder, 'open') };
      }
    },
    'library.open': async ({ path }) => deps.library.open(path),
    'skill.read': async ({ path }) => deps.library.read(path),
    'skill.save': async ({ path, text, expectedVersion }) => deps.library.save(path, text, expectedVersion),
  };
}
