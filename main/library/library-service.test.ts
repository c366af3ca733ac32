import { execFileSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backdate, LAST_YEAR } from '../testing/file-times';
import { LibraryService } from './library-service';
import { ListingCache } from './listing-cache';
import { SettingsStore } from './settings-store';

let tmp: string;
let service: LibraryService;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

const skill = (
  name: string,
  description = `Does ${name} things. Use when asked about ${name}.`,
): string => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-libservice-'));
  await put('lib/alpha/SKILL.md', skill('alpha'));
  await put('lib/beta/SKILL.md', skill('beta'));
  service = new LibraryService(new SettingsStore(join(tmp, 'user-data')));
  const opened = await service.open(join(tmp, 'lib'));
  expect(opened.ok).toBe(true);
});
afterEach(async () => {
  service.dispose();
  await rm(tmp, { recursive: true, force: true });
});

describe('LibraryService listing', () => {
  it('hands a listing started at app start to the first request while it is being made', async () => {
    void service.prefetch();
    const first = service.list();
    const second = service.list();
    const [a, b] = await Promise.all([first, second]);
    expect(a.skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
    // The second request did not share the prefetched listing: it made its own.
    expect(b).not.toBe(a);
    expect(b).toEqual(a);
  });

  it("checking one skill after a save keeps the library's findings the listing gave it (two skills with one name)", async () => {
    await put('lib/team-a/dup/SKILL.md', skill('dup'));
    await put('lib/team-b/dup/SKILL.md', skill('dup'));
    const listed = await service.list();
    const rows = listed.skills.filter((s) => s.name === 'dup');
    expect(rows.map((s) => s.counts.error)).toEqual([1, 1]);
    const one = await service.validate(join(tmp, 'lib/team-a/dup/SKILL.md'), undefined);
    expect(one.ok && one.value.counts.error).toBe(1);
    expect(one.ok && one.value.diagnostics.map((d) => d.ruleId)).toContain(
      'library/duplicate-name',
    );
    // Renamed in the editor and saved: the finding goes, though the listing is not made again.
    await put('lib/team-a/dup/SKILL.md', skill('dup').replace('name: dup', 'name: dup-a'));
    const renamed = await service.validate(join(tmp, 'lib/team-a/dup/SKILL.md'), undefined);
    expect(renamed.ok && renamed.value.diagnostics.map((d) => d.ruleId)).not.toContain(
      'library/duplicate-name',
    );
  });

  it('does not hand over a finished prefetch: a later request sees changes made since', async () => {
    await service.prefetch();
    await put('lib/beta/SKILL.md', skill('beta', 'Notes: a summary'));
    const later = await service.list();
    const beta = later.skills.find((s) => s.name === 'beta');
    expect(beta?.counts.error).toBeGreaterThan(0);
  });

  it('sees edits, new and removed skills on the next listing (folders are checked again when they change)', async () => {
    expect((await service.list()).skills.map((s) => s.counts.error)).toEqual([0, 0]);
    await put('lib/alpha/SKILL.md', skill('alpha', 'Notes: a summary'));
    await put('lib/gamma/SKILL.md', skill('gamma'));
    await rm(join(tmp, 'lib/beta'), { recursive: true });
    const after = await service.list();
    expect(after.skills.map((s) => [s.name, s.counts.error > 0])).toEqual([
      ['alpha', true],
      ['gamma', false],
    ]);
  });

  it('keeps the findings across a restart in the user-data folder, for the same build only', async () => {
    const lib = join(tmp, 'lib');
    // Files edited a while ago (just-written ones are always checked again).
    await backdate(lib, LAST_YEAR);
    const settings = new SettingsStore(join(tmp, 'user-data'));
    const cacheDir = join(tmp, 'user-data', 'cache');
    const first = new LibraryService(settings, undefined, new ListingCache(cacheDir, 'build-1'));
    const listed = await first.list();
    expect(first.lastRechecked(lib)).toBe(2);
    await first.saveCache();
    first.dispose();

    const restarted = new LibraryService(
      settings,
      undefined,
      new ListingCache(cacheDir, 'build-1'),
    );
    expect(await restarted.list()).toEqual(listed);
    expect(restarted.lastRechecked(lib)).toBe(0);
    restarted.dispose();

    const upgraded = new LibraryService(settings, undefined, new ListingCache(cacheDir, 'build-2'));
    expect(await upgraded.list()).toEqual(listed);
    expect(upgraded.lastRechecked(lib)).toBe(2);
    upgraded.dispose();

    // A damaged cache file is ignored.
    for (const name of await readdir(cacheDir))
      await writeFile(join(cacheDir, name), 'not a cache');
    const damaged = new LibraryService(settings, undefined, new ListingCache(cacheDir, 'build-2'));
    expect(await damaged.list()).toEqual(listed);
    expect(damaged.lastRechecked(lib)).toBe(2);
    damaged.dispose();
  });

  it('answers a large library’s first listing with a glance, checks it in the background, then says so', async () => {
    await put('lib/group/gamma/SKILL.md', skill('gamma', '"Quoted: a colon inside quotes."'));
    await put(
      'lib/delta/SKILL.md',
      '---\nname: delta\ndescription: >\n  Folded text on the next line.\n---\n# delta\n',
    );
    await put('lib/broken/SKILL.md', skill('broken', 'Notes: a summary'));
    const events: string[] = [];
    const settings = new SettingsStore(join(tmp, 'user-data'));
    const big = new LibraryService(
      settings,
      (event, payload) => events.push(`${event} ${JSON.stringify(payload)}`),
      null,
      2,
    );
    const glance = await big.list();
    expect(glance.skills.map((s) => [s.relativeDir, s.name, s.description, s.pending])).toEqual([
      ['alpha', 'alpha', 'Does alpha things. Use when asked about alpha.', true],
      ['beta', 'beta', 'Does beta things. Use when asked about beta.', true],
      ['broken', 'broken', 'Notes: a summary', true],
      ['delta', 'delta', 'Folded text on the next line.', true],
      ['group/gamma', 'gamma', 'Quoted: a colon inside quotes.', true],
    ]);
    await big.settled();
    expect(events).toEqual([`library.changed ${JSON.stringify({ root: join(tmp, 'lib') })}`]);
    const checked = await big.list();
    expect(checked.skills.some((s) => s.pending)).toBe(false);
    expect(checked.skills.find((s) => s.name === 'broken')?.counts.error).toBeGreaterThan(0);
    expect(checked.skills.map((s) => s.relativeDir)).toEqual([
      'alpha',
      'beta',
      'broken',
      'delta',
      'group/gamma',
    ]);
    // Small libraries (under the threshold) are checked before the answer, as before.
    expect((await service.list()).skills.some((s) => s.pending)).toBe(false);
    big.dispose();
  });
});

describe('LibraryService and files that are not what a SKILL.md should be', () => {
  it('opens no SKILL.md larger than 16 MiB in the editor, and says why', async () => {
    const path = join(tmp, 'lib/alpha/SKILL.md');
    // Why sparse: the size is what matters; reading it whole is what must not happen.
    await truncate(path, 17 * 1024 * 1024);
    const read = await service.read(path);
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error.code).toBe('too-large');
      expect(read.error.message).toMatch(
        /is too large \(17\.8 MB\); Skillbench reads files of up to 16\.8 MB/,
      );
    }
  });

  it('opens no SKILL.md that is not UTF-8 in the editor (saving would replace those bytes), and says where', async () => {
    const path = join(tmp, 'lib/alpha/SKILL.md');
    const bytes = Buffer.from('---\nname: alpha\ndescription: Caf\xe9 menu.\n---\n', 'latin1');
    await writeFile(path, bytes);
    const read = await service.read(path);
    expect(read).toMatchObject({ ok: false, error: { code: 'not-utf8' } });
    if (!read.ok)
      expect(read.error.message).toBe(
        'SKILL.md is not UTF-8 text (the byte 0xE9 at line 3, column 17), so Skillbench does not open it for editing: saving it would replace those bytes with "�". Save it as UTF-8 in another editor (most offer "Save with encoding: UTF-8"), then open it here.',
      );
    expect(await readFile(path)).toEqual(bytes);
  });

  it('refuses a pipe reached through a link instead of waiting on it for ever', async () => {
    execFileSync('mkfifo', [join(tmp, 'lib/beta/pipe')]);
    await rm(join(tmp, 'lib/beta/SKILL.md'));
    await symlink('pipe', join(tmp, 'lib/beta/SKILL.md'));
    const read = await service.read(join(tmp, 'lib/beta/SKILL.md'));
    expect(read.ok).toBe(false);
  });

  it('saving over a file that became a pipe writes nothing and does not hang', async () => {
    const path = join(tmp, 'lib/alpha/SKILL.md');
    const opened = await service.read(path);
    if (!opened.ok) throw new Error(opened.error.message);
    await rm(path);
    execFileSync('mkfifo', [path]);
    const saved = await service.save(path, skill('alpha', 'Changed.'), opened.value.version);
    expect(saved.ok).toBe(false);
    expect((await lstat(path)).isFIFO()).toBe(true);
  });

  it('an open file swapped for a link to /dev/zero is reported gone, not read for ever', async () => {
    const events: { path: string; version: string | null }[] = [];
    let changed!: () => void;
    const seen = new Promise<void>((done) => (changed = done));
    const watched = new LibraryService(
      new SettingsStore(join(tmp, 'user-data')),
      (event, payload) => {
        if (event !== 'skill.changed') return;
        events.push(payload as { path: string; version: string | null });
        changed();
      },
    );
    expect((await watched.open(join(tmp, 'lib'))).ok).toBe(true);
    const path = join(tmp, 'lib/alpha/SKILL.md');
    expect((await watched.read(path)).ok).toBe(true);
    await rm(path);
    await symlink('/dev/zero', path);
    await seen;
    expect(events).toEqual([{ path, version: null }]);
    watched.dispose();
    // The library's other files are untouched.
    expect(await readFile(join(tmp, 'lib/beta/SKILL.md'), 'utf8')).toBe(skill('beta'));
  });
});

describe('LibraryService file view', () => {
  it('names what else the folder holding the skill has, so no fix offers to rename the folder to a taken name', async () => {
    await put('lib/notes.txt', 'mine');
    const view = await service.fileView(join(tmp, 'lib', 'alpha', 'SKILL.md'));
    expect(view.ok && view.value.takenNames?.sort()).toEqual(['beta', 'notes.txt']);
  });

  it('names nothing above a library folder that is itself a skill (no fix renames it)', async () => {
    await put('solo/SKILL.md', skill('solo'));
    expect((await service.open(join(tmp, 'solo'))).ok).toBe(true);
    const view = await service.fileView(join(tmp, 'solo', 'SKILL.md'));
    expect(view.ok && view.value.folderName).toBe('solo');
    expect(view.ok && view.value.takenNames).toBeUndefined();
  });
});

describe('LibraryService following the disk', () => {
  /** A service that follows the disk, its events, and a wait for the next `library.changed`. */
  async function following(quietInside: string[] = []) {
    const events: string[] = [];
    const waiting: (() => void)[] = [];
    const live = new LibraryService(new SettingsStore(join(tmp, 'user-data')), (event, payload) => {
      events.push(`${event} ${JSON.stringify(payload)}`);
      for (const w of waiting.splice(0)) w();
    });
    // Why not awaited here: the watch starts once the library was first listed.
    const started = live.followDisk({ quietInside, quietMs: 20, lookMs: 20 });
    return {
      live,
      events,
      started,
      changed: () => new Promise<void>((resolve) => waiting.push(resolve)),
    };
  }

  /** A service that has listed the library before it follows the disk, and its events. */
  async function listedFirst() {
    const events: string[] = [];
    const live = new LibraryService(new SettingsStore(join(tmp, 'user-data')), (event, payload) =>
      events.push(`${event} ${JSON.stringify(payload)}`),
    );
    expect((await live.list()).skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
    return { live, events };
  }

  it('catches what changed between the first listing and the watches being set up', async () => {
    const { live, events } = await listedFirst();
    try {
      // Made before any watch exists: only the look after the watches are set up can tell.
      await put('lib/gamma/SKILL.md', skill('gamma'));
      await live.followDisk({ quietMs: 20, lookMs: 20 });
      expect(events).toEqual([`library.changed ${JSON.stringify({ root: join(tmp, 'lib') })}`]);
      expect((await live.list()).skills.map((s) => s.name)).toEqual(['alpha', 'beta', 'gamma']);
    } finally {
      live.dispose();
    }
  });

  it('catches a file edited in place meanwhile, in a folder whose files were not just written', async () => {
    await put('lib/beta/scripts/run.sh', '#!/bin/sh\necho one\n');
    await backdate(join(tmp, 'lib'), LAST_YEAR);
    const { live, events } = await listedFirst();
    try {
      await writeFile(join(tmp, 'lib', 'beta', 'scripts', 'run.sh'), '#!/bin/sh\necho two\n');
      await live.followDisk({ quietMs: 20, lookMs: 20 });
      expect(events).toEqual([`library.changed ${JSON.stringify({ root: join(tmp, 'lib') })}`]);
    } finally {
      live.dispose();
    }
  });

  it('says nothing after the watches are set up when nothing changed, files just written included', async () => {
    // The library's files were written a moment ago: their folders are checked again on every
    // listing (a modification time may not tell two writes in one tick apart), with the same findings.
    const { live, events } = await listedFirst();
    try {
      await live.followDisk({ quietMs: 20, lookMs: 20 });
      expect(events).toEqual([]);
    } finally {
      live.dispose();
    }
  });

  it('starts nothing when disposed while it starts (the app closing at start-up)', async () => {
    const live = new LibraryService(new SettingsStore(join(tmp, 'user-data')));
    const starting = live.followDisk({ quietMs: 20, lookMs: 20 });
    live.dispose();
    await expect(starting).resolves.toBeUndefined();
  });

  it('says a library folder changed when a skill is added outside the app, and the next listing has it', async () => {
    const { live, events, changed, started } = await following();
    try {
      expect((await live.list()).skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
      await started;
      const news = changed();
      // Why written until news comes: the watcher of a just-opened folder may not be ready yet.
      let settled = false;
      void news.then(() => (settled = true));
      for (let i = 0; !settled; i++) {
        await put(`lib/gamma-${i}/SKILL.md`, skill(`gamma-${i}`));
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(events[0]).toBe(`library.changed ${JSON.stringify({ root: join(tmp, 'lib') })}`);
      expect((await live.list()).skills.map((s) => s.name)).toContain('gamma-0');
    } finally {
      live.dispose();
    }
  });

  it('is quiet about changes inside folders no walk enters and inside the user-data folder', async () => {
    const userData = join(tmp, 'lib', 'user-data-here');
    await mkdir(join(userData, 'cache'), { recursive: true });
    await mkdir(join(tmp, 'lib', 'alpha', '.git'), { recursive: true });
    const other = join(tmp, 'lib-2');
    await put('lib-2/delta/SKILL.md', skill('delta'));
    const { live, events, changed, started } = await following([userData]);
    try {
      expect((await live.open(other)).ok).toBe(true);
      await live.list();
      await started;
      for (let i = 0; i < 5; i++) {
        await writeFile(join(userData, 'cache', `listing-${i}.json`), '{}');
        await writeFile(join(tmp, 'lib', 'alpha', '.git', `FETCH_HEAD-${i}`), 'x');
      }
      // Another library folder renamed away: news from the steady look. Had the writes above
      // been news, the first library folder would be named too (in this event or before it).
      const news = changed();
      await rename(other, `${other}-away`);
      await news;
      expect(events).toEqual([`library.changed ${JSON.stringify({ root: other })}`]);
      expect((await live.list()).problems.map((p) => p.root)).toEqual([other]);
    } finally {
      live.dispose();
    }
  });
});
