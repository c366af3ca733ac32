import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Folders read at once while searching. */
const WALK_CONCURRENCY = 16;

/** Folders never searched for skills: dependency and VCS trees, never user content. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '__MACOSX']);

/** A SKILL.md found under a library root. */
export interface FoundSkill {
  /** Absolute path of the skill folder. */
  dir: string;
  /** Absolute path of the SKILL.md file. */
  file: string;
  /** The folder relative to the root, `/` separated ('' when the root itself is a skill). */
  relativeDir: string;
  /** The file name as found on disk: `SKILL.md`, or `skill.md` (reported by the validator). */
  fileName: string;
}

/** Options for {@link findSkills}. */
export interface FindSkillsOptions {
  /** Stop after this many skills (protects against scanning a whole disk). */
  limit?: number;
}

/**
 * Find every SKILL.md under `root`, recursively, skipping node_modules/.git and symlinked
 * folders (a link could leave the library or loop). Results are sorted by relative path.
 * Nested skills are reported too: a skill may contain another (SEP-2640 §1).
 */
export async function findSkills(
  root: string,
  options: FindSkillsOptions = {},
): Promise<FoundSkill[]> {
  const limit = options.limit ?? 100_000;
  const found: FoundSkill[] = [];
  const pending: string[] = [root];
  let active = 0;
  let failure: Error | null = null;
  // Why a bounded pool: one readdir at a time leaves the disk idle between calls (5,000 skills
  // with sub-folders are ~20,000 folders); too many at once only queues in libuv's thread pool.
  await new Promise<void>((resolveWalk) => {
    const pump = (): void => {
      while (
        active < WALK_CONCURRENCY &&
        pending.length > 0 &&
        found.length < limit &&
        failure === null
      ) {
        const dir = pending.pop() as string;
        active++;
        readdir(dir, { withFileTypes: true })
          .then(
            (entries) => {
              const skillFile =
                entries.find((e) => e.isFile() && e.name === 'SKILL.md') ??
                entries.find((e) => e.isFile() && e.name.toLowerCase() === 'skill.md');
              if (skillFile && found.length < limit) {
                const rel = relative(root, dir).split(sep).join('/');
                found.push({
                  dir,
                  file: join(dir, skillFile.name),
                  relativeDir: rel,
                  fileName: skillFile.name,
                });
              }
              for (const entry of entries) {
                if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name))
                  pending.push(join(dir, entry.name));
              }
            },
            (error: unknown) => {
              if (dir === root) failure = error instanceof Error ? error : new Error(String(error));
              // Why: an unreadable subfolder must not hide the rest of the library.
            },
          )
          .finally(() => {
            active--;
            pump();
          });
      }
      if (active === 0) resolveWalk();
    };
    pump();
  });
  const rootFailure = failure as Error | null;
  if (rootFailure) throw rootFailure;
  found.sort((a, b) =>
    a.relativeDir < b.relativeDir ? -1 : a.relativeDir > b.relativeDir ? 1 : 0,
  );
  return found;
}
