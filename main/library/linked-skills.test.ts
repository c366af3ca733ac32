import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryService } from './library-service';
import { SettingsStore } from './settings-store';

let tmp: string;
let library: LibraryService;
const TEXT = '---\nname: shared\ndescription: Shared things. Use when sharing.\n---\n# Shared\n';

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-linked-'));
  library = new LibraryService(new SettingsStore(join(tmp, 'data')));
  library.setLinkRoots(async () => [join(tmp, 'agents-skills')]);
});
afterEach(async () => {
  library.dispose();
  await rm(tmp, { recursive: true, force: true });
});

describe('linked skill folders (SECURITY.md, "Linked skill folders")', () => {
  it('a linked skill folder is listed, read and saved in its real folder; a link outside the allowed roots is listed as refused and never read', async () => {
    const real = join(tmp, 'agents-skills', 'shared');
    await mkdir(real, { recursive: true });
    await writeFile(join(real, 'SKILL.md'), TEXT);
    const outside = join(tmp, 'elsewhere', 'secret');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'SKILL.md'), TEXT.replace('shared', 'secret'));
    const root = join(tmp, 'claude-skills');
    await mkdir(root);
    await symlink('../agents-skills/shared', join(root, 'shared'));
    await symlink(outside, join(root, 'secret'));
    await symlink('../nowhere', join(root, 'gone'));

    const opened = await library.open(root);
    expect(opened.ok).toBe(true);
    const skills = opened.ok ? opened.value.skills : [];
    expect(skills.map((s) => [s.relativeDir, s.linked?.state])).toEqual([
      ['gone', 'broken'],
      ['secret', 'refused'],
      ['shared', 'followed'],
    ]);
    const shared = skills.find((s) => s.relativeDir === 'shared');
    expect(shared?.linked?.target).toBe(real);
    expect(shared?.name).toBe('shared');

    const read = await library.read(join(root, 'shared', 'SKILL.md'));
    expect(read.ok && read.value.text).toBe(TEXT);
    const saved = await library.save(join(root, 'shared', 'SKILL.md'), TEXT + 'More.\n');
    expect(saved.ok).toBe(true);
    expect(await readFile(join(real, 'SKILL.md'), 'utf8')).toBe(TEXT + 'More.\n');

    const refused = await library.read(join(root, 'secret', 'SKILL.md'));
    expect(refused.ok).toBe(false);
    expect(skills.find((s) => s.relativeDir === 'secret')?.description).toMatch(
      /does not follow it/,
    );
  });
});

describe('a linked skill folder outside the library, followed on disk', () => {
  it('an edit in its real folder says the library folder that links it changed', async () => {
    const real = join(tmp, 'agents-skills', 'shared');
    await mkdir(real, { recursive: true });
    await writeFile(join(real, 'SKILL.md'), TEXT);
    const root = join(tmp, 'claude-skills');
    await mkdir(root);
    await symlink('../agents-skills/shared', join(root, 'shared'));
    const events: string[] = [];
    const waiting: (() => void)[] = [];
    const live = new LibraryService(new SettingsStore(join(tmp, 'data')), (event, payload) => {
      events.push(`${event} ${JSON.stringify(payload)}`);
      for (const w of waiting.splice(0)) w();
    });
    live.setLinkRoots(async () => [join(tmp, 'agents-skills')]);
    try {
      const started = live.followDisk({ quietMs: 20, lookMs: 20 });
      expect((await live.open(root)).ok).toBe(true);
      expect((await live.list()).skills.map((s) => [s.name, s.linked?.state])).toEqual([
        ['shared', 'followed'],
      ]);
      await started;
      const news = new Promise<void>((resolve) => waiting.push(resolve));
      // Why written until news comes: a watch's first folders are made in time slices.
      let settled = false;
      void news.then(() => (settled = true));
      for (let i = 0; !settled; i++) {
        await writeFile(join(real, 'SKILL.md'), `${TEXT}\nEdit ${i}.\n`);
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(events[0]).toBe(`library.changed ${JSON.stringify({ root })}`);
    } finally {
      live.dispose();
    }
  });
});
