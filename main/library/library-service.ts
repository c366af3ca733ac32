import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fail, ok, type Result, type SkillSummary } from '../../shared/ipc/contract';
import { writeFileAtomic } from './atomic-write';
import { describeFsError } from './fs-errors';
import { resolveInsideRoots } from './paths';
import { findSkills } from './scan';
import { summarizeSkillText } from './summary';

/** Fingerprint of a file's bytes: what the editor passes back to detect outside edits. */
export function versionOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/** Called when Skillbench writes or notices a change. */
export type LibraryEmitter = (event: 'skill.changed', payload: { path: string; version: string | null }) => void;

/** The open library roots and the file operations the renderer may ask for inside them. */
export class LibraryService {
  private readonly roots = new Set<string>();

  constructor(private readonly emit: LibraryEmitter = () => undefined) {}

  /** The roots opened so far. */
  openRoots(): string[] {
    return [...this.roots];
  }

  /** Open `path` as a library root and list its skills. */
  async open(path: string): Promise<Result<{ root: string; skills: SkillSummary[] }>> {
    const root = resolve(path.trim());
    try {
      const info = await stat(root);
      if (!info.isDirectory()) {
        return fail('not-a-folder', `${root} is a file, not a folder. Choose the folder that holds your skills.`);
      }
      const found = await findSkills(root);
      this.roots.add(root);
      const skills = await Promise.all(
        found.map(async (skill): Promise<SkillSummary> => {
          const folderName = skill.relativeDir.split('/').pop() || root.split(/[\\/]/).pop() || '';
          let text = '';
          try {
            text = await readFile(skill.file, 'utf8');
          } catch {
            // Why: one unreadable file must not hide the library; its row shows the folder name.
          }
          const fields = summarizeSkillText(text);
          return {
            path: skill.file,
            relativeDir: skill.relativeDir,
            root,
            name: fields.name || folderName,
            description: fields.description,
          };
        }),
      );
      return ok({ root, skills });
    } catch (error) {
      return { ok: false, error: describeFsError(error, root, 'open') };
    }
  }

  /** Read a file inside an open library. */
  async read(path: string): Promise<Result<{ path: string; text: string; version: string }>> {
    const real = await resolveInsideRoots(this.roots, path);
    if (!real) return outside(path);
    try {
      const bytes = await readFile(real);
      return ok({ path, text: bytes.toString('utf8'), version: versionOf(bytes) });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'read') };
    }
  }

  /**
   * Save `text` atomically. When `expectedVersion` is given and the file on disk no longer has
   * that fingerprint, nothing is written: someone else changed it and the user must choose.
   */
  async save(path: string, text: string, expectedVersion?: string): Promise<Result<{ path: string; version: string }>> {
    const real = await resolveInsideRoots(this.roots, path);
    if (!real) return outside(path);
    try {
      if (expectedVersion !== undefined) {
        let current: string | null = null;
        try {
          current = versionOf(await readFile(real));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        if (current !== expectedVersion) {
          return fail(
            'conflict',
            current === null
              ? `${path} was deleted outside Skillbench after you opened it. Nothing was written.`
              : `${path} was changed outside Skillbench after you opened it. Nothing was written, so neither version is lost.`,
          );
        }
      }
      const bytes = Buffer.from(text, 'utf8');
      await writeFileAtomic(real, bytes);
      const version = versionOf(bytes);
      this.emit('skill.changed', { path, version });
      return ok({ path, version });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }
}

function outside<T>(path: string): Result<T> {
  return fail(
    'outside-library',
    `${path} is not inside a folder you opened in Skillbench, so it was not touched.`,
  );
}
