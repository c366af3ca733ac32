import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { LibraryMemo } from '../validate';
import { writeFileAtomic } from '../platform/atomic-write';

/** Bump when the cached shape changes. */
const FORMAT = 1;

/** How long after a listing changed the findings are written (several listings in a row write once). */
const SAVE_DELAY_MS = 1000;

/** What a cache file holds. */
interface CacheFile {
  format: number;
  build: string;
  root: string;
  key: string;
  units: LibraryMemo['units'];
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
      const memo = new LibraryMemo();
      memo.root = root;
      memo.key = data.key;
      memo.units = data.units;
      return memo;
    } catch {
      // Why silent: no cache, a damaged one or one from another Node version only means a full check.
      return null;
    }
  }

  /** Write `memo` for `root` a moment from now (the latest memo wins). */
  save(root: string, memo: LibraryMemo): void {
    this.pending.set(root, memo);
    if (this.timers.has(root)) return;
    const timer = setTimeout(() => void this.write(root), SAVE_DELAY_MS);
    // Why unref: a pending cache write must not keep a CLI run or a test alive.
    timer.unref();
    this.timers.set(root, timer);
  }

  /** Write every pending memo now. */
  async flush(): Promise<void> {
    await Promise.all([...this.timers.keys()].map((root) => this.write(root)));
  }

  /** Forget pending writes (the app is closing; the cache is only an aid). */
  cancel(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
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
    } catch {
      // Why ignored: a full user-data disk must not break the listing; the next start checks everything.
    }
  }
}
