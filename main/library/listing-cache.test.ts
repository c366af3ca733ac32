/**
 * The listing cache when the app closes: what is pending is written, and work still finishing in
 * the background writes nothing after (the user-data folder may be removed at once). Real files.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryMemo } from '../validate';
import { tempDir } from '../testing/skill-library';
import { ListingCache } from './listing-cache';

describe('ListingCache.close', () => {
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
