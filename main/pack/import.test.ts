import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RefusalCode } from '../../shared/projection';
import {
  craftTar,
  craftZip,
  ordinarySkillTar,
  photoSkillZip,
  truncatedTars,
  unicodePathExtra,
  type CraftTarEntry,
  type CraftZipEntry,
} from './craft-archives';
import { exportSkill } from './export';
import { importSkill, previewImport } from './import';

let tmp: string;
let library: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-import-'));
  library = join(tmp, 'library');
  await mkdir(library);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Every path under a folder (links not followed), with sizes: a before/after snapshot. */
async function snapshot(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    const st = await lstat(join(dir, rel));
    // Why no size for folders: folder sizes depend on the file system, not on the contents.
    out.push(entry.isDirectory() ? `${rel}/` : `${rel}:${st.size}`);
    if (entry.isDirectory()) out.push(...(await snapshot(dir, rel)));
  }
  return out.sort();
}

const SKILL = Buffer.from(
  '---\nname: demo\ndescription: A demo skill. Use it for demos.\n---\n# Demo\n',
);

/** A valid skill's entries plus the hostile ones. */
function zipWith(...hostile: CraftZipEntry[]): Buffer {
  return craftZip([{ name: 'demo/SKILL.md', data: SKILL }, ...hostile]);
}

/** A valid skill's tar entries plus the hostile ones, gzipped. */
function tgzWith(...hostile: CraftTarEntry[]): Buffer {
  return gzipSync(craftTar([{ name: 'demo/SKILL.md', data: SKILL }, ...hostile]));
}

const ZERO_MB = (n: number): Buffer => Buffer.alloc(n * 1024 * 1024);

const HOSTILE: Array<{
  name: string;
  file: string;
  bytes: () => Buffer;
  code: RefusalCode;
  message: RegExp;
}> = [
  {
    name: 'zip: ../ traversal',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/../../evil.txt', data: Buffer.from('x') }),
    code: 'path-traversal',
    message: /climbs out of its folder/,
  },
  {
    name: 'zip: ..\\ traversal',
    file: 'a.zip',
    bytes: () => zipWith({ name: '..\\evil.txt', data: Buffer.from('x') }),
    code: 'path-traversal',
    message: /zip slip/,
  },
  {
    name: 'zip: absolute path',
    file: 'a.zip',
    bytes: () => zipWith({ name: '/tmp/evil.txt', data: Buffer.from('x') }),
    code: 'absolute-path',
    message: /absolute path/,
  },
  {
    name: 'zip: drive path C:\\',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'C:\\Windows\\evil.txt', data: Buffer.from('x') }),
    code: 'absolute-path',
    message: /Windows drive path/,
  },
  {
    name: 'zip: UNC path',
    file: 'a.zip',
    bytes: () => zipWith({ name: '\\\\server\\share\\evil.txt', data: Buffer.from('x') }),
    code: 'absolute-path',
    message: /network location/,
  },
  {
    name: 'zip: symlink entry',
    file: 'a.zip',
    bytes: () =>
      zipWith({
        name: 'demo/passwd',
        data: Buffer.from('/etc/passwd'),
        method: 0,
        unixMode: 0o120777,
      }),
    code: 'link',
    message: /symbolic link/,
  },
  {
    name: 'zip: FIFO entry',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/pipe', method: 0, unixMode: 0o010644 }),
    code: 'special-file',
    message: /named pipe/,
  },
  {
    name: 'zip: device entry',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/sda', method: 0, unixMode: 0o060644 }),
    code: 'special-file',
    message: /device node/,
  },
  {
    name: 'zip: NFC/NFD duplicate',
    file: 'a.zip',
    bytes: () =>
      zipWith(
        { name: 'demo/caf\u00e9.md', data: Buffer.from('a') },
        { name: 'demo/cafe\u0301.md', data: Buffer.from('b') },
      ),
    code: 'collision',
    message: /same name/,
  },
  {
    name: 'zip: case-folding duplicate',
    file: 'a.zip',
    bytes: () =>
      zipWith(
        { name: 'demo/README.md', data: Buffer.from('a') },
        { name: 'demo/readme.md', data: Buffer.from('b') },
      ),
    code: 'collision',
    message: /upper\/lower case/,
  },
  {
    name: 'zip: exact duplicate',
    file: 'a.zip',
    bytes: () =>
      zipWith(
        { name: 'demo/a.md', data: Buffer.from('a') },
        { name: 'demo/a.md', data: Buffer.from('b') },
      ),
    code: 'collision',
    message: /same name/,
  },
  {
    name: 'zip: bomb over 100:1',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/zeros.bin', data: ZERO_MB(10) }),
    code: 'compression-ratio',
    message: /zip bombs/,
  },
  {
    name: 'zip: an entry that says 1 kB and inflates to 10 MiB',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/zeros.bin', data: ZERO_MB(10), declaredSize: 1000 }),
    code: 'compression-ratio',
    message: /zip bombs/,
  },
  {
    name: 'zip: an entry that says 10 MiB and holds 1 kB of text',
    file: 'a.zip',
    bytes: () =>
      zipWith({
        name: 'demo/short.md',
        data: Buffer.from(randomBytes(500).toString('hex')),
        declaredSize: 10 * 1024 * 1024,
      }),
    code: 'damaged',
    message: /damaged/,
  },
  {
    name: 'zip: a file header said to lie past the end of the archive',
    file: 'a.zip',
    bytes: () => {
      const zip = zipWith({ name: 'demo/notes.md', data: Buffer.from('notes') });
      const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      zip.writeUInt32LE(zip.length + 4096, central + 42);
      return zip;
    },
    code: 'damaged',
    message: /damaged/,
  },
  {
    name: 'zip: 20 MiB of text that compresses well, unpacked only up to the 16 MiB limit',
    file: 'a.zip',
    bytes: () =>
      zipWith(
        ...Array.from({ length: 20 }, (_, i) => ({
          name: `demo/notes-${i}.md`,
          data: Buffer.from(randomBytes(768 * 1024).toString('base64')),
        })),
      ),
    code: 'too-large',
    message: /^The archive unpacks to more than 16\.8 MB/,
  },
  {
    name: 'zip: over 512 files',
    file: 'a.zip',
    bytes: () =>
      zipWith(
        ...Array.from({ length: 512 }, (_, i) => ({
          name: `demo/f${i}.txt`,
          data: Buffer.from(`${i}`),
        })),
      ),
    code: 'too-many-files',
    message: /more than 512 files/,
  },
  {
    name: 'zip: over 16 MiB',
    file: 'a.zip',
    bytes: () =>
      zipWith({ name: 'demo/random.bin', data: randomBytes(17 * 1024 * 1024), method: 0 }),
    code: 'too-large',
    message: /more than 16\.8 MB/,
  },
  {
    name: 'zip: too deep',
    file: 'a.zip',
    bytes: () => zipWith({ name: `demo/${'d/'.repeat(40)}x.txt`, data: Buffer.from('x') }),
    code: 'too-deep',
    message: /levels deep/,
  },
  {
    name: 'zip: encrypted entry',
    file: 'a.zip',
    bytes: () =>
      zipWith({
        name: 'demo/secret.txt',
        data: Buffer.from('xxxxxxxxxxxx'),
        method: 0,
        flags: 0x1,
      }),
    code: 'encrypted',
    message: /password-protected/,
  },
  {
    name: 'zip: Unicode Path field naming another file',
    file: 'a.zip',
    bytes: () =>
      zipWith({
        name: 'demo/ok.txt',
        data: Buffer.from('x'),
        extra: unicodePathExtra('demo/ok.txt', '../evil.txt'),
      }),
    code: 'unsafe-name',
    message: /two different names/,
  },
  {
    name: 'zip: NUL in a name',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/a\u0000.md', data: Buffer.from('x') }),
    code: 'unsafe-name',
    message: /null character/,
  },
  {
    name: 'zip: Windows device name',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/CON.txt', data: Buffer.from('x') }),
    code: 'unsafe-name',
    message: /device name/,
  },
  {
    name: 'zip: no SKILL.md',
    file: 'a.zip',
    bytes: () => craftZip([{ name: 'readme.md', data: Buffer.from('x') }]),
    code: 'no-skill',
    message: /No SKILL.md/,
  },
  {
    name: 'zip: truncated',
    file: 'a.zip',
    bytes: () => zipWith({ name: 'demo/a.md', data: Buffer.from('x') }).subarray(0, 60),
    code: 'damaged',
    message: /damaged/,
  },
  {
    name: '.skill: traversal',
    file: 'a.skill',
    bytes: () => zipWith({ name: '../evil.txt', data: Buffer.from('x') }),
    code: 'path-traversal',
    message: /climbs out/,
  },
  {
    name: 'tgz: symlink',
    file: 'a.tar.gz',
    bytes: () => tgzWith({ name: 'demo/passwd', type: '2', linkname: '/etc/passwd' }),
    code: 'link',
    message: /symbolic link/,
  },
  {
    name: 'tgz: hard link',
    file: 'a.tar.gz',
    bytes: () => tgzWith({ name: 'demo/passwd', type: '1', linkname: '/etc/passwd' }),
    code: 'link',
    message: /hard link/,
  },
  {
    name: 'tgz: FIFO',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: 'demo/pipe', type: '6' }),
    code: 'special-file',
    message: /named pipe/,
  },
  {
    name: 'tgz: character device',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: 'demo/tty', type: '3' }),
    code: 'special-file',
    message: /device node/,
  },
  {
    name: 'tgz: block device',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: 'demo/sda', type: '4' }),
    code: 'special-file',
    message: /device node/,
  },
  {
    name: 'tgz: ../ traversal',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: '../evil.txt', data: Buffer.from('x') }),
    code: 'path-traversal',
    message: /climbs out/,
  },
  {
    name: 'tgz: absolute path',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: '/etc/evil', data: Buffer.from('x') }),
    code: 'absolute-path',
    message: /absolute path/,
  },
  {
    name: 'tgz: case collision',
    file: 'a.tgz',
    bytes: () =>
      tgzWith(
        { name: 'demo/A.md', data: Buffer.from('a') },
        { name: 'demo/a.md', data: Buffer.from('b') },
      ),
    code: 'collision',
    message: /same name/,
  },
  {
    name: 'tgz: bomb',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: 'demo/zeros.bin', data: ZERO_MB(12) }),
    code: 'compression-ratio',
    message: /zip bombs/,
  },
  {
    name: 'tgz: over 16 MiB',
    file: 'a.tgz',
    bytes: () => tgzWith({ name: 'demo/random.bin', data: randomBytes(17 * 1024 * 1024) }),
    code: 'too-large',
    message: /more than 16\.8 MB/,
  },
  {
    name: 'tgz: file used as a folder',
    file: 'a.tgz',
    bytes: () =>
      tgzWith(
        { name: 'demo/x', data: Buffer.from('a') },
        { name: 'demo/x/y', data: Buffer.from('b') },
      ),
    code: 'collision',
    message: /both as a file and as a folder/,
  },
];

describe('hostile archives are refused and nothing is written', () => {
  for (const c of HOSTILE) {
    it(c.name, async () => {
      const archive = join(tmp, c.file);
      await writeFile(archive, c.bytes());
      const before = await snapshot(tmp);
      const preview = await previewImport(archive);
      expect(preview.status).toBe('refused');
      const result = await importSkill(archive, {
        into: library,
        onConflict: 'replace',
        trashDir: join(tmp, 'trash'),
      });
      expect(result.status).toBe('refused');
      if (result.status !== 'refused') throw new Error('not refused');
      expect(result.refusal.code).toBe(c.code);
      expect(result.refusal.message).toMatch(c.message);
      expect(result.refusal.detail.length).toBeGreaterThan(0);
      expect(await snapshot(tmp)).toEqual(before);
      expect(await readdir(library)).toEqual([]);
    });
  }

  it('the same entries without the hostile part are imported (the corpus is not refusing everything)', async () => {
    const archive = join(tmp, 'ok.zip');
    await writeFile(
      archive,
      zipWith(
        { name: 'demo/caf\u00e9.md', data: Buffer.from('a') },
        { name: 'demo/zeros.bin', data: Buffer.alloc(1000) },
      ),
    );
    const result = await importSkill(archive, { into: library });
    expect(result.status).toBe('imported');
    expect(await readFile(join(library, 'demo', 'caf\u00e9.md'), 'utf8')).toBe('a');
    const tgz = join(tmp, 'ok.tgz');
    await writeFile(
      tgz,
      gzipSync(
        craftTar([
          { name: 'other/SKILL.md', data: Buffer.from('---\nname: other\ndescription: d\n---\n') },
          { name: 'other/run.sh', data: Buffer.from('#!/bin/sh\n'), mode: 0o6755 },
        ]),
      ),
    );
    expect((await importSkill(tgz, { into: library })).status).toBe('imported');
    // Why: setuid/setgid must be cleared on import (docs/skills-over-mcp.md §6).
    expect((await lstat(join(library, 'other', 'run.sh'))).mode & 0o7777).toBe(0o755);
  });

  it('raising the limits lets a big but honest archive in', async () => {
    const archive = join(tmp, 'big.zip');
    await writeFile(
      archive,
      zipWith(
        ...Array.from({ length: 600 }, (_, i) => ({
          name: `demo/f${i}.txt`,
          data: Buffer.from(`${i}`),
        })),
      ),
    );
    expect((await importSkill(archive, { into: library })).status).toBe('refused');
    expect((await importSkill(archive, { into: library, limits: { maxFiles: 1000 } })).status).toBe(
      'imported',
    );
  });

  it('a folder source is copied with evals/ but without .git and node_modules', async () => {
    const src = join(tmp, 'src', 'demo');
    for (const path of [
      'SKILL.md',
      'evals/cases.json',
      '.git/HEAD',
      'node_modules/x/i.js',
      'refs/a.md',
    ]) {
      await mkdir(join(src, path, '..'), { recursive: true });
      await writeFile(join(src, path), path === 'SKILL.md' ? SKILL : 'x');
    }
    const result = await importSkill(src, { into: library });
    expect(result.status).toBe('imported');
    expect((await readdir(join(library, 'demo'))).sort()).toEqual(['SKILL.md', 'evals', 'refs']);
  });

  it('a folder source with a symlink is refused', async () => {
    const src = join(tmp, 'src', 'linky');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'SKILL.md'), SKILL);
    await symlink('/etc/passwd', join(src, 'passwd'));
    const result = await importSkill(src, { into: library });
    expect(result.status === 'refused' && result.refusal.code).toBe('link');
    expect(await readdir(library)).toEqual([]);
  });
});

describe('finding the skill root', () => {
  it('imports a skill with or without a wrapper folder, ignoring macOS leftovers', async () => {
    const wrapped = join(tmp, 'wrapped.zip');
    await writeFile(
      wrapped,
      craftZip([
        { name: 'demo/SKILL.md', data: SKILL },
        { name: '__MACOSX/demo/._SKILL.md', data: Buffer.from('x') },
        { name: 'demo/.DS_Store', data: Buffer.from('x') },
      ]),
    );
    const preview = await previewImport(wrapped);
    expect(preview.status === 'ok' && preview.skills.map((s) => [s.root, s.name])).toEqual([
      ['demo', 'demo'],
    ]);
    expect(preview.status === 'ok' && preview.ignored.sort()).toEqual([
      '__MACOSX/demo/._SKILL.md',
      'demo/.DS_Store',
    ]);
    const flat = join(tmp, 'flat.tar.gz');
    await writeFile(
      flat,
      gzipSync(
        craftTar([
          { name: './SKILL.md', data: SKILL },
          { name: './refs/a.md', data: Buffer.from('a') },
        ]),
      ),
    );
    const result = await importSkill(flat, { into: library });
    expect(result.status === 'imported' && result.name).toBe('demo');
    expect((await readdir(join(library, 'demo'))).sort()).toEqual(['SKILL.md', 'refs']);
  });

  it('asks which skill when there are several, and imports the one picked', async () => {
    const archive = join(tmp, 'two.zip');
    await writeFile(
      archive,
      craftZip([
        { name: 'one/SKILL.md', data: Buffer.from('---\nname: one\ndescription: d\n---\n') },
        {
          name: 'one/nested/SKILL.md',
          data: Buffer.from('---\nname: nested\ndescription: d\n---\n'),
        },
        { name: 'two/SKILL.md', data: Buffer.from('---\nname: two\ndescription: d\n---\n') },
      ]),
    );
    const result = await importSkill(archive, { into: library });
    expect(result.status).toBe('choose');
    expect(result.status === 'choose' && result.skills.map((s) => s.root)).toEqual(['one', 'two']);
    expect(await readdir(library)).toEqual([]);
    const picked = await importSkill(archive, { into: library, pick: 'one' });
    expect(picked.status).toBe('imported');
    expect((await readdir(join(library, 'one'))).sort()).toEqual(['SKILL.md', 'nested']);
  });

  it('imports a single SKILL.md, named after its frontmatter', async () => {
    const file = join(tmp, 'loose', 'SKILL.md');
    await mkdir(join(tmp, 'loose'));
    await writeFile(file, SKILL);
    const result = await importSkill(file, { into: library });
    expect(result.status === 'imported' && result.dir).toBe(join(library, 'demo'));
  });
});

describe('name conflicts', () => {
  it('returns a conflict, then renames to name-2 (updating name:) or replaces with the old copy in the trash', async () => {
    const archive = join(tmp, 'demo.zip');
    await writeFile(archive, zipWith({ name: 'demo/a.md', data: Buffer.from('new') }));
    await mkdir(join(library, 'demo'));
    await writeFile(join(library, 'demo', 'SKILL.md'), 'old');
    const conflict = await importSkill(archive, { into: library });
    expect(conflict).toMatchObject({ status: 'conflict', name: 'demo', suggestion: 'demo-2' });
    expect(await readdir(library)).toEqual(['demo']);

    const renamed = await importSkill(archive, { into: library, onConflict: 'rename' });
    expect(renamed).toMatchObject({ status: 'imported', name: 'demo-2', renamedFrom: 'demo' });
    expect(await readFile(join(library, 'demo-2', 'SKILL.md'), 'utf8')).toContain('name: demo-2\n');

    const trashDir = join(tmp, 'trash');
    const replaced = await importSkill(archive, { into: library, onConflict: 'replace', trashDir });
    expect(replaced.status).toBe('imported');
    expect(await readFile(join(library, 'demo', 'a.md'), 'utf8')).toBe('new');
    const trashed = replaced.status === 'imported' ? replaced.trashedTo : undefined;
    expect(await readFile(join(trashed as string, 'SKILL.md'), 'utf8')).toBe('old');
    expect((await readdir(library)).sort()).toEqual(['demo', 'demo-2']);
    expect(conflict).toMatchObject({ identical: false });
  });

  it('says when the library already holds the same skill, file for file, and one changed byte is a conflict again', async () => {
    const archive = join(tmp, 'same.zip');
    const skillMd = Buffer.from('---\nname: same\ndescription: Same. Use it twice.\n---\n# Same\n');
    await writeFile(
      archive,
      craftZip([
        { name: 'same/SKILL.md', data: skillMd },
        { name: 'same/references/a.md', data: Buffer.from('a') },
      ]),
    );
    expect(await importSkill(archive, { into: library })).toMatchObject({ status: 'imported' });
    const again = await importSkill(archive, { into: library });
    expect(again).toMatchObject({ status: 'conflict', identical: true, suggestion: 'same-2' });
    expect(again.status === 'conflict' ? again.message : '').toContain(
      'file for file the same as this one: there is nothing to import',
    );
    await writeFile(join(library, 'same', 'references', 'a.md'), 'b');
    expect(await importSkill(archive, { into: library })).toMatchObject({
      status: 'conflict',
      identical: false,
    });
    await writeFile(join(library, 'same', 'references', 'a.md'), 'a');
    await writeFile(join(library, 'same', 'notes.txt'), 'mine');
    expect(await importSkill(archive, { into: library })).toMatchObject({ identical: false });
    expect((await readdir(library)).sort()).toEqual(['same']);
  });

  it('compares with the existing folder without following its links: a link to the same bytes elsewhere is a difference', async () => {
    const archive = join(tmp, 'linked.zip');
    const skillMd = Buffer.from('---\nname: linked\ndescription: Linked. Use it.\n---\n# L\n');
    await writeFile(
      archive,
      craftZip([
        { name: 'linked/SKILL.md', data: skillMd },
        { name: 'linked/a.md', data: Buffer.from('a') },
      ]),
    );
    await mkdir(join(library, 'linked'));
    await writeFile(join(library, 'linked', 'SKILL.md'), skillMd);
    await writeFile(join(tmp, 'outside-a.md'), 'a');
    await symlink(join(tmp, 'outside-a.md'), join(library, 'linked', 'a.md'));
    expect(await importSkill(archive, { into: library })).toMatchObject({
      status: 'conflict',
      identical: false,
    });
  });
});

describe('round trip: pack then import gives identical files', () => {
  for (const target of ['archive-zip', 'archive-tgz', 'claude-ai', 'skill'] as const) {
    it(target, async () => {
      const src = join(tmp, 'src', 'trip');
      const files: Record<string, Buffer> = {
        'SKILL.md': Buffer.from(
          '---\nname: trip\ndescription: Round trip. Use it to test.\nlicense: MIT\n---\n# Trip\n',
        ),
        'references/guide.md': Buffer.from('# Guide\n\u00e9t\u00e9 \u2014 caf\u00e9\n'),
        'references/\u00fcber.md': Buffer.from('unicode name\n'),
        'assets/blob.bin': randomBytes(200_000),
        'assets/text.txt': Buffer.from('hello '.repeat(5000)),
        'scripts/run.sh': Buffer.from('#!/bin/sh\necho hi\n'),
      };
      for (const [path, data] of Object.entries(files)) {
        await mkdir(join(src, path, '..'), { recursive: true });
        await writeFile(join(src, path), data);
      }
      await mkdir(join(src, 'empty'));
      await chmod(join(src, 'scripts/run.sh'), 0o755);
      const out = join(tmp, `trip.${target === 'archive-tgz' ? 'tar.gz' : 'zip'}`);
      expect((await exportSkill(src, target, { out })).status).toBe('written');
      const result = await importSkill(out, { into: library });
      expect(result.status).toBe('imported');
      const dest = join(library, 'trip');
      expect(await snapshot(dest)).toEqual(await snapshot(src));
      for (const [path, data] of Object.entries(files))
        expect((await readFile(join(dest, path))).equals(data)).toBe(true);
      expect((await lstat(join(dest, 'scripts/run.sh'))).mode & 0o777).toBe(0o755);
      expect((await lstat(join(dest, 'references/guide.md'))).mode & 0o777).toBe(0o644);
    });
  }
});

/** How many descriptors this process holds open on `path` (Linux: /proc/self/fd). */
async function openHandlesTo(path: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(join('/proc/self/fd', fd)).catch(() => '');
    if (target === path) count++;
  }
  return count;
}

describe('reader errors become refusals, and nothing is left running', () => {
  it('zip: 20 photos of 1 MiB are refused as too large, with the archive closed when the answer comes', async () => {
    const archive = join(tmp, 'photos.zip');
    await writeFile(archive, photoSkillZip());
    const before = await snapshot(tmp);
    const preview = await previewImport(archive);
    expect(preview).toMatchObject({ status: 'refused', refusal: { code: 'too-large' } });
    // Why count descriptors: entries still being read after the refusal kept the file open and
    // then read from a closed reader, which killed the process.
    expect(await openHandlesTo(archive)).toBe(0);
    const result = await importSkill(archive, { into: library });
    // Why before reading: 20 MiB of photos cannot unpack to less than the 16 MiB limit.
    expect(result.status === 'refused' && result.refusal.message).toMatch(
      /^The archive is 21 MB, larger than a skill import accepts \(it may unpack to 16\.8 MB at most\)/,
    );
    expect(await openHandlesTo(archive)).toBe(0);
    expect(await snapshot(tmp)).toEqual(before);
    // The same photos under the limit are imported: the refusal is about size, not the reader.
    const fewer = join(tmp, 'fewer.zip');
    await writeFile(fewer, photoSkillZip(6));
    expect(await importSkill(fewer, { into: library })).toMatchObject({
      status: 'imported',
      name: 'photos',
    });
    expect(await readdir(join(library, 'photos', 'img'))).toHaveLength(6);
  });

  for (const cut of truncatedTars()) {
    it(`${cut.name}: refused as damaged, nothing written`, async () => {
      const archive = join(tmp, cut.file);
      await writeFile(archive, cut.bytes);
      const before = await snapshot(tmp);
      const preview = await previewImport(archive);
      expect(preview.status === 'refused' && preview.refusal.code).toBe('damaged');
      const result = await importSkill(archive, { into: library });
      if (result.status !== 'refused') throw new Error(`not refused: ${result.status}`);
      expect(result.refusal.code).toBe('damaged');
      expect(result.refusal.message).toMatch(/^The archive is damaged: it ends too early/);
      expect(result.refusal.detail.length).toBeGreaterThan(0);
      expect(await snapshot(tmp)).toEqual(before);
      expect(await readdir(library)).toEqual([]);
    });
  }

  it('the whole tar, and one made by the tar tool (zero-padded to its record size), import', async () => {
    const whole = join(tmp, 'whole.tar');
    await writeFile(whole, ordinarySkillTar());
    expect(await importSkill(whole, { into: library })).toMatchObject({ status: 'imported' });
    const src = join(tmp, 'src', 'made');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'SKILL.md'), '---\nname: made\ndescription: d\n---\n');
    await writeFile(join(src, 'a.txt'), 'a\n');
    execFileSync('tar', ['-cf', join(tmp, 'made.tar'), '-C', join(tmp, 'src'), 'made']);
    execFileSync('tar', ['-czf', join(tmp, 'made.tgz'), '-C', join(tmp, 'src'), 'made']);
    expect(await importSkill(join(tmp, 'made.tar'), { into: library })).toMatchObject({
      status: 'imported',
      name: 'made',
    });
    expect(
      await importSkill(join(tmp, 'made.tgz'), { into: library, onConflict: 'rename' }),
    ).toMatchObject({ status: 'imported', name: 'made-2' });
  });
});

describe('what a skill leaves out is left out of archives too', () => {
  /** A skill folder with every kind of folder a skill's file set leaves out. */
  async function skillWithLeftovers(root: string): Promise<void> {
    const files: Record<string, string | Buffer> = {
      'SKILL.md': SKILL,
      'refs/a.md': 'a\n',
      'evals/cases.json': '[]\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/config': '[core]\n\tfsmonitor = "touch /tmp/pwned"\n',
      '.git/objects/ab/cdef': 'x',
      'node_modules/x/index.js': 'x',
      '__pycache__/a.cpython-312.pyc': 'x',
      '.DS_Store': 'x',
    };
    for (const [path, data] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), data);
    }
  }

  it('a zip and a tar.gz of a folder import the same files as the folder itself', async () => {
    const src = join(tmp, 'src', 'demo');
    await skillWithLeftovers(src);
    execFileSync('zip', ['-qr', join(tmp, 'demo.zip'), 'demo'], { cwd: join(tmp, 'src') });
    execFileSync('tar', ['-czf', join(tmp, 'demo.tgz'), '-C', join(tmp, 'src'), 'demo']);
    const fromFolder = join(tmp, 'lib-folder');
    const fromZip = join(tmp, 'lib-zip');
    const fromTgz = join(tmp, 'lib-tgz');
    for (const lib of [fromFolder, fromZip, fromTgz]) await mkdir(lib);
    expect((await importSkill(src, { into: fromFolder })).status).toBe('imported');
    const zip = await importSkill(join(tmp, 'demo.zip'), { into: fromZip });
    const tgz = await importSkill(join(tmp, 'demo.tgz'), { into: fromTgz });
    expect(zip.status).toBe('imported');
    expect(tgz.status).toBe('imported');
    expect(await snapshot(join(fromFolder, 'demo'))).toEqual([
      'SKILL.md:71',
      'evals/',
      'evals/cases.json:3',
      'refs/',
      'refs/a.md:2',
    ]);
    expect(await snapshot(fromZip)).toEqual(await snapshot(fromFolder));
    expect(await snapshot(fromTgz)).toEqual(await snapshot(fromFolder));
    const preview = await previewImport(join(tmp, 'demo.zip'));
    if (preview.status !== 'ok') throw new Error('not previewed');
    expect(preview.ignored).toEqual(
      expect.arrayContaining([
        'demo/.git/HEAD',
        'demo/.git/config',
        'demo/node_modules/x/index.js',
        'demo/__pycache__/a.cpython-312.pyc',
        'demo/.DS_Store',
      ]),
    );
    expect(preview.skills[0]?.files.map((f) => f.path).sort()).toEqual([
      'SKILL.md',
      'evals/cases.json',
      'refs/a.md',
    ]);
  });

  it('a skill named .git, shipping HEAD, config, objects/ and refs/, never becomes <library>/.git', async () => {
    const evil = Buffer.from(
      '---\nname: .git\ndescription: Looks like a skill. Use it never.\n---\n# Not a skill\n',
    );
    const entries = [
      { name: 'SKILL.md', data: evil },
      { name: 'HEAD', data: Buffer.from('ref: refs/heads/main\n') },
      { name: 'config', data: Buffer.from('[core]\n\tfsmonitor = "touch /tmp/pwned"\n') },
      { name: 'objects/info/packs', data: Buffer.from('\n') },
      { name: 'refs/heads/main', data: Buffer.from('0000000000000000000000000000000000000000\n') },
    ];
    for (const [file, bytes] of [
      ['evil.zip', craftZip(entries)],
      ['evil.tar.gz', gzipSync(craftTar(entries))],
    ] as const) {
      const archive = join(tmp, file);
      await writeFile(archive, bytes);
      const preview = await previewImport(archive);
      if (preview.status !== 'ok') throw new Error('not previewed');
      expect(preview.skills[0]?.name).toBe('evil');
      expect(preview.skills[0]?.nameNote).toMatch(
        /^The skill calls itself "\.git", which cannot be a folder name: it starts with a dot/,
      );
      // The preview shows and checks the SKILL.md as it will be written.
      expect(preview.skills[0]?.skillText).toContain('name: evil\n');
      expect(preview.skills[0]?.diagnostics.map((d) => d.ruleId)).not.toContain(
        'name/folder-mismatch',
      );
      const result = await importSkill(archive, {
        into: library,
        onConflict: 'replace',
        trashDir: join(tmp, 'trash'),
      });
      expect(result).toMatchObject({ status: 'imported', name: 'evil' });
      expect(await readdir(library)).toEqual(['evil']);
      // Why rewrite name: the name must equal the folder name (docs/skill-format.md §2 agentskills).
      expect(await readFile(join(library, 'evil', 'SKILL.md'), 'utf8')).toContain('name: evil\n');
    }
  });

  it('every name that is not a safe folder name falls back to the archive name, or to imported-skill', async () => {
    for (const name of [
      '..',
      '.hidden',
      'CON',
      'nul.txt',
      'Lpt1',
      'trailing.',
      'trailing ',
      'a\\b',
      'a\u001b[31mb',
      '\u202eevil',
    ]) {
      const archive = join(tmp, 'fine-name.zip');
      await writeFile(
        archive,
        craftZip([
          {
            name: 'SKILL.md',
            data: Buffer.from(`---\nname: ${JSON.stringify(name)}\ndescription: d\n---\n`),
          },
        ]),
      );
      const preview = await previewImport(archive);
      if (preview.status !== 'ok') throw new Error(`${name}: not previewed`);
      expect([name, preview.skills[0]?.name]).toEqual([name, 'fine-name']);
      expect(preview.skills[0]?.nameNote).toContain(`"${name}"`);
    }
    const archive = join(tmp, '.git.zip');
    await writeFile(
      archive,
      craftZip([{ name: 'SKILL.md', data: Buffer.from('---\nname: aux\ndescription: d\n---\n') }]),
    );
    const preview = await previewImport(archive);
    expect(preview.status === 'ok' && preview.skills[0]?.name).toBe('imported-skill');
  });
});

describe('only import sources are read', () => {
  it('a Markdown file not named SKILL.md is refused without reading it', async () => {
    const notes = join(tmp, 'private-notes.md');
    await writeFile(notes, '---\nname: x\ndescription: y\n---\nMy bank PIN is 1234\n');
    const preview = await previewImport(notes);
    expect(preview).toMatchObject({ status: 'refused', refusal: { code: 'not-a-skill-source' } });
    expect(JSON.stringify(preview)).not.toContain('1234');
    const named = join(tmp, 'loose', 'skill.md');
    await mkdir(join(tmp, 'loose'));
    await writeFile(named, SKILL);
    expect(await previewImport(named)).toMatchObject({ status: 'ok', format: 'skill-md' });
  });

  it('an unknown file is refused with the kinds accepted, echoing none of its bytes', async () => {
    const secret = join(tmp, 'id_ed25519');
    await writeFile(secret, 'SECRETKEY-material');
    const preview = await previewImport(secret);
    if (preview.status !== 'refused') throw new Error('not refused');
    expect(preview.refusal.code).toBe('not-a-skill-source');
    expect(preview.refusal.message).toMatch(/\.zip.*\.skill.*\.tar\.gz.*folder.*SKILL\.md/);
    const shown = JSON.stringify(preview);
    expect(shown).not.toContain('SECRET');
    expect(shown).not.toContain(Buffer.from('SECR').toString('hex'));
  });
});
