import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { versionOfFile } from './versions';

/** Called with the file's new fingerprint, or null when it was deleted. */
export type FileChangeListener = (path: string, version: string | null) => void;

/**
 * Watches open files for edits made outside Skillbench. It watches each file's folder, not the
 * file, because editors save by writing a new file and renaming it over the old one (which a
 * watch on the old inode would miss). Only real content changes are reported.
 */
export class FileWatcher {
  private readonly watched = new Map<
    string,
    { watcher: FSWatcher; version: string | null; timer?: NodeJS.Timeout }
  >();

  constructor(
    private readonly onChange: FileChangeListener,
    private readonly debounceMs = 120,
  ) {}

  /** Start watching `path`, whose current fingerprint is `version`. */
  watch(path: string, version: string | null): void {
    const existing = this.watched.get(path);
    if (existing) {
      existing.version = version;
      return;
    }
    const name = basename(path);
    let watcher: FSWatcher;
    try {
      watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        this.schedule(path);
      });
    } catch {
      return; // Why: a folder that cannot be watched only loses live reload, never data.
    }
    watcher.on('error', () => undefined);
    this.watched.set(path, { watcher, version });
  }

  /** Record that Skillbench itself wrote `version`, so its own save is not reported back. */
  acknowledge(path: string, version: string): void {
    const entry = this.watched.get(path);
    if (entry) entry.version = version;
  }

  /** Stop watching `path`. */
  unwatch(path: string): void {
    const entry = this.watched.get(path);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.watcher.close();
    this.watched.delete(path);
  }

  /** Stop everything. */
  close(): void {
    for (const path of [...this.watched.keys()]) this.unwatch(path);
  }

  private schedule(path: string): void {
    const entry = this.watched.get(path);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.check(path), this.debounceMs);
  }

  private async check(path: string): Promise<void> {
    const entry = this.watched.get(path);
    if (!entry) return;
    let version: string | null;
    try {
      version = await versionOfFile(path);
    } catch {
      version = null;
    }
    if (version === entry.version) return;
    entry.version = version;
    this.onChange(path, version);
  }
}
