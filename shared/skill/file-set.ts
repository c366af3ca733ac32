/**
 * A skill's file set: the one list of what a skill folder leaves out, used by every part of the
 * app that reads a skill's files (validation, the library listing, the file tree, the embedded
 * server, export, import). Two kinds of paths are left out:
 *
 * - `never`: not part of a skill at all: version-control data of every kind, operating-system
 *   litter, installed dependencies, caches. Walks never enter these folders; imports drop them;
 *   nothing copies, lists as a skill file, validates or serves them.
 * - `private`: the author's own, kept in their folder but withheld whenever the skill is shared
 *   (every export target and the embedded server): files that look like they hold secrets
 *   (by name, or by content when the bytes are read) and the root `evals/` folder (the author's
 *   test prompts, not for the model). An export may keep a secret-looking file when the user
 *   says so; the server never publishes one.
 *
 * See docs/skill-format.md §3 ("Always left out"). What looks like a secret is the safety
 * review's to say (shared/safety/secrets.ts); this module asks it.
 */
import { secretFileName, tokenLookingContent } from '../safety/secrets';

export { tokenLookingContent } from '../safety/secrets';

/** Why a path is left out. */
export type FileSetRule =
  | 'vcs-folder'
  | 'os-junk'
  | 'dependency-folder'
  | 'python-cache'
  | 'evals-folder'
  | 'secret-file'
  | 'secret-content';

/** A path left out of a skill's file set, and why. */
export interface LeftOut {
  rule: FileSetRule;
  /** A plain sentence for people. */
  reason: string;
  /** `never`: not part of a skill at all; `private`: the author's, withheld when shared. */
  scope: 'never' | 'private';
  /** The user may choose to keep it in an export (secret-looking files only). */
  keepable: boolean;
  /** The technical detail, for the log and for experts. */
  detail?: string;
}

/** Version-control folders of every kind (git, Mercurial, Subversion, Bazaar, darcs, CVS, Jujutsu, Pijul). */
const VCS_FOLDERS = new Set(['.git', '.hg', '.svn', '.bzr', '_darcs', 'CVS', '.jj', '.pijul']);
/** Version-control files: a git worktree/submodule pointer, Fossil checkout databases. */
const VCS_FILES = new Set(['.git', '.fslckout', '_FOSSIL_']);
/** Folders operating systems and archivers leave behind. */
const JUNK_FOLDERS = new Set([
  '__MACOSX',
  '.Spotlight-V100',
  '.Trashes',
  '.fseventsd',
  '.TemporaryItems',
  '$RECYCLE.BIN',
]);
/** Files operating systems leave behind, compared in lower case (Windows writes either case). */
const JUNK_FILES = new Set(['.ds_store', 'thumbs.db', 'ehthumbs.db', 'desktop.ini']);
/** Installed dependencies and virtual environments: rebuilt by the reader, never shipped. */
const DEPENDENCY_FOLDERS = new Set(['node_modules', 'bower_components', '.venv', '.tox', '.nox']);
/** Caches tools rebuild on their own. */
const CACHE_FOLDERS = new Set([
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.ipynb_checkpoints',
  '.sass-cache',
]);

/**
 * Folder names no walk enters, wherever they are in a skill or library (the `never` folders).
 * Why by name alone: a walk decides before reading the folder, and these names mean the same
 * thing at any depth.
 */
export const NEVER_ENTERED: ReadonlySet<string> = new Set([
  ...VCS_FOLDERS,
  ...JUNK_FOLDERS,
  ...DEPENDENCY_FOLDERS,
  ...CACHE_FOLDERS,
]);

const VCS_REASON = 'Version-control data (such as Git history) is never part of a skill.';

/** The last segment of a `/`-separated path. */
function lastSegment(path: string): string {
  // Why lastIndexOf rather than split: this runs for every file of every skill in a library listing.
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Whether a path (relative to the skill folder, `/`-separated) is left out of the skill's file
 * set, decided by its name alone. Folders: the `never` folders at any depth and the root
 * `evals/`; files: version-control pointers, OS litter, compiled Python, secret-looking names.
 */
export function leftOutByPath(path: string, isDirectory: boolean): LeftOut | undefined {
  const last = lastSegment(path);
  if (isDirectory) {
    if (VCS_FOLDERS.has(last))
      return { rule: 'vcs-folder', reason: VCS_REASON, scope: 'never', keepable: false };
    if (JUNK_FOLDERS.has(last))
      return {
        rule: 'os-junk',
        reason: `${last} is left behind by the operating system or an archiver; it is never part of a skill.`,
        scope: 'never',
        keepable: false,
      };
    if (DEPENDENCY_FOLDERS.has(last))
      return {
        rule: 'dependency-folder',
        reason: `Installed dependencies (${last}) are left out; the destination installs nothing from them.`,
        scope: 'never',
        keepable: false,
      };
    if (CACHE_FOLDERS.has(last))
      return {
        rule: 'python-cache',
        reason: `Caches (${last}) are rebuilt automatically and are left out.`,
        scope: 'never',
        keepable: false,
      };
    if (path === 'evals')
      return {
        rule: 'evals-folder',
        reason:
          'The root evals/ folder holds test cases for the author, not for the model; it stays in your folder and is left out when the skill is shared.',
        scope: 'private',
        keepable: false,
      };
    return undefined;
  }
  if (VCS_FILES.has(last))
    return { rule: 'vcs-folder', reason: VCS_REASON, scope: 'never', keepable: false };
  const lower = last.toLowerCase();
  if (JUNK_FILES.has(lower) || last.startsWith('._'))
    return {
      rule: 'os-junk',
      reason: `${last} is left behind by the operating system (folder settings or a thumbnail cache); it is never part of a skill.`,
      scope: 'never',
      keepable: false,
    };
  if (lower.endsWith('.pyc') || lower.endsWith('.pyo'))
    return {
      rule: 'python-cache',
      reason: 'Compiled Python files (.pyc) are rebuilt automatically and are left out.',
      scope: 'never',
      keepable: false,
    };
  // Why ask the review: it owns what looks like a secret (docs/safety-review.md, "Secrets").
  const secretName = secretFileName(last);
  if (secretName !== undefined)
    return {
      rule: 'secret-file',
      reason: secretName,
      scope: 'private',
      keepable: true,
      detail: 'secret-looking file name',
    };
  return undefined;
}

/**
 * Whether a file's text withholds it from sharing (it seems to hold a token), decided once its
 * bytes are read (exports and the server read every file they publish). `SKILL.md` itself is
 * never withheld this way: without it there is no skill, so a token there blocks the export
 * instead (and the server refuses to serve the skill).
 */
export function leftOutByContent(path: string, text: string): LeftOut | undefined {
  const token = tokenLookingContent(text);
  if (!token) return undefined;
  return {
    rule: 'secret-content',
    reason: `${lastSegment(path)} seems to contain ${token}.`,
    scope: 'private',
    keepable: true,
    detail: `token pattern: ${token}`,
  };
}
