import { randomBytes } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
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
    message: /more than 16 MiB/,
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
    message: /more than 16 MiB/,
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
    // Why: setuid/setgid must be cleared on import (SKILLS-OVER-MCP.md §6).
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
