import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot, type FileCache } from './catalog';
import { LiveCatalog, type CatalogChange } from './live-catalog';
import { skillMd, tempDir, writeTree } from '../testing/skill-library';

// Faults a served library meets in real life: odd folder names, a library folder deleted and
// made again, files changed while they are read or faster than the quiet period. The server
// must stay up, say what it does not serve, and catch up with the disk.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function library(files: Record<string, string>): Promise<string> {
  const lib = await tempDir('sb-faults-');
  cleanups.push(() => lib.remove());
  await writeTree(lib.path, files);
  return lib.path;
}

/** Resolve with the next `changed` event that satisfies `done`. */
function changeWhere(
  catalog: LiveCatalog,
  done: (c: CatalogChange) => boolean,
): Promise<CatalogChange> {
  return new Promise((resolve) => {
    const on = (c: CatalogChange): void => {
      if (!done(c)) return;
      catalog.off('changed', on);
      resolve(c);
    };
    catalog.on('changed', on);
  });
}

const ALPHA = { 'alpha/SKILL.md': skillMd('name: alpha\ndescription: The first skill.') };

describe('a library folder that is not there', () => {
  it('is listed as not served with a sentence a person can act on, not an error code', async () => {
    const root = join(await library(ALPHA), 'no-such-library');
    const snap = await buildSnapshot([root]);
    expect(snap.skills).toEqual([]);
    expect(snap.excluded.map((e) => e.reasons)).toEqual([
      [`Nothing exists at ${root}. Check the spelling.`],
    ]);
  });
});

describe('the catalog never falls over on a folder name', () => {
  it.each([['bad\\dir'], ['line\nbreak'], ['tab\there']])(
    'a folder named %j inside a skill excludes that skill with the reason, and serves the others',
    async (odd) => {
      const root = await library({
        ...ALPHA,
        'beta/SKILL.md': skillMd('name: beta\ndescription: The second skill.'),
      });
      await mkdir(join(root, 'beta', odd));
      const snap = await buildSnapshot([root]);
      expect(snap.skills.map((s) => s.name)).toEqual(['alpha']);
      const beta = snap.excluded.find((e) => e.relativeDir === 'beta');
      expect(beta?.reasons.join(' ')).toContain('cannot appear in a skill:// address');
    },
  );

  it('a running catalog that meets one keeps serving and reports the change, no error thrown', async () => {
    const root = await library(ALPHA);
    const catalog = new LiveCatalog([root], { debounceMs: 20 });
    cleanups.push(() => catalog.close());
    await catalog.load();
    const excluded = changeWhere(catalog, (c) => c.removedSkills.length > 0);
    await mkdir(join(root, 'alpha', 'bad\\dir'));
    await excluded;
    expect(catalog.current.skills).toEqual([]);
    expect(catalog.current.excluded[0]?.reasons.join(' ')).toContain('bad\\\\dir');
    await rm(join(root, 'alpha', 'bad\\dir'), { recursive: true });
    await changeWhere(catalog, (c) => c.addedSkills.length > 0);
    expect(catalog.current.skills.map((s) => s.name)).toEqual(['alpha']);
  });
});

describe('the catalog catches up with the disk', () => {
  it('a library folder deleted and made again is served again, without a restart', async () => {
    const root = await library(ALPHA);
    const catalog = new LiveCatalog([root], { debounceMs: 20, recheckMs: 20 });
    cleanups.push(() => catalog.close());
    await catalog.load();
    const gone = changeWhere(catalog, (c) => c.removedSkills.length > 0);
    await rename(root, `${root}-moved`);
    cleanups.push(() => rm(`${root}-moved`, { recursive: true, force: true }));
    await gone;
    const back = changeWhere(catalog, (c) => c.addedSkills.length > 0);
    await writeTree(root, { 'gamma/SKILL.md': skillMd('name: gamma\ndescription: Came back.') });
    await back;
    expect(catalog.current.skills.map((s) => s.name)).toEqual(['gamma']);
  });

  it('a library folder that is a link, pointed at another folder while served, serves the other folder (no event tells of it)', async () => {
    // Why a link: pointing it elsewhere changes nothing inside either folder, so no watcher event
    // comes; only the steady look at each folder's identity sees it. The same look catches a folder
    // renamed away before its recursive watcher was set up.
    const first = await library(ALPHA);
    const second = await library({ 'gamma/SKILL.md': skillMd('name: gamma\ndescription: Other.') });
    const holder = await tempDir('sb-faults-link-');
    cleanups.push(() => holder.remove());
    const root = join(holder.path, 'LIB');
    await symlink(first, root);
    const catalog = new LiveCatalog([root], { debounceMs: 20, recheckMs: 20 });
    cleanups.push(() => catalog.close());
    await catalog.load();
    expect(catalog.current.skills.map((s) => s.name)).toEqual(['alpha']);
    const moved = changeWhere(catalog, (c) => c.addedSkills.length > 0);
    await symlink(second, `${root}.next`);
    await rename(`${root}.next`, root);
    await moved;
    expect(catalog.current.skills.map((s) => s.name)).toEqual(['gamma']);
    const gone = changeWhere(catalog, (c) => c.removedSkills.length > 0);
    await rm(root);
    await gone;
    expect(catalog.current.skills).toEqual([]);
    expect(catalog.current.excluded[0]?.reasons.join(' ')).toContain(
      'was moved or deleted while it was being served',
    );
  });

  it('a skill added right after the first build, before the watches are set up, is served once they are', async () => {
    const root = await library(ALPHA);
    const catalog = new LiveCatalog([root], { debounceMs: 20, recheckMs: 20, watchAfterMs: 50 });
    cleanups.push(() => catalog.close());
    await catalog.load();
    const added = changeWhere(catalog, (c) => c.addedSkills.length > 0);
    // Why no event can tell of it: the watches do not exist yet; only the rebuild made once they are.
    await writeTree(root, { 'gamma/SKILL.md': skillMd('name: gamma\ndescription: Early.') });
    await added;
    expect(catalog.current.skills.map((s) => s.name)).toEqual(['alpha', 'gamma']);
  });

  it('writes that never pause still bring a rebuild (the quiet period has a longest wait)', async () => {
    const root = await library(ALPHA);
    // Why a quiet period of a minute: only the longest wait can trigger the rebuild here.
    const catalog = new LiveCatalog([root], { debounceMs: 60_000, maxWaitMs: 50 });
    cleanups.push(() => catalog.close());
    await catalog.load();
    let rebuilt = false;
    const changed = changeWhere(catalog, () => true).then(() => (rebuilt = true));
    let writes = 0;
    while (!rebuilt && writes < 10_000) {
      await writeFile(join(root, 'alpha', 'notes.md'), `edit ${writes++}\n`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await changed;
    expect(rebuilt).toBe(true);
    expect(catalog.current.skills[0]?.files.map((f) => f.relPath)).toContain('notes.md');
  });

  it('a cached file is used only while its size, times and inode all match what is on disk', async () => {
    const root = await library({ ...ALPHA, 'alpha/guide.md': 'guide\n' });
    const cache: FileCache = new Map();
    await buildSnapshot([root], { cache });
    const key = join(root, 'alpha', 'guide.md');
    const first = cache.get(key);
    if (!first) throw new Error('not cached');
    // Unchanged: answered from the cache (the same entry).
    await buildSnapshot([root], { cache });
    expect(cache.get(key)).toBe(first);
    // A change of ctime alone (what chmod makes) must not be answered from the cache: pretend the
    // cached copy was taken at another ctime and give it stale bytes; the rebuild reads the disk.
    cache.set(key, { ...first, ctimeMs: first.ctimeMs - 1, bytes: Buffer.from('stale\n') });
    const snap = await buildSnapshot([root], { cache });
    const served = snap.skills[0]?.files.find((f) => f.relPath === 'guide.md');
    expect(Buffer.from(served?.bytes ?? []).toString()).toBe('guide\n');
  });

  it('serves valid UTF-8 as text (a byte-order mark kept) and anything else as bytes only', async () => {
    const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
    const root = await library(ALPHA);
    await writeTree(root, {
      'alpha/bom.md': bytes(0xef, 0xbb, 0xbf, 0x68, 0x69),
      'alpha/empty.txt': bytes(),
      'alpha/accents.md': 'café ✓ 😀',
      // A surrogate written as UTF-8, an overlong slash, a lone continuation byte, a cut sequence.
      'alpha/surrogate.bin': bytes(0xed, 0xa0, 0x80),
      'alpha/overlong.bin': bytes(0xc0, 0xaf),
      'alpha/continuation.bin': bytes(0x61, 0x80),
      'alpha/cut.bin': bytes(0x61, 0xe2, 0x82),
    });
    const snap = await buildSnapshot([root]);
    const text = (name: string): string | undefined =>
      snap.skills[0]?.files.find((f) => f.relPath === name)?.text;
    expect(text('bom.md')).toBe('\uFEFFhi');
    expect(text('empty.txt')).toBe('');
    expect(text('accents.md')).toBe('café ✓ 😀');
    for (const name of ['surrogate.bin', 'overlong.bin', 'continuation.bin', 'cut.bin']) {
      const file = snap.skills[0]?.files.find((f) => f.relPath === name);
      expect(file?.size).toBeGreaterThan(0);
      expect(file?.text).toBeUndefined();
    }
  });

  it('every digest is of the bytes served', async () => {
    const root = await library({ ...ALPHA, 'alpha/data.bin': 'x'.repeat(100_000) });
    const snap = await buildSnapshot([root]);
    const { createHash } = await import('node:crypto');
    for (const f of snap.skills[0]?.files ?? [])
      expect(f.digest).toBe(`sha256:${createHash('sha256').update(f.bytes).digest('hex')}`);
  });
});
