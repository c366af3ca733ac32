/**
 * Watching folder trees for changes made on disk: the one watcher the served catalog and the
 * app's library list both use. It reports, after a quiet period, which of its folders changed.
 * {@link notASkillChange} is the one rule for what a change inside a library cannot matter to.
 *
 * Two sources of news, because neither alone is enough:
 * - a watch over each folder's tree (skills nest at any depth: see {@link watchTree}), for edits
 *   inside it;
 * - a steady look at each folder's identity (one `stat` per folder per `lookMs`), for what such a
 *   watcher does not tell: the folder itself renamed away, deleted, put back or re-created, a
 *   folder that is a link pointed elsewhere, or a change made while Node was still setting up the
 *   recursive watcher (on Linux it does that folder by folder after `watch()` returns).
 */
import { lstatSync, statSync, watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';
import { TimeSlicer } from './concurrency';
import { walkFolder, type WalkedEntry } from './walk';
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
  /**
   * Watch each folder of a tree on its own (true) or the tree at once through Node's recursive
   * watcher (false). Default: at once where the system does it (macOS, Windows), each folder
   * elsewhere (see {@link watchTree}).
   */
  perFolder?: boolean;
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
  watcher: TreeWatcher | null;
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
   * Settles once every folder watched now has its whole tree watched (the folders under it are
   * watched in time slices), or could not be: from then on every change is news.
   */
  async ready(): Promise<void> {
    await Promise.all(
      [...this.#watched.values()].map((w) => w.watcher?.ready ?? Promise.resolve()),
    );
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
    const ignore = this.#options.ignore;
    try {
      const watcher: TreeWatcher = watchTree(
        folder,
        this.#options.perFolder ?? !NATIVE_RECURSIVE,
        (relativePath) => {
          if (ignore && relativePath !== null && ignore(relativePath, folder)) return;
          this.#changed(folder);
        },
        () => {
          // Why: a watcher dies with its folder (deleted, moved): the next look that finds another
          // folder there watches it; one still there (the watcher failed) is tried again later.
          if (entry.watcher === watcher) entry.watcher = null;
          entry.failedAt = Date.now();
          watcher.close();
          this.#changed(folder);
        },
      );
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

/** A watch over a folder tree. */
interface TreeWatcher {
  close(): void;
  /** Settles once the whole tree is watched (or the watch ended). */
  ready?: Promise<void>;
}

/** Where Node's recursive watcher is the system's own (one handle for a whole tree). */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * Watch the tree at `root`: `onEvent` with the path that changed (relative, `/`-separated; null
 * when the system names none), `onError` when the watch dies (its root deleted or moved).
 *
 * Why each folder on its own elsewhere than macOS and Windows: there Node's recursive watcher is
 * written in JavaScript and, inside `watch()`, walks the tree with a `stat` and a watch handle per
 * file as well as per folder, the folders no walk enters (`.git`, `node_modules`) included: half
 * a second per 1,000 skills on the thread that answers, and two kernel watches per file, which
 * can exhaust a system's limit. A folder's watch already reports a change to any file in it, so
 * one watch per folder the walk enters is enough: new folders are watched as they appear, and a
 * folder's watch goes with it.
 */
function watchTree(
  root: string,
  perFolder: boolean,
  onEvent: (relativePath: string | null) => void,
  onError: () => void,
): TreeWatcher {
  if (!perFolder) {
    const watcher = watch(root, { recursive: true, persistent: false }, (_event, name) =>
      onEvent(typeof name === 'string' ? name.split(sep).join('/') : null),
    );
    watcher.on('error', onError);
    return watcher;
  }
  /** Each watched folder's watch and identity (a folder replaced under the same name is another). */
  const folders = new Map<string, { w: FSWatcher; ino: number }>();
  let closed = false;
  const close = (): void => {
    closed = true;
    for (const { w } of folders.values()) w.close();
    folders.clear();
  };
  const base = root.endsWith(sep) ? root : root + sep;
  /** Stop watching `relDir` and every folder under it (it was removed or replaced). */
  const drop = (relDir: string): void => {
    for (const [rel, { w }] of folders)
      if (rel === relDir || rel.startsWith(`${relDir}/`)) {
        w.close();
        folders.delete(rel);
      }
  };
  /** Watch the folder `relDir` if it is not yet; false when it is gone. Throws what else fails. */
  const watchOne = (relDir: string): boolean => {
    if (folders.has(relDir)) return true;
    const abs = relDir === '' ? root : base + relDir;
    let w: FSWatcher;
    let ino: number;
    try {
      ino = statSync(abs).ino;
      w = watch(abs, { persistent: false }, (event, name) => onFolderEvent(relDir, event, name));
    } catch (error) {
      // Why the root alone fails the watch: a subfolder removed meanwhile is simply gone.
      const code = (error as NodeJS.ErrnoException).code;
      if (relDir !== '' && (code === 'ENOENT' || code === 'ENOTDIR')) return false;
      throw error;
    }
    w.on('error', () => {
      if (relDir === '') onError();
      else drop(relDir);
    });
    folders.set(relDir, { w, ino });
    return true;
  };
  /**
   * Watch the folders from `start` down that the walk enters (not `.git`, `node_modules`, …), in
   * time slices: a library of 10,000 skills has 40,000 folders, and the thread that answers must
   * not stop for them. A folder that cannot be watched (the system's watch limit) ends the whole
   * watch through `onError`, to be made again later: a watch with holes would miss changes.
   */
  const watchFrom = async (start: string): Promise<void> => {
    const slicer = new TimeSlicer();
    const pending = [start];
    const scratch = new Map<string, WalkedEntry[]>();
    try {
      for (let head = 0; head < pending.length; head++) {
        if (slicer.due()) await slicer.pause();
        if (closed) return;
        const relDir = pending[head] ?? '';
        if (relDir !== start && folders.has(relDir)) continue;
        if (!watchOne(relDir)) continue;
        // Why after the watch: a folder made between the listing and the watch would be missed.
        walkFolder(root, relDir, scratch, pending, NEVER_ENTERED, false);
        scratch.clear();
      }
    } catch {
      // Why later: the first slice runs inside watchTree, before its caller holds the watch.
      setImmediate(() => {
        if (!closed) onError();
      });
    }
  };
  const onFolderEvent = (relDir: string, event: string, name: string | Buffer | null): void => {
    if (closed) return;
    if (typeof name !== 'string') {
      onEvent(relDir === '' ? null : relDir);
      return;
    }
    const path = relDir === '' ? name : `${relDir}/${name}`;
    if (event === 'rename' && !NEVER_ENTERED.has(name)) {
      // A name came or went: a folder that came is watched with what it holds, one that went
      // (or was replaced by a file or a link) is no longer.
      let info: ReturnType<typeof lstatSync> | undefined;
      try {
        info = lstatSync(base + path, { throwIfNoEntry: false });
      } catch {
        info = undefined; // Why: a path that cannot be examined (ENOTDIR, EACCES) is no folder to watch.
      }
      const watched = folders.get(path);
      if (info?.isDirectory()) {
        if (watched?.ino !== info.ino) {
          if (watched) drop(path);
          void watchFrom(path);
        }
      } else if (watched) drop(path);
    }
    onEvent(path);
  };
  // Why the root at once: a folder that cannot be watched at all fails here, for the caller to
  // try again later; the folders under it follow in time slices.
  watchOne('');
  return { close, ready: watchFrom('') };
}
