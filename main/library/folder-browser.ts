import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fail, ok, type ChannelOutput, type Result } from '../../shared/ipc/contract';
import { NEVER_ENTERED } from '../../shared/skill/file-set';
import { describeFsError } from '../platform/fs-errors';

/** Hidden folders the browser still shows, because skills live in them. */
const SHOWN_DOT_FOLDERS = new Set([
  '.claude',
  '.agents',
  '.codex',
  '.cursor',
  '.gemini',
  '.copilot',
]);

/**
 * One folder's sub-folders, for the browser shell's folder picker (it has no native dialog):
 * hidden folders only where agents keep skills, never the folders a skill never holds
 * (version control, dependencies, caches).
 */
export async function browseFolder(
  path: string | undefined,
): Promise<Result<ChannelOutput<'fs.browse'>>> {
  const folder = resolve(path && path.trim() !== '' ? path.trim() : homedir());
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) return fail('not-a-folder', `${folder} is a file, not a folder.`);
    const entries = await readdir(folder, { withFileTypes: true });
    const folders = entries
      .filter((e) => e.isDirectory() && !NEVER_ENTERED.has(e.name))
      .filter((e) => !e.name.startsWith('.') || SHOWN_DOT_FOLDERS.has(e.name))
      .map((e) => ({ name: e.name, path: join(folder, e.name) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const parent = dirname(folder) === folder ? null : dirname(folder);
    const isSkill = entries.some((e) => e.isFile() && e.name === 'SKILL.md');
    return ok({ path: folder, parent, folders, isSkill });
  } catch (error) {
    return { ok: false, error: describeFsError(error, folder, 'open') };
  }
}
