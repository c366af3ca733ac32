import { createHash } from 'node:crypto';
import { lstat, lutimes, mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { LibraryMemo } from '../validate';
import { writeFileAtomic } from '../platform/atomic-write';
import { mapLimit } from '../platform/concurrency';

/**
 * The build whose findings are kept: a fresh id per build (scripts/build.mjs writes it in), or
 * 'source' when the code runs from source (tests), whose rules may change from run to run.
 */
export const BUILD_ID = process.env.SKILLBENCH_BUILD ?? 'source';

/** This build's cache in the user-data folder; none when running from source (see BUILD_ID). */
export function buildCache(userDataDir: string): ListingCache | undefined {
  return BUILD_ID === 'source'
    ? undefined
    : new ListingCache(join(userDataDir, 'cache', 'listings'), BUILD_ID);
}

/** Bump when the cached shape changes. */
const FORMAT = 1;

/** How long after a listing changed the findings are written (several listings in a row write once). */
const SAVE_DELAY_MS = 1000;

/**
 * Most files the cache folder keeps; past it, the least recently used go. Why a bound: every
 * library folder checked gets a file of its own (`skillbench validate` in a new temporary checkout
 * on every CI run would otherwise add one each time, for ever).
 */
export const MAX_CACHE_FILES = 64;

/** The names this cache writes: a listing (`<24 hex>.bin`) or another owner's findings (`<kind>-<24 hex>.bin`). */
const OWN_FILE = /^(?:[a-z][a-z0-9-]*-)?[0-9a-f]{24}\.bin$/;

/** What a cache file holds. */
interface CacheFile {
  format: number;
  build: string;
  root: string;
  key: string;
  units: LibraryMemo['units'];
}

/** What a file of another owner's kept findings holds (see ListingCache.keep). */
interface KeptFile {
  format: number;
  build: string;
  key: string;
  value: unknown;
}

/**
 * The last listing's findings per library root, kept in the user-data folder so a restart finds
 * them (see LibraryMemo: only folders that changed since are checked again). Why a cache on
 * disk: checking a 5,000-skill library from nothing takes seconds on a small machine, and most
 * starts find the library as it was. Entries are tied to the build that made them (a new
 * version may check differently), written atomically, and anything unreadable is ignored.
 */
export class ListingCache {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly pending = new Map<string, LibraryMemo>();
  private readonly keptTimers = new Map<string, NodeJS.Timeout>();
  private readonly keptPending = new Map<string, { key: string; value: unknown }>();
  /** Writes under way, so {@link close} can wait for them. */
  private readonly writing = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly dir: string,
    /** Identifies the code that made the findings; another build's cache is not used. */
    private readonly build: string,
  ) {}

  private fileOf(root: string): string {
    return join(this.dir, `${createHash('sha256').update(root).digest('hex').slice(0, 24)}.bin`);
  }

  /** The memo kept for `root`, or null when there is none usable. */
  async load(root: string): Promise<LibraryMemo | null> {
    try {
      const data = deserialize(await readFile(this.fileOf(root))) as Partial<CacheFile>;
      if (
        data.format !== FORMAT ||
        data.build !== this.build ||
        data.root !== root ||
        typeof data.key !== 'string' ||
        !(data.units instanceof Map)
      )
        return null;
      // Why loaded here: the server keeps its checks in this cache too and never needs validation's memo.
      const { LibraryMemo } = await import('../validate');
      const memo = new LibraryMemo();
      memo.root = root;
      memo.key = data.key;
      memo.units = data.units;
      await this.used(this.fileOf(root));
      return memo;
    } catch {
      // Why silent: no cache, a damaged one or one from another Node version only means a full check.
      return null;
    }
  }

  /** Write `memo` for `root` a moment from now (the latest memo wins). */
  save(root: string, memo: LibraryMemo): void {
    if (this.closed) return;
    this.pending.set(root, memo);
    if (this.timers.has(root)) return;
    const timer = setTimeout(() => this.track(this.write(root)), SAVE_DELAY_MS);
    // Why unref: a pending cache write must not keep a CLI run or a test alive.
    timer.unref();
    this.timers.set(root, timer);
  }

  /** Write every pending memo now. */
  async flush(): Promise<void> {
    await Promise.all([
      ...[...this.timers.keys()].map((root) => this.write(root)),
      ...[...this.keptTimers.keys()].map((file) => this.writeKept(file)),
    ]);
  }

  /**
   * Write what is pending, wait for writes under way, and write nothing after: the app is closing
   * (work still finishing in the background must not write into a folder the user may remove).
   */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await Promise.all([...this.writing]);
  }

  private track(write: Promise<void>): void {
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
  }

  /** Forget pending writes (the app is closing; the cache is only an aid). */
  cancel(): void {
    for (const timer of [...this.timers.values(), ...this.keptTimers.values()]) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
    this.keptTimers.clear();
    this.keptPending.clear();
  }

  private keptFile(kind: string, key: string): string {
    const id = createHash('sha256').update(`${kind}\n${key}`).digest('hex').slice(0, 24);
    return join(this.dir, `${kind}-${id}.bin`);
  }

  /**
   * What another owner's findings kept for `key` (the embedded server's skill checks for a set of
   * roots), under the same rules as the listings': this build's only, anything unreadable is null.
   */
  async loadKept(kind: string, key: string): Promise<unknown> {
    try {
      const data = deserialize(await readFile(this.keptFile(kind, key))) as Partial<KeptFile>;
      if (data.format !== FORMAT || data.build !== this.build || data.key !== key) return null;
      await this.used(this.keptFile(kind, key));
      return data.value ?? null;
    } catch {
      // Why silent: no cache or a damaged one only means the work is done again.
      return null;
    }
  }

  /** Keep `value` for `key` a moment from now (the latest wins), as {@link save} does. */
  keep(kind: string, key: string, value: unknown): void {
    if (this.closed) return;
    const file = this.keptFile(kind, key);
    this.keptPending.set(file, { key, value });
    if (this.keptTimers.has(file)) return;
    const timer = setTimeout(() => this.track(this.writeKept(file)), SAVE_DELAY_MS);
    timer.unref();
    this.keptTimers.set(file, timer);
  }

  private async writeKept(file: string): Promise<void> {
    const timer = this.keptTimers.get(file);
    if (timer) clearTimeout(timer);
    this.keptTimers.delete(file);
    const pending = this.keptPending.get(file);
    this.keptPending.delete(file);
    if (!pending) return;
    const data: KeptFile = { format: FORMAT, build: this.build, ...pending };
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(file, serialize(data));
      await this.prune();
    } catch {
      // Why ignored: as for listings, a failed write only means the work is done again next time.
    }
  }

  private async write(root: string): Promise<void> {
    const timer = this.timers.get(root);
    if (timer) clearTimeout(timer);
    this.timers.delete(root);
    const memo = this.pending.get(root);
    this.pending.delete(root);
    if (!memo || memo.root !== root) return;
    const data: CacheFile = {
      format: FORMAT,
      build: this.build,
      root,
      key: memo.key,
      units: memo.units,
    };
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.fileOf(root), serialize(data));
      await this.prune();
    } catch {
      // Why ignored: a full user-data disk must not break the listing; the next start checks everything.
    }
  }

  /**
   * Mark a file as used now, so pruning keeps it over files not used for longer. Why `lutimes`:
   * a link put in the folder under a cache file's name has its own time set, never its target's.
   */
  private async used(file: string): Promise<void> {
    const now = new Date();
    // Why a failure is ignored: it only makes the file look older to pruning.
    await lutimes(file, now, now).catch(() => undefined);
  }

  /**
   * Keep at most {@link MAX_CACHE_FILES} files, the most recently used (written or read). Only
   * this cache's own names are looked at; anything else in the folder is left alone.
   */
  private async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => OWN_FILE.test(n));
    if (names.length <= MAX_CACHE_FILES) return;
    // Why a few at a time: a folder flooded with files must not queue one system call per file at once.
    const dated = await mapLimit(names, 16, async (name) => {
      const file = join(this.dir, name);
      try {
        // Why lstat: a link is dated and removed as itself; what it points to is never touched.
        return { file, time: (await lstat(file)).mtimeMs };
      } catch {
        return { file, time: -1 };
      }
    });
    dated.sort((a, b) => b.time - a.time);
    for (const { file } of dated.slice(MAX_CACHE_FILES)) await unlink(file).catch(() => undefined);
  }
}
