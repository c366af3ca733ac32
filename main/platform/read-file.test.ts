import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFsError } from './fs-errors';
import { walkTree } from './walk';
import {
  FileTooLargeError,
  NotARegularFileError,
  NotTheListedFileError,
  readBoundedSync,
  readChunksSync,
  readRegularFileSync,
  type ListedFile,
} from './read-file';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-read-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a walk's lstat says of a path now. */
const listing = (path: string): ListedFile => {
  const info = lstatSync(path);
  return { size: info.size, mtimeMs: info.mtimeMs };
};

describe('reading a regular file', () => {
  it('gives the bytes and what fstat says of them, with or without a listing', () => {
    const path = join(dir, 'notes.md');
    writeFileSync(path, 'hello\n', { mode: 0o755 });
    const listed = listing(path);
    for (const read of [readRegularFileSync(path, 1024), readRegularFileSync(path, 1024, listed)]) {
      expect(read.bytes?.toString()).toBe('hello\n');
      expect(read.size).toBe(6);
      expect(read.mtimeMs).toBe(listed.mtimeMs);
      expect(read.ino).toBe(lstatSync(path).ino);
      expect(read.executable).toBe(process.platform !== 'win32');
    }
  });

  it('reads an empty file as no bytes, not as a missing one', () => {
    const path = join(dir, 'empty.md');
    writeFileSync(path, '');
    expect(readRegularFileSync(path, 1024, listing(path)).bytes?.length).toBe(0);
  });

  it('describes a file over the limit without reading it', () => {
    const path = join(dir, 'big.bin');
    writeFileSync(path, Buffer.alloc(2048, 1));
    for (const read of [
      readRegularFileSync(path, 1024),
      readRegularFileSync(path, 1024, listing(path)),
    ]) {
      expect(read.bytes).toBeUndefined();
      expect(read.size).toBe(2048);
    }
  });
});

describe('a file that is not what the listing said', () => {
  it('grew since it was listed: the bytes are the whole file as it is now', () => {
    const path = join(dir, 'grew.md');
    writeFileSync(path, 'short');
    const listed = listing(path);
    writeFileSync(path, 'a good deal longer than before');
    const read = readRegularFileSync(path, 1024, listed);
    expect(read.bytes?.toString()).toBe('a good deal longer than before');
    expect(read.size).toBe(30);
  });

  it('shrank since it was listed: the bytes are the whole file as it is now', () => {
    const path = join(dir, 'shrank.md');
    writeFileSync(path, 'a good deal longer than after');
    const listed = listing(path);
    writeFileSync(path, 'short');
    expect(readRegularFileSync(path, 1024, listed).bytes?.toString()).toBe('short');
  });

  it('was rewritten at the same size: the time tells, and the bytes are the new ones', () => {
    const path = join(dir, 'same-size.md');
    writeFileSync(path, 'first');
    utimesSync(path, 1_000_000, 1_000_000);
    const listed = listing(path);
    writeFileSync(path, 'later');
    const read = readRegularFileSync(path, 1024, listed);
    expect(read.bytes?.toString()).toBe('later');
    expect(read.mtimeMs).not.toBe(listed.mtimeMs);
  });

  it('grew past the limit since it was listed: described, not read', () => {
    const path = join(dir, 'now-big.bin');
    writeFileSync(path, 'small');
    const listed = listing(path);
    writeFileSync(path, Buffer.alloc(4096, 2));
    const read = readRegularFileSync(path, 1024, listed);
    expect(read.bytes).toBeUndefined();
    expect(read.size).toBe(4096);
  });

  it('became a folder: refused as not a regular file', () => {
    const path = join(dir, 'swapped');
    writeFileSync(path, 'file');
    const listed = listing(path);
    rmSync(path);
    mkdirSync(path);
    expect(() => readRegularFileSync(path, 1024, listed)).toThrow(NotARegularFileError);
  });

  it('became a link: refused, never followed', () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'secret');
    const path = join(dir, 'linked.md');
    writeFileSync(path, 'secret');
    const listed = listing(path);
    rmSync(path);
    symlinkSync(outside, path);
    expect(() => readRegularFileSync(path, 1024, listed)).toThrow(/ELOOP|symbolic|link/i);
  });

  it('became a pipe: refused at once, never waited on', () => {
    const path = join(dir, 'pipe.md');
    writeFileSync(path, 'x');
    const listed = listing(path);
    rmSync(path);
    execFileSync('mkfifo', [path]);
    expect(() => readRegularFileSync(path, 1024, listed)).toThrow(NotARegularFileError);
  });

  it('a folder on its way became a link since the walk: refused, even to a same-looking file', async () => {
    // The skill as walked: refs/guide.md inside it. Then the folder is swapped for a link to a
    // folder outside whose guide.md has the same size and time: O_NOFOLLOW guards only the last
    // name, so only the file's identity tells them apart.
    const skill = join(dir, 'skill');
    mkdirSync(join(skill, 'refs'), { recursive: true });
    writeFileSync(join(skill, 'refs', 'guide.md'), 'listed\n');
    const tree = await walkTree(skill);
    const listed = tree.children.get('refs')?.find((e) => e.name === 'guide.md');
    expect(listed?.ino).toBe(lstatSync(join(skill, 'refs', 'guide.md')).ino);
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'guide.md'), 'secret\n');
    const when = new Date(listed!.mtimeMs!);
    utimesSync(join(outside, 'guide.md'), when, when);
    rmSync(join(skill, 'refs'), { recursive: true });
    symlinkSync(outside, join(skill, 'refs'));
    const path = join(skill, 'refs', 'guide.md');
    expect(() => readRegularFileSync(path, 1024, listed)).toThrow(NotTheListedFileError);
    expect(() => readBoundedSync(path, 1024, listed)).toThrow(/not the file that was listed/);
    // Without a listing there is nothing to compare with: the caller's own link policy applies.
    expect(readRegularFileSync(path, 1024).bytes?.toString()).toBe('secret\n');
  });

  it('was replaced by another file since the walk (a save by rename): refused until walked again', async () => {
    const path = join(dir, 'notes.md');
    writeFileSync(path, 'old\n');
    const listed = (await walkTree(dir)).children.get('')?.find((e) => e.name === 'notes.md');
    writeFileSync(join(dir, 'notes.tmp'), 'new\n');
    execFileSync('mv', [join(dir, 'notes.tmp'), path]);
    expect(() => readRegularFileSync(path, 1024, listed)).toThrow(NotTheListedFileError);
    const again = (await walkTree(dir)).children.get('')?.find((e) => e.name === 'notes.md');
    expect(readRegularFileSync(path, 1024, again).bytes?.toString()).toBe('new\n');
  });

  it('vanished: the system says so', () => {
    const path = join(dir, 'gone.md');
    writeFileSync(path, 'x');
    const listed = listing(path);
    rmSync(path);
    expect(() => readRegularFileSync(path, 1024, listed)).toThrow(/ENOENT/);
  });
});

describe('reading a file whole within a bound (readBoundedSync)', () => {
  it('gives the bytes of a file within the bound', () => {
    const path = join(dir, 'SKILL.md');
    writeFileSync(path, '---\nname: a\n---\n');
    expect(readBoundedSync(path, 1024).toString()).toBe('---\nname: a\n---\n');
    expect(readBoundedSync(path, 1024, listing(path)).toString()).toBe('---\nname: a\n---\n');
  });

  it('refuses a larger file unread, with its size, in words a person understands', async () => {
    const path = join(dir, 'SKILL.md');
    writeFileSync(path, '---\nname: a\n---\n');
    // Why sparse: 3 GiB that take no disk; reading them whole would take seconds and the memory.
    await truncate(path, 3 * 1024 ** 3);
    let thrown: unknown;
    try {
      readBoundedSync(path, 16 * 1024 * 1024);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FileTooLargeError);
    expect(thrown).toMatchObject({ code: 'EFBIG', size: 3 * 1024 ** 3, max: 16 * 1024 * 1024 });
    expect(describeFsError(thrown, path, 'read')).toMatchObject({
      code: 'too-large',
      message: `${path} is too large (3.2 GB); Skillbench reads files of up to 16.8 MB, so it did not read it.`,
    });
  });

  it('refuses a pipe at once and never follows a link (a link to /dev/zero would never end)', () => {
    const pipe = join(dir, 'pipe.md');
    execFileSync('mkfifo', [pipe]);
    expect(() => readBoundedSync(pipe, 1024)).toThrow(NotARegularFileError);
    const link = join(dir, 'zero.md');
    symlinkSync('/dev/zero', link);
    expect(() => readBoundedSync(link, 1024)).toThrow(/ELOOP|symbolic|link/i);
  });
});

describe('reading a file a piece at a time (readChunksSync)', () => {
  it('hands over every byte in order, in pieces no larger than asked', () => {
    const path = join(dir, 'data.bin');
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    writeFileSync(path, data);
    const pieces: Buffer[] = [];
    readChunksSync(path, (c) => pieces.push(Buffer.from(c)), 4096);
    expect(pieces.map((p) => p.length)).toEqual([4096, 4096, 1808]);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
  });

  it('refuses a pipe at once and never follows a link', () => {
    const pipe = join(dir, 'pipe.bin');
    execFileSync('mkfifo', [pipe]);
    expect(() => readChunksSync(pipe, () => undefined)).toThrow(NotARegularFileError);
    const link = join(dir, 'zero.bin');
    symlinkSync('/dev/zero', link);
    expect(() => readChunksSync(link, () => undefined)).toThrow(/ELOOP|symbolic|link/i);
  });
});
