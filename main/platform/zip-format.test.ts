import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_DATE, writeArchive, type ArchiveItem } from './archive-writer';
import {
  checkZipLimit,
  deflateOptions,
  dosDateTime,
  ZIP_LIMITS,
  ZipFormatArchive,
  type ZipFormatOptions,
} from './zip-format';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-zip-format-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

// Why a UTF-8 locale: Info-ZIP prints names flagged UTF-8 in the locale's charset.
const UTF8_ENV = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };

/** Run an Info-ZIP tool and return its output. */
function info(tool: 'unzip' | 'zipinfo', ...args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', env: UTF8_ENV });
}

/** One line of `zipinfo`: mode, method and name of every entry. */
interface Listed {
  mode: string;
  method: string;
  date: string;
  name: string;
}

/** `zipinfo` short listing, parsed: `-rw-r--r--  2.0 unx  123 b- defN 80-Jan-01 00:00 name`. */
function zipinfo(archive: string): Map<string, Listed> {
  const rows = new Map<string, Listed>();
  for (const line of info('zipinfo', archive).split('\n')) {
    const m = /^([-dl][rwx-]{9})\s+\S+\s+unx\s+\d+\s+\S+\s+(\w+)\s+(\S+ \S+)\s(.+)$/.exec(line);
    if (m) rows.set(m[4], { mode: m[1], method: m[2], date: m[3], name: m[4] });
  }
  return rows;
}

/** Prose that deflates well. */
const TEXT = Buffer.from('A skill explains a task step by step. '.repeat(200));

/** The entries of a typical skill, one of each kind the writer handles. */
const ITEMS: ArchiveItem[] = [
  { name: 'demo/', kind: 'directory', mode: 0o755 },
  { name: 'demo/SKILL.md', kind: 'file', mode: 0o644, data: TEXT },
  { name: 'demo/empty.txt', kind: 'file', mode: 0o644, data: Buffer.alloc(0) },
  { name: 'demo/hi.txt', kind: 'file', mode: 0o644, data: Buffer.from('hi') },
  { name: 'demo/random.bin', kind: 'file', mode: 0o644, data: randomBytes(20_000) },
  { name: 'demo/références/', kind: 'directory', mode: 0o755 },
  {
    name: 'demo/références/é.md',
    kind: 'file',
    mode: 0o644,
    data: Buffer.from('# Référence\n\nÉcrit en français, 日本語も。\n'.repeat(20)),
  },
  { name: 'demo/scripts/', kind: 'directory', mode: 0o755 },
  {
    name: 'demo/scripts/run.sh',
    kind: 'file',
    mode: 0o755,
    data: Buffer.from('#!/bin/sh\necho run\n'.repeat(30)),
  },
];

/** Write entries straight through the archiver subclass; resolves with the archive bytes. */
async function viaArchiver(
  options: ZipFormatOptions,
  add: (archive: ZipFormatArchive) => void,
): Promise<Buffer> {
  const archive = new ZipFormatArchive(options);
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  add(archive);
  await Promise.all([archive.finalize(), done]);
  return Buffer.concat(chunks);
}

describe('ZipFormatArchive read by Info-ZIP', () => {
  it('passes unzip -t and lists names, modes, dates and methods as written', async () => {
    const out = join(tmp, 'demo.zip');
    await writeArchive('zip', ITEMS, out);
    const test = spawnSync('unzip', ['-t', out], { encoding: 'utf8', env: UTF8_ENV });
    expect(test.status).toBe(0);
    expect(test.stdout).toContain('No errors detected');

    const rows = zipinfo(out);
    expect([...rows.keys()]).toEqual(ITEMS.map((i) => i.name));
    expect(rows.get('demo/')).toMatchObject({ mode: 'drwxr-xr-x', method: 'stor' });
    expect(rows.get('demo/scripts/')).toMatchObject({ mode: 'drwxr-xr-x', method: 'stor' });
    expect(rows.get('demo/SKILL.md')).toMatchObject({ mode: '-rw-r--r--', method: 'defN' });
    expect(rows.get('demo/scripts/run.sh')).toMatchObject({ mode: '-rwxr-xr-x', method: 'defN' });
    expect(rows.get('demo/références/é.md')).toMatchObject({ mode: '-rw-r--r--', method: 'defN' });
    // Stored: empty, too small to gain ("hi" deflates to 4 bytes), random (the writer's entropy check).
    expect(rows.get('demo/empty.txt')?.method).toBe('stor');
    expect(rows.get('demo/hi.txt')?.method).toBe('stor');
    expect(rows.get('demo/random.bin')?.method).toBe('stor');
    for (const row of rows.values()) expect(row.date).toBe('80-Jan-01 00:00');
  });

  it('extracts every file with the same bytes and modes, UTF-8 names included', async () => {
    const out = join(tmp, 'demo.zip');
    await writeArchive('zip', ITEMS, out);
    const dest = join(tmp, 'x');
    execFileSync('unzip', ['-q', out, '-d', dest], { env: UTF8_ENV });
    for (const item of ITEMS) {
      if (item.kind === 'directory') {
        expect((await stat(join(dest, item.name))).isDirectory()).toBe(true);
        continue;
      }
      expect((await readFile(join(dest, item.name))).equals(item.data as Buffer)).toBe(true);
      expect((await stat(join(dest, item.name))).mode & 0o777).toBe(item.mode);
    }
  });

  it('says Unix, version 2.0, UTF-8 names and no data descriptor in the verbose listing', async () => {
    const out = join(tmp, 'demo.zip');
    await writeArchive('zip', ITEMS, out);
    const verbose = info('unzip', '-Z', '-v', out);
    expect(verbose).toMatch(/file system or operating system of origin:\s+Unix/);
    expect(verbose).toMatch(/version of encoding software:\s+2\.0/);
    expect(verbose).toMatch(/file last modified on \(DOS date\/time\):\s+1980 Jan 1 00:00:00/);
    // Sizes and CRC in the local header, so no data descriptor ("extended local header").
    expect(verbose).toMatch(/extended local header:\s+no/);
    expect(verbose).not.toMatch(/extended local header:\s+yes/);
    expect(verbose).toMatch(/Unix file attributes \(100755 octal\):\s+-rwxr-xr-x/);
    expect(verbose).toMatch(
      /Unix file attributes \(040755 octal\):\s+drwxr-xr-x\s+MS-DOS file attributes \(10 hex\):\s+dir/,
    );
    // Bit 11 is reported as "UTF-8" by Debian's unzip; the raw name check below does not depend on it.
    const raw = await readFile(out);
    expect(raw.includes(Buffer.from('demo/références/é.md', 'utf8'))).toBe(true);
    expect(raw.readUInt16LE(6) & 0x0800).toBe(0x0800);
  });

  it('stores a file whose deflated form would be larger even when not told to', async () => {
    const random = randomBytes(5_000);
    const bytes = await viaArchiver({}, (a) => {
      a.append(random, { name: 'r.bin', date: FIXED_DATE, mode: 0o644, store: false });
      a.append(TEXT, { name: 't.md', date: FIXED_DATE, mode: 0o644, store: true });
    });
    const out = join(tmp, 'r.zip');
    await writeFile(out, bytes);
    const rows = zipinfo(out);
    expect(rows.get('r.bin')?.method).toBe('stor');
    expect(rows.get('t.md')?.method).toBe('stor');
    expect(execFileSync('unzip', ['-p', out, 'r.bin']).equals(random)).toBe(true);
    // Stored entry: local header (30) + name + the bytes as they are.
    expect(bytes.length).toBeGreaterThan(random.length + TEXT.length);
  });

  it('writes entries larger than one output chunk and stream sources', async () => {
    const big = randomBytes(1_500_000);
    const streamed = Buffer.from('from a stream\n'.repeat(1_000));
    const bytes = await viaArchiver({}, (a) => {
      a.append(TEXT, { name: 'a.md', date: FIXED_DATE });
      a.append(big, { name: 'big.bin', date: FIXED_DATE, store: true });
      a.append(Readable.from([streamed.subarray(0, 5_000), streamed.subarray(5_000)]), {
        name: 'streamed.txt',
        date: FIXED_DATE,
      });
      a.append(TEXT, { name: 'z.md', date: FIXED_DATE });
    });
    const out = join(tmp, 'big.zip');
    await writeFile(out, bytes);
    expect(spawnSync('unzip', ['-t', out]).status).toBe(0);
    expect(
      execFileSync('unzip', ['-p', out, 'big.bin'], { maxBuffer: 4 * 1024 * 1024 }).equals(big),
    ).toBe(true);
    expect(execFileSync('unzip', ['-p', out, 'streamed.txt']).equals(streamed)).toBe(true);
    expect(execFileSync('unzip', ['-p', out, 'z.md']).equals(TEXT)).toBe(true);
  });

  it('refuses symbolic links', async () => {
    await expect(viaArchiver({}, (a) => a.symlink('link', 'target'))).rejects.toThrow();
  });
});

describe('reproducible bytes', () => {
  it('gives byte-identical archives for the same input', async () => {
    await writeArchive('zip', ITEMS, join(tmp, 'one.zip'));
    await writeArchive('zip', ITEMS, join(tmp, 'two.zip'));
    const [one, two] = await Promise.all([
      readFile(join(tmp, 'one.zip')),
      readFile(join(tmp, 'two.zip')),
    ]);
    expect(one.equals(two)).toBe(true);
  });

  it('changes when one byte of one file changes', async () => {
    const changed = ITEMS.map((i) =>
      i.name === 'demo/hi.txt' ? { ...i, data: Buffer.from('ho') } : i,
    );
    const a = await writeArchive('zip', ITEMS, join(tmp, 'a.zip'));
    const b = await writeArchive('zip', changed, join(tmp, 'b.zip'));
    expect(a.sha256).not.toBe(b.sha256);
  });

  it('reads dates in UTC and clamps them to what a DOS date can hold', () => {
    const zone = process.env.TZ;
    // Why a far zone: the machine's own time zone must not change the bytes (UTC+14 moves the day).
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      expect(dosDateTime(FIXED_DATE)).toEqual({ date: 0x21, time: 0 });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    expect(dosDateTime(new Date(Date.UTC(2024, 5, 15, 13, 45, 31)))).toEqual({
      date: (44 << 9) | (6 << 5) | 15,
      time: (13 << 11) | (45 << 5) | 15,
    });
    expect(dosDateTime(new Date(Date.UTC(1970, 0, 1)))).toEqual({ date: 0x21, time: 0 });
    expect(dosDateTime(new Date(Date.UTC(2200, 0, 1)))).toEqual({
      date: (127 << 9) | (12 << 5) | 31,
      time: (23 << 11) | (59 << 5) | 29,
    });
  });
});

describe('deflate options fitted to small files', () => {
  it('give the same bytes as zlib defaults, from tiny to larger than the window', () => {
    const words = 'skill agent notes références 日本語 review draft summary export import'.split(
      ' ',
    );
    for (const size of [
      1, 63, 64, 200, 250, 262, 263, 511, 512, 1_000, 3_000, 8_000, 16_384, 32_000, 40_000, 100_000,
    ]) {
      let text = '';
      for (let i = 0; text.length < size; i++)
        text += `${words[(i * 7 + (i >> 3)) % words.length]}${i % 11 === 10 ? '\n' : ' '}`;
      for (const data of [Buffer.from(text).subarray(0, size), randomBytes(size)]) {
        const fitted = deflateRawSync(data, deflateOptions(6, data.length));
        expect(fitted.equals(deflateRawSync(data, { level: 6 }))).toBe(true);
      }
    }
  });
});

describe('zip64 limits', () => {
  it('allows exactly the zip limits and refuses one more, with a plain sentence', () => {
    expect(() => checkZipLimit('entries', ZIP_LIMITS.maxEntries)).not.toThrow();
    expect(() => checkZipLimit('entries', 65_536)).toThrow('more than 65,535 files and folders');
    expect(() => checkZipLimit('bytes', 0xfffffffe)).not.toThrow();
    expect(() => checkZipLimit('bytes', 0xffffffff)).toThrow('larger than 4 GiB');
  });

  it('refuses the entry past the entry limit and finishes no archive', async () => {
    const chunks: Buffer[] = [];
    const archive = new ZipFormatArchive({ limits: { maxEntries: 3 } });
    archive.on('data', (chunk: Buffer) => chunks.push(chunk));
    const errors: Error[] = [];
    archive.on('error', (error) => errors.push(error));
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      archive.append(Buffer.from(name), { name, date: FIXED_DATE });
    await expect(archive.finalize()).rejects.toThrow('more than 3 files and folders');
    expect(errors[0]?.message).toMatch(
      /^The archive would hold more than 3 files and folders, the most a zip file can list without the zip64 extension/,
    );
    // No end of central directory record: the refused archive cannot pass for a whole one.
    expect(Buffer.concat(chunks).includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(false);
  });

  it('refuses an entry that would pass the size limit', async () => {
    const archive = new ZipFormatArchive({ limits: { maxBytes: 1_000 } });
    archive.on('data', () => undefined);
    const failed = new Promise<Error>((resolve) => archive.on('error', resolve));
    archive.append(randomBytes(2_000), { name: 'big.bin', date: FIXED_DATE, store: true });
    void archive.finalize().catch(() => undefined);
    expect((await failed).message).toContain('larger than 1,000 bytes');
  });
});
