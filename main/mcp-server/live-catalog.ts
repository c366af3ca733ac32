/**
 * The live catalog: the current snapshot plus a watcher that rebuilds it when files change
 * (debounced), swapping the new snapshot in at once. Requests read `current` when they start and
 * keep that snapshot to the end, so a rebuild never blocks or tears a request.
 */
import { EventEmitter } from 'node:events';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FolderWatch, notASkillChange } from '../platform/folder-watch';
import { isInside } from '../platform/paths';
import { buildSnapshot } from './catalog';
import type {
  BuildOptions,
  CatalogSnapshot,
  CheckMemo,
  CheckMemoEntry,
  ExcludedSkill,
  FileCache,
} from './catalog';
import { mcpServeCheck, type SkillCheck } from './skill-check';
import { keptReviewsFrom, settleReviewMemo } from '../safety/service';

/** What a rebuild changed. URIs are SKILL.md URIs for skills, file URIs for files. */
export interface CatalogChange {
  previous: CatalogSnapshot;
  current: CatalogSnapshot;
  addedSkills: string[];
  removedSkills: string[];
  /** Skills whose entry changed (a file added, removed or edited, or the frontmatter). */
  changedSkills: string[];
  /** Files whose bytes changed or that disappeared (for `notifications/resources/updated`). */
  changedFiles: string[];
  /** True when the set of listed resources changed (for `notifications/resources/list_changed`). */
  listChanged: boolean;
  /**
   * Skills not served now that were not left out before, or left out for other reasons (folders).
   * Why: a skill that breaks while being served, or is added broken, changes nothing a client
   * sees, but the person serving it must be told why it is missing.
   */
  newlyExcluded: ExcludedSkill[];
  /** True when the skills not served, or their reasons, changed at all (one was fixed or deleted too). */
  excludedChanged: boolean;
}

/** Options for {@link LiveCatalog}. */
export interface LiveCatalogOptions {
  check?: SkillCheck;
  /** Watch the roots and rebuild on changes. Default true. */
  watch?: boolean;
  /** Quiet time before a rebuild, in ms. Default 150. */
  debounceMs?: number;
  /**
   * Longest wait for a rebuild while changes keep coming, in ms. Default 1000. Why: writes faster
   * than the quiet time would otherwise postpone every rebuild while they last.
   */
  maxWaitMs?: number;
  /** How long after the first build the watches are set up, in ms. Default 250 (see load). */
  watchAfterMs?: number;
  /** How often each watched folder's identity is looked at (moved away, back, re-created), in ms. Default 1000. */
  recheckMs?: number;
  /** Where linked skill folders may point besides the roots (see BuildOptions.linkRoots), asked at each build. */
  linkRoots?: () => readonly string[] | Promise<readonly string[]>;
  /**
   * Where the default check's verdicts are kept between runs (the listing cache in the user-data
   * folder, main/library/listing-cache.ts); none: kept in memory only, for rebuilds.
   */
  keep?: CheckMemoStore;
  /** The roots as a worker has already walked and read them, for the first build only (see BuildOptions.readAhead). */
  readAhead?: BuildOptions['readAhead'];
}

/** What keeps verdicts between runs: the listing cache's `loadKept`/`keep`. */
export interface CheckMemoStore {
  loadKept(kind: string, key: string): Promise<unknown>;
  keep(kind: string, key: string, value: unknown): void;
}

/** The kind of kept findings the server's checks are stored as. */
const MEMO_KIND = 'serve-checks';

/** Events of {@link LiveCatalog}. */
export interface LiveCatalogEvents {
  changed: [CatalogChange];
  error: [Error];
}

/** Compare two snapshots. */
export function diffSnapshots(previous: CatalogSnapshot, current: CatalogSnapshot): CatalogChange {
  const addedSkills: string[] = [];
  const removedSkills: string[] = [];
  const changedSkills: string[] = [];
  for (const s of current.skills) {
    const old = previous.bySkillUri.get(s.uri);
    if (!old) addedSkills.push(s.uri);
    else if (JSON.stringify(old.entry) !== JSON.stringify(s.entry)) changedSkills.push(s.uri);
  }
  for (const s of previous.skills) if (!current.bySkillUri.has(s.uri)) removedSkills.push(s.uri);
  const changedFiles: string[] = [];
  let filesAddedOrRemoved = false;
  for (const [uri, t] of previous.targets) {
    const now = current.targets.get(uri);
    if (t.kind !== 'file') {
      if (!now) filesAddedOrRemoved = true;
      continue;
    }
    if (!now || now.kind !== 'file') {
      changedFiles.push(uri);
      filesAddedOrRemoved = true;
    } else if (now.file.digest !== t.file.digest) changedFiles.push(uri);
  }
  for (const uri of current.targets.keys())
    if (!previous.targets.has(uri)) filesAddedOrRemoved = true;
  const excludedBefore = new Set(previous.excluded.map(excludedKey));
  const newlyExcluded = current.excluded.filter((e) => !excludedBefore.has(excludedKey(e)));
  const excludedChanged =
    newlyExcluded.length > 0 || previous.excluded.length !== current.excluded.length;
  // A name or description change alters the SKILL.md resource's listed metadata too.
  const metaChanged = current.skills.some((s) => {
    const old = previous.bySkillUri.get(s.uri);
    return old !== undefined && (old.name !== s.name || old.description !== s.description);
  });
  return {
    previous,
    current,
    addedSkills,
    removedSkills,
    changedSkills,
    changedFiles,
    listChanged:
      addedSkills.length > 0 || removedSkills.length > 0 || filesAddedOrRemoved || metaChanged,
    newlyExcluded,
    excludedChanged,
  };
}

/** Whether nothing is at `path` any more (not an unreadable folder: that says its own reason). */
function isGone(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

/** One left-out skill and why, for telling a new exclusion from one already reported. */
function excludedKey(e: ExcludedSkill): string {
  return JSON.stringify([e.dir, e.reasons]);
}

/** The catalog the servers read from; emits `changed` after each rebuild that changed something. */
export class LiveCatalog extends EventEmitter<LiveCatalogEvents> {
  #roots: string[];
  #options: LiveCatalogOptions;
  #current: CatalogSnapshot | undefined;
  #cache: FileCache = new Map();
  #memo: CheckMemo = {
    entries: new Map(),
    used: new Set(),
    added: false,
    reviews: { entries: new Map(), used: new Set(), added: false },
  };
  #memoLoaded = false;
  /** The watcher of the roots and of linked skill folders outside them, while watching. */
  #watch: FolderWatch | undefined;
  /** Until the watches are set up after the first build (see {@link LiveCatalog.load}). */
  #watchTimer: NodeJS.Timeout | undefined;
  /** The last rebuild's failure, when it failed (the previous snapshot is still served). */
  lastError: Error | undefined;
  #building: Promise<CatalogSnapshot> | undefined;
  #again = false;
  #version = 0;
  #closed = false;
  /** Roots that were read while served and are gone now (moved or deleted), until they come back. */
  #vanished = new Set<string>();

  /** A catalog over these library roots; call {@link LiveCatalog.load} before use. */
  constructor(roots: readonly string[], options: LiveCatalogOptions = {}) {
    super();
    this.#roots = [...roots];
    this.#options = options;
  }

  /** The snapshot requests answer from. Throws before {@link LiveCatalog.load}. */
  get current(): CatalogSnapshot {
    if (!this.#current) throw new Error('The catalog has not been loaded yet.');
    return this.#current;
  }

  /** The library roots served. */
  get roots(): readonly string[] {
    return this.#roots;
  }

  /** Build the first snapshot and start watching. */
  async load(): Promise<CatalogSnapshot> {
    const snap = await this.rebuild();
    if (this.#options.watch !== false) {
      // Why later: setting up the watches lists every folder of the library on this thread (tens
      // of ms per 1,000 skills); the first answers go first. Why a rebuild once they are set up:
      // whatever changed between the first build and the watches is caught then (the file cache
      // makes it a walk that reads only what changed).
      const after = this.#options.watchAfterMs ?? 250;
      this.#watchTimer = setTimeout(() => {
        this.#watchTimer = undefined;
        if (this.#closed) return;
        this.#startWatching();
        void this.#watch?.ready().then(() => this.#rebuildAfterChange());
      }, after);
      this.#watchTimer.unref?.();
    }
    return snap;
  }

  /** Rebuild now (overlapping calls coalesce: one more build runs after the current one). */
  async rebuild(): Promise<CatalogSnapshot> {
    if (this.#building) {
      this.#again = true;
      return this.#building;
    }
    this.#building = (async () => {
      let snap: CatalogSnapshot;
      // Why in parallel: the agents' folders and the kept verdicts are both read from disk.
      const [linkRoots] = await Promise.all([this.#options.linkRoots?.(), this.#loadMemo()]);
      let first = true;
      do {
        this.#again = false;
        snap = await buildSnapshot(this.#roots, {
          check: this.#options.check,
          cache: this.#cache,
          memo: this.#memo,
          version: ++this.#version,
          linkRoots: (first ? linkRoots : await this.#options.linkRoots?.()) ?? [],
          readAhead: this.#takeReadAhead(),
        });
        first = false;
        const previous = this.#current;
        this.#sayVanished(snap, previous);
        this.#current = snap;
        this.#pruneCache(snap);
        this.#keepMemo();
        if (previous) {
          const change = diffSnapshots(previous, snap);
          if (
            change.listChanged ||
            change.changedFiles.length > 0 ||
            change.changedSkills.length > 0 ||
            change.excludedChanged
          )
            this.emit('changed', change);
        }
      } while (this.#again && !this.#closed);
      return snap;
    })();
    try {
      return await this.#building;
    } finally {
      this.#building = undefined;
    }
  }

  /** Serve other roots from now on. */
  async setRoots(roots: readonly string[]): Promise<CatalogSnapshot> {
    this.#roots = [...roots];
    if (this.#watch) {
      this.#stopWatching();
      this.#startWatching();
    }
    return this.rebuild();
  }

  /**
   * Replace "Nothing exists at …" for a root that was there while served by what happened and
   * what is served now. Why: the person serving it did not mistype anything; the folder was
   * moved or deleted under the server (`mv LIB LIB.old`), and its skills went with it.
   */
  #sayVanished(snap: CatalogSnapshot, previous: CatalogSnapshot | undefined): void {
    for (const e of snap.excluded) {
      if (e.relativeDir !== '' || e.dir !== e.root) continue;
      const wasServed =
        this.#vanished.has(e.root) ||
        (previous !== undefined &&
          previous.roots.includes(e.root) &&
          !previous.excluded.some(
            (p) => p.relativeDir === '' && p.dir === p.root && p.root === e.root,
          ));
      if (!wasServed || !isGone(e.root)) continue;
      this.#vanished.add(e.root);
      const others =
        snap.roots.length > 1 ? '; the skills of the other library folders still are' : '';
      const back =
        this.#options.watch === false ? '' : ' Put it back at this path to serve them again.';
      e.reasons = [
        `The library folder ${e.root} was moved or deleted while it was being served, so its skills are no longer served${others}.${back}`,
      ];
    }
    for (const root of this.#vanished) if (!isGone(root)) this.#vanished.delete(root);
  }

  /** Stop watching; the last snapshot stays readable. */
  close(): void {
    this.#closed = true;
    if (this.#watchTimer) clearTimeout(this.#watchTimer);
    this.#stopWatching();
  }

  /** The read-ahead, once: a later build reads the folders as they are then. */
  #takeReadAhead(): BuildOptions['readAhead'] {
    const ahead = this.#options.readAhead;
    this.#options = { ...this.#options, readAhead: undefined };
    return ahead;
  }

  /** Key of the kept verdicts: the roots served, in order. */
  #memoKey(): string {
    return JSON.stringify(this.#roots);
  }

  /** Whether the check's verdicts are the memo's: the default check, alone or under a gate. */
  #memoizable(): boolean {
    const check = this.#options.check;
    return check === undefined || (check.stages?.base ?? check) === mcpServeCheck;
  }

  async #loadMemo(): Promise<void> {
    if (this.#memoLoaded || !this.#options.keep || !this.#memoizable()) return;
    this.#memoLoaded = true;
    const kept = (await this.#options.keep.loadKept(MEMO_KIND, this.#memoKey())) as Partial<
      Record<'checks' | 'reviews', unknown>
    > | null;
    if (kept?.checks instanceof Map)
      for (const [key, value] of kept.checks as Map<string, CheckMemoEntry>)
        if (!this.#memo.entries.has(key)) this.#memo.entries.set(key, value);
    const reviews = this.#memo.reviews;
    if (reviews)
      for (const [key, value] of keptReviewsFrom(kept?.reviews))
        if (!reviews.entries.has(key)) reviews.entries.set(key, value);
  }

  /** Drop verdicts and reviews the last build did not use, and keep the rest on disk when something changed. */
  #keepMemo(): void {
    const memo = this.#memo;
    const reviews = memo.reviews;
    let changed = memo.added || memo.entries.size > memo.used.size;
    for (const key of memo.entries.keys()) if (!memo.used.has(key)) memo.entries.delete(key);
    if (reviews && settleReviewMemo(reviews)) changed = true;
    if (changed && this.#options.keep && this.#memoizable())
      this.#options.keep.keep(MEMO_KIND, this.#memoKey(), {
        checks: memo.entries,
        reviews: reviews?.entries ?? new Map(),
      });
    memo.used = new Set();
    memo.added = false;
  }

  /** Forget files the last build did not read (it marks each file it reads with its version). */
  #pruneCache(snap: CatalogSnapshot): void {
    for (const [key, entry] of this.#cache)
      if (entry.seen !== snap.version) this.#cache.delete(key);
  }

  /** Rebuild after a change on disk; a failure keeps the last snapshot served. */
  #rebuildAfterChange(): void {
    if (this.#closed) return;
    this.rebuild().then(
      () => {
        this.lastError = undefined;
        // Why: the rebuild may serve linked skill folders outside the roots, to be watched too.
        this.#watch?.look();
      },
      (e: unknown) => {
        // Why never an unhandled 'error': a failed rebuild keeps the last snapshot served; only
        // a listener that asked hears about it (an EventEmitter 'error' without one ends the process).
        this.lastError = e instanceof Error ? e : new Error(String(e));
        if (this.listenerCount('error') > 0) this.emit('error', this.lastError);
      },
    );
  }

  /**
   * The folders to watch: the roots, and the real folders of served linked skills that lie
   * outside every root (an edit there changes what is served too).
   */
  #watchTargets(): string[] {
    const targets = new Set(this.#roots);
    for (const s of this.#current?.skills ?? [])
      if (!this.#roots.some((r) => isInside(resolve(r), s.dir))) targets.add(s.dir);
    return [...targets];
  }

  #startWatching(): void {
    this.#watch = new FolderWatch({
      folders: () => this.#watchTargets(),
      ignore: notASkillChange,
      onChange: () => this.#rebuildAfterChange(),
      ...(this.#options.debounceMs !== undefined ? { quietMs: this.#options.debounceMs } : {}),
      ...(this.#options.maxWaitMs !== undefined ? { maxWaitMs: this.#options.maxWaitMs } : {}),
      ...(this.#options.recheckMs !== undefined ? { lookMs: this.#options.recheckMs } : {}),
    });
    this.#watch.start();
  }

  #stopWatching(): void {
    this.#watch?.close();
    this.#watch = undefined;
  }
}
