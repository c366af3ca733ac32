/**
 * Links on the way to a folder Skillbench writes into. Why its own module: every writer into a
 * project's or an agent's folder (an install, a Claude Code export) asks the same two questions,
 * and they must get one answer.
 */
import { lstat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { resolveInside } from './paths';

/**
 * The link on the way from a project's folder to `path` ("<project>/.claude is a link (to
 * ../elsewhere)"), or undefined when there is none. Why: a project comes from elsewhere (a clone,
 * a download), and a folder on the way that is a link (`.claude` pointing anywhere) would make a
 * write, a removal or an undo act on files outside the project while every message names a path
 * inside it; the one link policy for paths inside a folder ({@link resolveInside}) decides. Only
 * the folders above `path` count: `path` itself may be a link (a linked install), which is moved
 * or replaced, never written through.
 */
export async function linkOnTheWayIn(
  projectDir: string,
  path: string,
): Promise<string | undefined> {
  const rel = relative(projectDir, path).split(sep).join('/');
  if (rel === '') return undefined;
  const found = await resolveInside(projectDir, rel);
  if (found.ok || found.error.reason !== 'link') return undefined;
  return `${join(projectDir, found.error.link ?? '')} is a link (to ${found.error.target ?? '?'})`;
}

/**
 * Why `dest` must not be written into `folder`, in words, or undefined when it may: the folder is
 * itself a link (written into, it would put files wherever the link leads), or, in a project
 * (`projectDir`), a folder on the way is a link. `folder` null: only the links on the way count.
 */
export async function writeThroughRefusal(
  projectDir: string | undefined,
  folder: string | null,
  dest: string,
): Promise<string | undefined> {
  const folderIsLink =
    folder !== null &&
    (await lstat(folder).then(
      (s) => s.isSymbolicLink(),
      () => false,
    ));
  if (folderIsLink) return `${folder} is itself a link, so Skillbench does not write into it.`;
  const through = projectDir === undefined ? undefined : await linkOnTheWayIn(projectDir, dest);
  if (through !== undefined)
    return `${through}, and a link in a project can lead anywhere on this computer, so Skillbench does not write through it.`;
  return undefined;
}
