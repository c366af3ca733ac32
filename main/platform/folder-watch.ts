/**
 * Watching folder trees for changes made on disk: the one watcher the served catalog and the
 * app's library list both use. It reports, after a quiet period, which of its folders changed.
 * {@link notASkillChange} is the one rule for what a change inside a library cannot matter to.
 *
 * Two sources of news, because neither alone is enough:
 * - a recursive `fs.watch` per folder (skills nest at any depth; Node ≥ 20 watches recursively on
 *   Linux, macOS and Windows), for edits inside it;
 * - a steady look at each folder's identity (one `stat` per folder per `lookMs`), for what such a
 *   watcher does not tell: the folder itself renamed away, deleted, put back or re-created, a
 *   folder that is a link pointed elsewhere, or a change made while Node was still setting up the
 *   recursive watcher (on Linux it does that folder by folder after `watch()` returns).
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';
import { NEVER_ENTERED } from '../../shared/skill/file-set';

/** Options for {@link FolderWatch}. */
export interface FolderWatchOptions {
  /** The folders to watch, asked again at each look (callers may change them between looks). */
  folders: () => readonly string[];
  /** Called once changes have settled, with the folders that changed (their watcher or identity said so). */
  onChange: (changed: ReadonlySet<string>) => void;
  /**
   * Changes that cannot matter to the caller, by the path the watcher names (relative to the
   * folder, `/`-separated): never reported. A change the watcher names no path for is reported.
   */
  ignore?: (relativePath: string, folder: string) => boolean;
  /** Quiet time after the last change before `onChange`, in ms. Default 150. */
  quietMs?: number;
  /**
   * Longest wait for `onChange` while changes keep coming, in ms. Default 1000. Why: writes faster
   * than the quiet time would otherwise postpone the news for as long as they last.
   */
  maxWaitMs?: number;
  /** How often each folder's identity is looked at, in ms. Default 1000. */
  lookMs?: number;
  /**
   * How long a folder that exists but could not be watched (too many watches, no permission)
   * waits before it is tried again, in ms. Default 30,000. Why not at every look: setting up a
   * recursive watcher walks the whole tree, and a tree too big to watch would be walked each second.
   */
  retryMs?: number;
}

interface Watched {
  watcher: FSWatcher | null;
  /** The folder's identity when it was last looked at (null: missing). */
  ino: number | null;
  /** When watching it last failed, for a folder that exists but could not be watched. */
  failedAt?: number;
}

/** The identity of a folder now (it follows links), or null when it is missing. */
function identity(folder: string): number | null {
  try {
    return statSync(folder).ino;
  } catch {
    return null;
  }
}

/** Watches folders until {@link FolderWatch.close}; timers never keep the process alive. */
export class FolderWatch {
  readonly #options: FolderWatchOptions;
  readonly #watched = new Map<string, Watched>();
  readonly #pending = new Set<string>();
  #look: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the first change still waiting for `onChange` arrived. */
  #firstPending: number | undefined;
  #closed = false;

  constructor(options: FolderWatchOptions) {
    this.#options = options;
  }

  /** Start watching the folders, and looking at them steadily. */
  start(): void {
    if (this.#closed) return;
    this.look();
    if (!this.#look) {
      this.#look = setInterval(() => this.look(), this.#options.lookMs ?? 1000);
      this.#look.unref?.();
    }
  }

  /**
   * Look at every folder now: stop watching those no longer asked for, start watching new ones
   * (not a change: the caller has just read them), and report those whose identity changed since
   * the last look. Call it after the folders changed, or after reading them again.
   */
  look(): void {
    if (this.#closed) return;
    const folders = new Set(this.#options.folders());
    for (const [folder, entry] of this.#watched)
      if (!folders.has(folder)) {
        entry.watcher?.close();
        this.#watched.delete(folder);
      }
    const now = Date.now();
    for (const folder of folders) {
      const entry = this.#watched.get(folder);
      const ino = identity(folder);
      if (!entry) {
        this.#watch(folder, ino);
        continue;
      }
      if (entry.ino !== ino) {
        entry.watcher?.close();
        this.#watch(folder, ino);
        this.#changed(folder);
      } else if (
        entry.watcher === null &&
        ino !== null &&
        now - (entry.failedAt ?? 0) >= (this.#options.retryMs ?? 30_000)
      )
        this.#watch(folder, ino);
    }
  }

  /** Stop everything; no `onChange` comes after this. */
  close(): void {
    this.#closed = true;
    for (const { watcher } of this.#watched.values()) watcher?.close();
    this.#watched.clear();
    this.#pending.clear();
    if (this.#look) clearInterval(this.#look);
    if (this.#timer) clearTimeout(this.#timer);
    this.#look = this.#timer = undefined;
  }

  #watch(folder: string, ino: number | null): void {
    const entry: Watched = { watcher: null, ino };
    this.#watched.set(folder, entry);
    if (ino === null) return;
    try {
      const ignore = this.#options.ignore;
      const watcher = watch(folder, { recursive: true, persistent: false }, (_event, name) => {
        if (ignore && typeof name === 'string' && ignore(name.split(sep).join('/'), folder)) return;
        this.#changed(folder);
      });
      watcher.on('error', () => {
        // Why: a watcher dies with its folder (deleted, moved): the next look that finds another
        // folder there watches it; one still there (the watcher failed) is tried again later.
        if (entry.watcher === watcher) entry.watcher = null;
        entry.failedAt = Date.now();
        watcher.close();
        this.#changed(folder);
      });
      entry.watcher = watcher;
    } catch {
      entry.failedAt = Date.now();
    }
  }

  #changed(folder: string): void {
    if (this.#closed) return;
    this.#pending.add(folder);
    const now = Date.now();
    this.#firstPending ??= now;
    if (this.#timer) clearTimeout(this.#timer);
    const quiet = this.#options.quietMs ?? 150;
    const waited = now - this.#firstPending;
    const delay = Math.max(0, Math.min(quiet, (this.#options.maxWaitMs ?? 1000) - waited));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#firstPending = undefined;
      const changed = new Set(this.#pending);
      this.#pending.clear();
      if (!this.#closed) this.#options.onChange(changed);
    }, delay);
    this.#timer.unref?.();
  }
}

/**
 * Whether a change at this path (relative to a library folder, `/`-separated) cannot change any
 * skill: it lies inside a folder no walk enters (version-control data, installed dependencies,
 * caches: the file set's `never` folders). Why: `git fetch` or `npm install` in a library would
 * otherwise make every watcher read the whole library again for nothing.
 */
export function notASkillChange(relativePath: string): boolean {
  const segments = relativePath.split('/');
  // Why all but the last: a change named by the folder itself (`.git` made or removed) is a
  // change of the folder listing its parent, which the walk does read.
  for (let i = 0; i < segments.length - 1; i++)
    if (NEVER_ENTERED.has(segments[i] ?? '')) return true;
  return false;
}
