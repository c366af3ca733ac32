/**
 * The listing cache on disk: when the app closes, what is pending is written and work still
 * finishing in the background writes nothing after (the user-data folder may be removed at once);
 * the folder keeps a bounded number of files. Real files.
 */
import {
  lstat,
  lutimes,
  readdir,
  rename,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryMemo } from '../validate';
import { tempDir } from '../testing/skill-library';
import { ListingCache, MAX_CACHE_FILES } from './listing-cache';

let data: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  data = await tempDir('skillbench-listing-cache-');
});
afterEach(async () => {
  await data.remove();
});

function memoFor(root: string): LibraryMemo {
  const memo = new LibraryMemo();
  memo.root = root;
  memo.key = 'k';
  return memo;
}

describe('ListingCache.close', () => {
  it('writes what is pending, then nothing after', async () => {
    const dir = join(data.path, 'listings');
    const cache = new ListingCache(dir, 'b1');
    cache.save('/lib/a', memoFor('/lib/a'));
    cache.keep('serve-checks', 'k', new Map([['x', 1]]));
    await cache.close();
    const written = (await readdir(dir)).sort();
    expect(written).toHaveLength(2);
    expect(await cache.load('/lib/a')).not.toBeNull();
    // Background work finishing after the close: nothing more is written.
    cache.save('/lib/b', memoFor('/lib/b'));
    cache.keep('serve-checks', 'other', new Map());
    await cache.flush();
    expect((await readdir(dir)).sort()).toEqual(written);
  });
});

describe('ListingCache keeps a bounded number of files', () => {
  it('drops the least recently used past the bound, keeps one just read, and leaves other files alone', async () => {
    const dir = join(data.path, 'listings');
    const cache = new ListingCache(dir, 'b1');
    /** Cache file name → the library root it was written for. */
    const named = new Map<string, string>();
    // The cache full: a library checked long ago, and others checked since, a day apart.
    for (let i = 0; i < MAX_CACHE_FILES; i++) {
      const root = i === 0 ? '/lib/old-but-used' : `/lib/${i}`;
      cache.save(root, memoFor(root));
      await cache.flush();
      const [name] = (await readdir(dir)).filter((n) => !named.has(n));
      named.set(name, root);
    }
    await writeFile(join(dir, 'notes.txt'), 'mine');
    for (const [name, root] of named) {
      const when =
        root === '/lib/old-but-used'
          ? Date.UTC(2024, 0, 1)
          : Date.UTC(2025, 0, 1) + Number(root.slice(5)) * 86_400_000;
      await utimes(join(dir, name), new Date(when), new Date(when));
    }
    // The library checked long ago is read again: it counts as just used.
    const oldName = [...named].find(([, root]) => root === '/lib/old-but-used')?.[0] as string;
    expect(await cache.load('/lib/old-but-used')).not.toBeNull();
    expect((await stat(join(dir, oldName))).mtimeMs).toBeGreaterThan(Date.UTC(2025, 0, 1));
    // Five more libraries checked: five files have to go.
    for (let i = 0; i < 5; i++) {
      cache.save(`/lib/new-${i}`, memoFor(`/lib/new-${i}`));
      await cache.flush();
    }
    await cache.close();

    const after = await readdir(dir);
    expect(after).toContain('notes.txt');
    expect(after).toContain(oldName);
    expect(after.filter((n) => n !== 'notes.txt')).toHaveLength(MAX_CACHE_FILES);
    // What went are the five least recently used: the libraries checked first after the old one.
    const gone = [...named.keys()].filter((n) => !after.includes(n));
    expect(gone.map((n) => named.get(n)).sort()).toEqual(
      ['/lib/1', '/lib/2', '/lib/3', '/lib/4', '/lib/5'].sort(),
    );
  });

  it('dates and removes a link under a cache file name as itself, never touching its target, and empties a flooded folder', async () => {
    const dir = join(data.path, 'listings');
    const outside = join(data.path, 'outside.bin');
    const cache = new ListingCache(dir, 'b1');
    // A real cache file for one library, moved outside and linked back under its own name.
    cache.save('/lib/linked', memoFor('/lib/linked'));
    await cache.flush();
    const [name] = await readdir(dir);
    await rename(join(dir, name), outside);
    await symlink(outside, join(dir, name));
    const longAgo = new Date(Date.UTC(2024, 0, 1));
    await utimes(outside, longAgo, longAgo);
    await lutimes(join(dir, name), longAgo, longAgo);
    // Reading through the link marks the link as used, not the file it points to.
    expect(await cache.load('/lib/linked')).not.toBeNull();
    expect((await stat(outside)).mtimeMs).toBe(longAgo.getTime());
    expect((await lstat(join(dir, name))).mtimeMs).toBeGreaterThan(longAgo.getTime());
    // A flood of files named like cache files, all newer than the link: the link goes as itself.
    await lutimes(join(dir, name), longAgo, longAgo);
    const flood = 2_000;
    for (let i = 0; i < flood; i++)
      await writeFile(join(dir, `${i.toString(16).padStart(24, '0')}.bin`), 'x');
    cache.save('/lib/new', memoFor('/lib/new'));
    await cache.close();
    const after = await readdir(dir);
    expect(after).toHaveLength(MAX_CACHE_FILES);
    expect(after).not.toContain(name);
    expect((await stat(outside)).size).toBeGreaterThan(0);
    expect((await stat(outside)).mtimeMs).toBe(longAgo.getTime());
  });
});
