/**
 * Skills from a git repository, through the system `git`: a local path or a URL is cloned into
 * a temp folder, read at the commit it was cloned at (the commit an install records), and the
 * temp folder removed afterwards. git runs without a terminal prompt and without the user's
 * hooks or templates, and a repository's own configuration never runs anything on a clone.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findSkillFolders } from '../skill-folder';

/** Run git; reject with its own message (stderr) on failure. */
function git(args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', '-c', 'init.templateDir=', ...args],
      {
        cwd,
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' },
      },
      (error, stdout, stderr) => {
        if (error) {
          const e = error as NodeJS.ErrnoException;
          reject(
            new Error(
              e.code === 'ENOENT'
                ? 'git is not installed on this computer (the git command was not found)'
                : // Why one line: git's lines ("fatal: …", "Please make sure …") end up in one sentence.
                  `git ${args[0] ?? ''} failed: ${(stderr.trim() || error.message)
                    .split(/\s*\r?\n\s*/)
                    .filter(Boolean)
                    .join(' ')}`,
            ),
          );
        } else resolve(stdout);
      },
    );
  });
}

/** A clone in a temp folder, and how to remove it. */
export interface Clone {
  dir: string;
  commit: string;
  cleanup: () => Promise<void>;
}

/** Clone `url` (a URL or a local path) and check out `commit` (default: its HEAD). */
export async function cloneAt(url: string, commit?: string): Promise<Clone> {
  const parent = await mkdtemp(join(tmpdir(), 'skillbench-git-'));
  const dir = join(parent, 'repo');
  const cleanup = (): Promise<void> => rm(parent, { recursive: true, force: true });
  try {
    await git(['clone', '--quiet', '--no-tags', '--', url, dir]);
    if (commit) await git(['checkout', '--quiet', '--detach', commit], dir);
    const head = (await git(['rev-parse', 'HEAD'], dir)).trim();
    return { dir, commit: head, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The commit a repository's HEAD points to now. */
export async function remoteHead(url: string): Promise<string> {
  const out = await git(['ls-remote', '--', url, 'HEAD']);
  const commit = out.split(/\s/)[0] ?? '';
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new Error(`${url} has no HEAD commit`);
  return commit;
}

/** The skills a clone holds: each folder with SKILL.md, relative to the repository. */
export async function skillsInClone(clone: Clone): Promise<{ relDir: string; dir: string }[]> {
  const found = await findSkillFolders(clone.dir, { limit: 1000 });
  return found.map((f) => ({ relDir: f.relativeDir, dir: f.dir }));
}
