import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { checkSkillName } from '../../shared/authoring/skill-name';
import { renderTemplate, type SkillTemplate } from '../../shared/authoring/templates';
import { fail, ok, type Result } from '../../shared/ipc/contract';
import { describeFsError } from '../platform/fs-errors';
import { exists, writeFolder } from '../platform/staged-folder';

/**
 * Create a new skill folder `<parent>/<name>` from a template (the wizard and `skillbench new`):
 * the name checked as a folder name, every file written to a staged folder and moved into place
 * in one rename, so a failure leaves nothing half-made and an existing folder is never touched.
 */
export async function createSkillFolder(
  parent: string,
  name: string,
  description: string,
  template: SkillTemplate['id'],
): Promise<Result<{ path: string; dir: string }>> {
  const problem = checkSkillName(name);
  if (problem) return fail('invalid-name', problem);
  const dir = join(parent, name);
  const taken = (): Result<{ path: string; dir: string }> =>
    fail(
      'exists',
      `A folder named ${name} already exists in ${parent}. Choose another name; nothing was replaced.`,
    );
  const files = Object.entries(renderTemplate(template, name, description)).map(([path, text]) => ({
    path,
    data: Buffer.from(text, 'utf8'),
    mode: 0o644,
  }));
  const notFolder = await fileOnTheWay(parent);
  if (notFolder !== undefined)
    return fail(
      'not-a-folder',
      `${notFolder} is a file, not a folder, so ${name} cannot be made in it. Choose a folder for the new skill; nothing was written.`,
    );
  try {
    if (await exists(dir)) return taken();
    await writeFolder(dir, files);
  } catch (error) {
    if (await exists(dir).catch(() => false)) return taken();
    return { ok: false, error: describeFsError(error, dir, 'write') };
  }
  return ok({ path: join(dir, 'SKILL.md'), dir });
}

/** The nearest existing path at or above `folder`, when it is not a folder (the new skill cannot go there). */
async function fileOnTheWay(folder: string): Promise<string | undefined> {
  for (let p = resolve(folder); ; p = dirname(p)) {
    const info = await stat(p).catch(() => undefined);
    if (info) return info.isDirectory() ? undefined : p;
    if (dirname(p) === p) return undefined;
  }
}
