import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/skill-library';
import { FolderWatch, notASkillChange, type FolderWatchOptions } from './folder-watch';

// Real folders in a temp directory, real watchers. No test waits a fixed time: each waits for the
// report it expects, and a change the watcher may not see yet (Node sets up a recursive watcher
// after `watch()` returns) is written again until it is reported.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function folders(...names: string[]): Promise<string[]> {
  const tmp = await tempDir('sb-folder-watch-');
  cleanups.push(() => tmp.remove());
  const paths = names.map((n) => join(tmp.path, n));
  for (const p of paths) await mkdir(join(p, 'deep', 'er'), { recursive: true });
  return paths;
}

/** A started watch and every report it made, with a wait for the next report that satisfies a test. */
function watching(
  list: () => readonly string[],
  options: Partial<FolderWatchOptions> = {},
): {
  watch: FolderWatch;
  reports: Set<string>[];
  next: (done: (changed: ReadonlySet<string>) => boolean) => Promise<ReadonlySet<string>>;
} {
  const reports: Set<string>[] = [];
  const waiting: {
    done: (c: ReadonlySet<string>) => boolean;
    resolve: (c: Set<string>) => void;
  }[] = [];
  const watch = new FolderWatch({
    folders: list,
    quietMs: 20,
    lookMs: 20,
    ...options,
    onChange: (changed) => {
      const copy = new Set(changed);
      reports.push(copy);
      for (const w of waiting.splice(0)) {
        if (w.done(copy)) w.resolve(copy);
        else waiting.push(w);
      }
    },
  });
  cleanups.push(() => watch.close());
  watch.start();
  return {
    watch,
    reports,
    next: (done) => new Promise((resolve) => waiting.push({ done, resolve })),
  };
}

/** Write `path` again and again until `reported` settles. */
async function writeUntil(path: string, reported: Promise<unknown>): Promise<void> {
  let settled = false;
  void reported.then(() => (settled = true));
  for (let i = 0; !settled; i++) {
    await writeFile(path, `edit ${i}\n`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each([
  ['each folder watched on its own', true],
  ["Node's recursive watcher", false],
])('a folder watch, %s', (_how, perFolder) => {
  it('reports an edit deep inside a folder as that folder, once the writes pause', async () => {
    const [a, b] = await folders('a', 'b');
    const w = watching(() => [a, b], { perFolder });
    const reported = w.next((c) => c.has(a));
    await writeUntil(join(a, 'deep', 'er', 'SKILL.md'), reported);
    expect([...(await reported)]).toEqual([a]);
  });

  it('once ready, a single edit deep inside is news (every folder of the tree is watched)', async () => {
    const [a] = await folders('a');
    for (let i = 0; i < 200; i++)
      await mkdir(join(a, `skill-${i}`, 'references'), { recursive: true });
    const w = watching(() => [a], { perFolder });
    await w.watch.ready();
    const reported = w.next((c) => c.has(a));
    await writeFile(join(a, 'skill-199', 'references', 'guide.md'), 'one write\n');
    await reported;
  });

  it('reports a folder renamed away, and again when it is put back, with no event from inside it', async () => {
    const [a] = await folders('a');
    const w = watching(() => [a], { perFolder });
    const gone = w.next((c) => c.has(a));
    await rename(a, `${a}.away`);
    await gone;
    const back = w.next((c) => c.has(a));
    await rename(`${a}.away`, a);
    await back;
  });

  it('reports a folder that is a link when it is pointed at another folder', async () => {
    const [real1, real2] = await folders('real1', 'real2');
    const link = `${real1}-link`;
    await symlink(real1, link);
    const w = watching(() => [link], { perFolder });
    const moved = w.next((c) => c.has(link));
    await symlink(real2, `${link}.next`);
    await rename(`${link}.next`, link);
    expect([...(await moved)]).toEqual([link]);
  });

  it('stops watching a folder no longer asked for, and takes a new one without reporting it', async () => {
    const [a, b, c] = await folders('a', 'b', 'c');
    let list = [a, b];
    const w = watching(() => list, { perFolder });
    list = [b, c];
    w.watch.look();
    await rename(a, `${a}.away`);
    const reported = w.next((changed) => changed.has(b));
    await rename(b, `${b}.away`);
    await reported;
    expect(w.reports.flatMap((r) => [...r])).toEqual([b]);
  });

  it('does not report what `ignore` says cannot matter', async () => {
    const [a, b] = await folders('a', 'b');
    const w = watching(() => [a, b], {
      perFolder,
      ignore: (relativePath, folder) => folder === a && relativePath.startsWith('deep/'),
    });
    await writeFile(join(a, 'deep', 'er', 'noise.txt'), 'x');
    const reported = w.next((changed) => changed.has(b));
    await rename(b, `${b}.away`);
    await reported;
    expect(w.reports.flatMap((r) => [...r])).toEqual([b]);
  });

  it('reports nothing after close', async () => {
    const [a, b] = await folders('a', 'b');
    const closed = watching(() => [a], { perFolder });
    closed.watch.close();
    const other = watching(() => [b], { perFolder });
    await rename(a, `${a}.away`);
    // Why a second watch: once it has seen its own folder go, the closed one would have seen its
    // folder go too, had close left its look or its watcher running.
    const reported = other.next((changed) => changed.has(b));
    await rename(b, `${b}.away`);
    await reported;
    await rm(`${a}.away`, { recursive: true });
    expect(closed.reports).toEqual([]);
  });
});

describe('a folder watch that watches each folder on its own', () => {
  it('watches a folder made after it started, and one deleted and made again under the same name', async () => {
    const [a] = await folders('a');
    const w = watching(() => [a], { perFolder: true });
    const made = w.next((c) => c.has(a));
    await mkdir(join(a, 'later', 'inner'), { recursive: true });
    await made;
    // An edit inside the new folder is news only if the new folder is watched.
    const edited = w.next((c) => c.has(a));
    await writeUntil(join(a, 'later', 'inner', 'SKILL.md'), edited);
    await rm(join(a, 'later'), { recursive: true });
    await mkdir(join(a, 'later'));
    const again = w.next((c) => c.has(a));
    await writeUntil(join(a, 'later', 'notes.md'), again);
  });

  it('does not watch inside folders no walk enters: edits in node_modules or .git are no news', async () => {
    const [a, b] = await folders('a', 'b');
    await mkdir(join(a, 'node_modules', 'pkg'), { recursive: true });
    await mkdir(join(a, 'deep', '.git', 'objects'), { recursive: true });
    const w = watching(() => [a, b], { perFolder: true });
    await writeFile(join(a, 'node_modules', 'pkg', 'index.js'), 'x');
    await writeFile(join(a, 'deep', '.git', 'objects', 'ab'), 'x');
    const reported = w.next((changed) => changed.has(b));
    await rename(b, `${b}.away`);
    await reported;
    expect(w.reports.flatMap((r) => [...r])).toEqual([b]);
  });
});

describe('a folder watch and links inside the tree', () => {
  it('does not follow a link to a folder elsewhere: edits behind it are no news', async () => {
    const [a, b, elsewhere] = await folders('a', 'b', 'elsewhere');
    await symlink(elsewhere, join(a, 'linked'));
    const w = watching(() => [a, b], { perFolder: true });
    await w.watch.ready();
    await writeFile(join(elsewhere, 'deep', 'er', 'notes.md'), 'behind the link');
    const reported = w.next((changed) => changed.has(b));
    await rename(b, `${b}.away`);
    await reported;
    expect(w.reports.flatMap((r) => [...r])).toEqual([b]);
  });
});

describe('what a change inside a library cannot matter to', () => {
  it('is a path inside a folder no walk enters (version control, dependencies, caches), at any depth', () => {
    expect(notASkillChange('.git/objects/ab/cdef')).toBe(true);
    expect(notASkillChange('team/notes/node_modules/x/index.js')).toBe(true);
    expect(notASkillChange('notes/scripts/__pycache__/run.cpython-312.pyc')).toBe(true);
    expect(notASkillChange('notes/SKILL.md')).toBe(false);
    expect(notASkillChange('notes/scripts/run.py')).toBe(false);
    // The folder itself made or removed changes its parent's listing, which the walk reads.
    expect(notASkillChange('notes/.git')).toBe(false);
    expect(notASkillChange('.gitignore')).toBe(false);
  });
});
