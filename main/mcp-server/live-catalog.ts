/**
 * The live catalog: the current snapshot plus a watcher that rebuilds it when files change
 * (debounced), swapping the new snapshot in at once. Requests read `current` when they start and
 * keep that snapshot to the end, so a rebuild never blocks or tears a request (issue 5 point 1).
 */
import { EventEmitter } from 'node:events';
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { buildSnapshot } from './catalog';
import type { CatalogSnapshot, FileCache } from './catalog';
import type { SkillCheck } from './skill-check';

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
}

/** Options for {@link LiveCatalog}. */
export interface LiveCatalogOptions {
  check?: SkillCheck;
  /** Watch the roots and rebuild on changes. Default true. */
  watch?: boolean;
  /** Quiet time before a rebuild, in ms. Default 150. */
  debounceMs?: number;
}

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
  };
}

/** The catalog the servers read from; emits `changed` after each rebuild that changed something. */
export class LiveCatalog extends EventEmitter<LiveCatalogEvents> {
  #roots: string[];
  #options: LiveCatalogOptions;
  #current: CatalogSnapshot | undefined;
  #cache: FileCache = new Map();
  #watchers: FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;
  #building: Promise<CatalogSnapshot> | undefined;
  #again = false;
  #version = 0;
  #closed = false;

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
    if (this.#options.watch !== false) this.#startWatching();
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
      do {
        this.#again = false;
        snap = await buildSnapshot(this.#roots, {
          check: this.#options.check,
          cache: this.#cache,
          version: ++this.#version,
        });
        const previous = this.#current;
        this.#current = snap;
        this.#pruneCache(snap);
        if (previous) {
          const change = diffSnapshots(previous, snap);
          if (
            change.listChanged ||
            change.changedFiles.length > 0 ||
            change.changedSkills.length > 0
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
    if (this.#watchers.length > 0) {
      this.#stopWatching();
      this.#startWatching();
    }
    return this.rebuild();
  }

  /** Stop watching; the last snapshot stays readable. */
  close(): void {
    this.#closed = true;
    this.#stopWatching();
    if (this.#timer) clearTimeout(this.#timer);
  }

  #pruneCache(snap: CatalogSnapshot): void {
    const live = new Set<string>();
    for (const s of snap.skills)
      for (const f of s.files) live.add(join(s.dir, ...f.relPath.split('/')));
    for (const key of this.#cache.keys()) if (!live.has(key)) this.#cache.delete(key);
  }

  #schedule(): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.rebuild().catch((e: unknown) =>
        this.emit('error', e instanceof Error ? e : new Error(String(e))),
      );
    }, this.#options.debounceMs ?? 150);
  }

  #startWatching(): void {
    for (const root of this.#roots) {
      try {
        // Why recursive: skills nest at any depth; Node ≥ 20 supports it on Linux, macOS and Windows.
        const w = watch(root, { recursive: true, persistent: false }, () => this.#schedule());
        w.on('error', () => this.#schedule());
        this.#watchers.push(w);
      } catch {
        // A root that cannot be watched is still served; it just does not refresh by itself.
      }
    }
  }

  #stopWatching(): void {
    for (const w of this.#watchers) w.close();
    this.#watchers = [];
  }
}
