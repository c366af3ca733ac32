import { createReadStream } from 'node:fs';
import { lstat, open, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip, inflateRaw, inflateRawSync } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import yauzl from 'yauzl';
import {
  checkEntryName,
  findCollision,
  type ImportLimits,
  type Refusal,
  type SourceFormat,
} from '../../shared/projection';
import { leftOutByPath } from '../../shared/skill/file-set';
import { formatBytes } from '../../shared/text/bytes';
import { readRegularFileSync } from '../platform/read-file';
import { skillEntries, walkSkillTree } from '../skill-folder';

/** One entry read from an import source, checked and held in memory. */
export interface ReadEntry {
  /** The name as written in the source. */
  raw: string;
  /** Safe relative path (NFC, `/`-separated). */
  path: string;
  directory: boolean;
  /** Bytes (files). */
  data: Buffer;
  /** 0o644 or 0o755: setuid, setgid and sticky bits are never kept. */
  mode: number;
}

/** What kind of source it was. */

/** The checked contents of a source, or a refusal. */
export type ReadSourceResult =
  | { ok: true; format: SourceFormat; entries: ReadEntry[]; ignored: string[]; nameHint?: string }
  | { ok: false; refusal: Refusal };

/** Carries a refusal out of stream callbacks. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/**
 * Below this many inflated bytes the ratio is not checked. Why: a small file of repeated text
 * legitimately compresses more than 100:1; the size caps bound the damage of such files, the
 * ratio check is for bombs (docs/skills-over-mcp.md §6).
 */
const RATIO_FLOOR = 64 * 1024;

/**
 * True when an entry is, or lies inside, something a skill never holds (the file set's `never`
 * paths: version control, OS litter, dependency folders, caches), asked for every folder above
 * the entry and the entry itself. Why every folder: an archive lists `.git/config` without
 * necessarily listing `.git/`, and the folder reader never enters such a folder, so an archive
 * leaves out exactly what importing the same folder leaves out. What is only withheld when the
 * skill is shared (the root `evals/`, a `.env`) is the author's and is kept.
 */
function leftOut(path: string, directory: boolean): boolean {
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1))
    if (leftOutByPath(path.slice(0, at), true)?.scope === 'never') return true;
  return leftOutByPath(path, directory)?.scope === 'never';
}

/** Mode bits kept: only "executable or not". Why: setuid/setgid from an archive must never reach disk (§6). */
function safeMode(mode: number | undefined): number {
  return mode !== undefined && (mode & 0o111) !== 0 ? 0o755 : 0o644;
}

/** Counts entries and bytes against the limits while reading. */
class Budget {
  files = 0;
  entries = 0;
  bytes = 0;
  constructor(readonly limits: ImportLimits) {}

  /** Count one entry (files and folders: a flood of empty folders is refused as well). */
  entry(directory: boolean, raw: string): void {
    this.entries++;
    if (!directory) this.files++;
    if (this.files > this.limits.maxFiles || this.entries > this.limits.maxFiles * 2 + 16) {
      throw new RefusalError({
        code: 'too-many-files',
        message: `The archive holds more than ${this.limits.maxFiles} files, the most a skill import accepts. If you trust it, raise the limit.`,
        detail: `file count > ${this.limits.maxFiles}`,
        entry: raw,
      });
    }
  }

  /** Count inflated bytes as they arrive. */
  add(n: number, raw: string): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxBytes) {
      throw new RefusalError({
        code: 'too-large',
        message: `The archive unpacks to more than ${formatBytes(this.limits.maxBytes)}, the most a skill import accepts. If you trust it, raise the limit.`,
        detail: `unpacked bytes > ${this.limits.maxBytes} (counted while inflating)`,
        entry: raw,
      });
    }
  }
}

/** The ratio refusal. */
function ratioRefusal(
  limits: ImportLimits,
  inflated: number,
  compressed: number,
  raw?: string,
): RefusalError {
  return new RefusalError({
    code: 'compression-ratio',
    message: `The archive expands far more than normal files do (over ${limits.maxRatio} to 1). This is how "zip bombs" fill a disk, so it was not unpacked.`,
    detail: `${inflated} inflated bytes from ${compressed} compressed bytes${raw ? ` in ${raw}` : ' overall'} (counted while inflating)`,
    ...(raw ? { entry: raw } : {}),
  });
}

/** Check a name and keep the entry, or throw the refusal. */
function accept(
  entries: ReadEntry[],
  ignored: string[],
  raw: string,
  directory: boolean,
  data: Buffer,
  mode: number | undefined,
  limits: ImportLimits,
): void {
  const checked = checkEntryName(directory && !raw.endsWith('/') ? `${raw}/` : raw, limits);
  if (!checked.ok) throw new RefusalError(checked.refusal);
  if (checked.path === '') return;
  if (leftOut(checked.path, checked.directory || directory)) {
    ignored.push(checked.path);
    return;
  }
  entries.push({
    raw,
    path: checked.path,
    directory: checked.directory || directory,
    data,
    mode: safeMode(mode),
  });
}

/** What an import reads from, in the refusals' words: inside an archive or a folder, or the path given itself. */
type SourceKind = 'archive' | 'folder' | 'given';

/** Refusal for links. */
function linkRefusal(raw: string, hard: boolean, from: SourceKind = 'archive'): RefusalError {
  const link = hard ? 'hard link' : 'shortcut (symbolic link)';
  return new RefusalError({
    code: 'link',
    message:
      from === 'given'
        ? `${raw} is a ${link}. Give the file or folder it leads to, so that what is imported is what you chose.`
        : from === 'folder'
          ? `The folder contains a ${link} (${raw}). A link can lead to files outside the skill, so a folder with links is not imported; put the file itself there instead.`
          : `The archive contains a ${link} (${raw}). Links can make an unpacker write or read files outside the chosen folder, so archives with links are not imported.`,
    detail: `${hard ? 'hard link' : 'symlink'} entry`,
    entry: raw,
  });
}

/** Refusal for devices, FIFOs, sockets. */
function specialRefusal(raw: string, what: string, from: SourceKind = 'archive'): RefusalError {
  return new RefusalError({
    code: 'special-file',
    message:
      from === 'given'
        ? `${raw} is a ${what}, not an archive, a folder or a SKILL.md, so nothing was read from it.`
        : from === 'folder'
          ? `The folder contains a ${what} (${raw}), which is not a normal file, so the folder is not imported.`
          : `The archive contains a ${what} (${raw}), which is not a normal file. Such entries are never unpacked.`,
    detail: `${what} entry`,
    entry: raw,
  });
}

/** Decode a zip name: UTF-8 when flagged or valid, else Latin-1 (the byte values, never lost). */
function decodeZipName(raw: Buffer, utf8Flag: boolean): string {
  if (utf8Flag) return raw.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return raw.toString('latin1');
  }
}

/** File-type bits of a Unix mode. */
const S_IFMT = 0o170000;

/**
 * The most bytes a zip may have on disk to be read: the unpacked limit, what deflate can add to
 * data that does not compress (under 1%), up to 1 KiB of headers per entry the limits allow, and
 * the longest archive comment. Why a cap on the file: the whole archive is read into memory.
 */
function zipFileCap(limits: ImportLimits): number {
  return (
    limits.maxBytes + Math.ceil(limits.maxBytes / 100) + (limits.maxFiles * 2 + 16) * 1024 + 65_557
  );
}

/**
 * yauzl's view of an archive held in memory. Why not `yauzl.fromBuffer`: its reads go through a
 * pair of streams each (three reads per entry), which made a 2,000-file import spend a second in
 * stream machinery; here a read is a copy (yauzl documents `read` as the method to override).
 * Why in memory at all: an open file's read that completes after a refusal stopped its entry
 * killed the process; a buffer has nothing to close.
 */
class MemoryReader extends yauzl.RandomAccessReader {
  constructor(private readonly bytes: Buffer) {
    super();
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    // Why the guard: a hostile header may point past the end; that is a short read, as fs.read gives.
    const end = Math.min(position + length, this.bytes.length);
    const copied = position < end ? this.bytes.copy(buffer, offset, position, end) : 0;
    // Why on the next tick: yauzl expects fs.read's asynchronous callback.
    process.nextTick(callback, null, copied);
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from([this.bytes.subarray(start, end)]);
  }
}

/** Read a zip with yauzl: central directory names, counting real inflated bytes per entry. */
async function readZip(
  path: string,
  limits: ImportLimits,
  archiveSize: number,
): Promise<{ entries: ReadEntry[]; ignored: string[] }> {
  const cap = zipFileCap(limits);
  if (archiveSize > cap)
    throw new RefusalError({
      code: 'too-large',
      message: `The archive is ${formatBytes(archiveSize)}, larger than a skill import accepts (it may unpack to ${formatBytes(limits.maxBytes)} at most). If you trust it, raise the limit.`,
      detail: `archive size ${archiveSize} bytes > ${cap} (checked before reading)`,
    });
  const bytes = await readFile(path);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      new MemoryReader(bytes),
      bytes.length,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
  try {
    return await readZipEntries(zip, bytes, limits);
  } finally {
    zip.close();
  }
}

/** Where an entry's data starts, from its local header (yauzl checks the signature and bounds). */
function dataStart(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<number> {
  return new Promise((resolve, reject) => {
    (
      zip as unknown as {
        readLocalFileHeader(
          entry: yauzl.Entry,
          options: { minimal: true },
          callback: (err: Error | null, header?: { fileDataStart: number }) => void,
        ): void;
      }
    ).readLocalFileHeader(entry, { minimal: true }, (err, header) =>
      err || !header ? reject(err ?? new Error('no local header')) : resolve(header.fileDataStart),
    );
  });
}

/** Entries above this many compressed bytes inflate off the main thread. */
const INFLATE_IN_BACKGROUND = 256 * 1024;

const inflateRawAsync = promisify(inflateRaw);

/**
 * Inflate one entry to at most `allowance` bytes. Returns the bytes, or `undefined` when there
 * are more (the caller refuses). Why a bound on the output rather than a count afterwards: a
 * bomb must never be inflated past the limit, not even in memory.
 */
async function inflateBounded(data: Buffer, allowance: number): Promise<Buffer | undefined> {
  const options = { maxOutputLength: Math.max(1, allowance + 1) };
  try {
    const out =
      data.length > INFLATE_IN_BACKGROUND
        ? await inflateRawAsync(data, options)
        : inflateRawSync(data, options);
    return out.length > allowance ? undefined : out;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw error;
  }
}

/** The two passes over a zip in memory: every name and type first, then the inflation. */
async function readZipEntries(
  zip: yauzl.ZipFile,
  bytes: Buffer,
  limits: ImportLimits,
): Promise<{ entries: ReadEntry[]; ignored: string[] }> {
  const archiveSize = bytes.length;
  const budget = new Budget(limits);
  const entries: ReadEntry[] = [];
  const ignored: string[] = [];
  const pending: Array<{ entry: yauzl.Entry; raw: string; mode: number }> = [];
  // Why check the declared count first: a central directory can announce millions of entries.
  if (zip.entryCount > limits.maxFiles * 2 + 16) {
    throw new RefusalError({
      code: 'too-many-files',
      message: `The archive holds ${zip.entryCount} entries, more than a skill import accepts (${limits.maxFiles} files). If you trust it, raise the limit.`,
      detail: `central directory entry count ${zip.entryCount}`,
    });
  }
  for (;;) {
    const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
      const onEntry = (e: yauzl.Entry): void => {
        cleanup();
        resolve(e);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(undefined);
      };
      const onError = (e: Error): void => {
        cleanup();
        reject(e);
      };
      const cleanup = (): void => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
    if (!entry) break;
    const rawName = entry.fileName as unknown as Buffer;
    const raw = decodeZipName(rawName, (entry.generalPurposeBitFlag & 0x800) !== 0);
    // Why: the Info-ZIP Unicode Path field (0x7075) is what many unzippers use as the name;
    // it must not differ from the checked name, or two tools would unpack different paths.
    for (const field of entry.extraFields) {
      if (field.id === 0x7075 && field.data.length >= 6 && field.data.readUInt8(0) === 1) {
        const alt = field.data.subarray(5).toString('utf8');
        if (alt.normalize('NFC') !== raw.normalize('NFC')) {
          throw new RefusalError({
            code: 'unsafe-name',
            message: `The archive gives one file two different names (${raw} and ${alt}), a trick to show one name and unpack another.`,
            detail: 'Unicode Path extra field differs from the file name',
            entry: raw,
          });
        }
      }
    }
    const unix = entry.versionMadeBy >> 8 === 3;
    const mode = unix ? entry.externalFileAttributes >>> 16 : 0;
    const type = mode & S_IFMT;
    if (type === 0o120000) throw linkRefusal(raw, false);
    if (type === 0o020000 || type === 0o060000) throw specialRefusal(raw, 'device node');
    if (type === 0o010000) throw specialRefusal(raw, 'named pipe (FIFO)');
    if (type === 0o140000) throw specialRefusal(raw, 'socket');
    const directory =
      raw.endsWith('/') ||
      raw.endsWith('\\') ||
      type === 0o040000 ||
      (entry.externalFileAttributes & 0x10) !== 0;
    budget.entry(directory, raw);
    // Why check the name before reading: a refused name must not cost an inflation.
    const checked = checkEntryName(directory && !/[/\\]$/.test(raw) ? `${raw}/` : raw, limits);
    if (!checked.ok) throw new RefusalError(checked.refusal);
    if (directory) {
      accept(entries, ignored, raw, true, Buffer.alloc(0), mode, limits);
      continue;
    }
    // Why before the encryption and method checks: what is left out is never read at all.
    if (checked.path !== '' && leftOut(checked.path, false)) {
      ignored.push(checked.path);
      continue;
    }
    if (entry.generalPurposeBitFlag & 0x1) {
      throw new RefusalError({
        code: 'encrypted',
        message: `The archive is password-protected (${raw}); Skillbench imports only unencrypted archives.`,
        detail: 'encrypted entry',
        entry: raw,
      });
    }
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new RefusalError({
        code: 'unsupported',
        message: `The archive uses a compression method Skillbench does not read (${raw}). Re-create it with an ordinary zip tool.`,
        detail: `compression method ${entry.compressionMethod}`,
        entry: raw,
      });
    }
    pending.push({ entry, raw, mode });
  }
  // Second pass, only once every name and type passed: inflate each entry, never past what the
  // shared budget and the ratio limit still allow, and count its real bytes.
  const datas: Buffer[] = [];
  for (const { entry, raw } of pending) {
    const start = await dataStart(zip, entry);
    const stored = bytes.subarray(start, start + entry.compressedSize);
    const ratioAllowance = Math.max(
      RATIO_FLOOR,
      limits.maxRatio * Math.max(entry.compressedSize, 1),
    );
    const budgetAllowance = limits.maxBytes - budget.bytes;
    let data: Buffer | undefined;
    if (entry.compressionMethod === 0) {
      data =
        stored.length > Math.min(ratioAllowance, budgetAllowance) ? undefined : Buffer.from(stored);
    } else {
      data = await inflateBounded(stored, Math.min(ratioAllowance, budgetAllowance));
    }
    if (data === undefined) {
      // More than allowed: the refusal names the limit that was reached first.
      if (budgetAllowance <= ratioAllowance) budget.add(budgetAllowance + 1, raw);
      throw ratioRefusal(limits, ratioAllowance + 1, entry.compressedSize, raw);
    }
    if (data.length !== entry.uncompressedSize)
      throw new Error(
        `${raw}: the archive says ${entry.uncompressedSize} bytes, the data holds ${data.length}`,
      );
    budget.add(data.length, raw);
    datas.push(data);
  }
  pending.forEach(({ raw, mode }, i) =>
    accept(entries, ignored, raw, false, datas[i], mode || undefined, limits),
  );
  if (budget.bytes > RATIO_FLOOR && budget.bytes > limits.maxRatio * Math.max(archiveSize, 1))
    throw ratioRefusal(limits, budget.bytes, archiveSize);
  return { entries, ignored };
}

/** Read a tar or tar.gz with tar-stream, counting the real inflated bytes of the whole stream. */
async function readTar(
  path: string,
  gzip: boolean,
  limits: ImportLimits,
  archiveSize: number,
): Promise<{ entries: ReadEntry[]; ignored: string[] }> {
  const budget = new Budget(limits);
  const entries: ReadEntry[] = [];
  const ignored: string[] = [];
  // Why a cap on the raw tar stream too: headers, padding and pax records are not file bytes,
  // yet a bomb can be made of them. Allow the file budget plus headers for every entry.
  const streamCap = limits.maxBytes + (limits.maxFiles * 2 + 16) * 3 * 512 + 1024 * 1024;
  const source = createReadStream(path);
  const gunzip = gzip ? createGunzip() : undefined;
  const extract = tarExtract();
  let compressedRead = 0;
  let streamBytes = 0;
  /** Offset in the tar stream where the last entry's blocks end. */
  let lastEntryEnd = 0;

  await new Promise<void>((resolve, reject) => {
    // The first error wins and tears everything down; errors the torn-down streams emit
    // afterwards land here too and are ignored.
    let settled = false;
    const stop = (error: unknown): void => {
      if (settled) return;
      settled = true;
      source.destroy();
      gunzip?.destroy();
      counter.destroy();
      extract.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (settled) return done();
        streamBytes += chunk.length;
        if (streamBytes > streamCap) {
          stop(
            new RefusalError({
              code: 'too-large',
              message: `The archive unpacks to more than ${formatBytes(limits.maxBytes)}, the most a skill import accepts. If you trust it, raise the limit.`,
              detail: `tar stream bytes > ${streamCap} (counted while inflating)`,
            }),
          );
          return done();
        }
        if (
          gzip &&
          streamBytes > RATIO_FLOOR * 16 &&
          streamBytes > limits.maxRatio * Math.max(compressedRead, 1)
        ) {
          stop(ratioRefusal(limits, streamBytes, compressedRead));
          return done();
        }
        done(null, chunk);
      },
    });
    extract.on('entry', (header, stream, next) => {
      const raw = header.name;
      const fail = (error: unknown): void => {
        stream.resume();
        stop(error);
      };
      // Why: a tar cut inside this entry's data ends the stream with an error; unheard, it kills the process.
      stream.on('error', fail);
      // Where this entry's blocks end: its data, padded to whole 512-byte blocks.
      const size = header.type === 'directory' ? 0 : (header.size ?? 0);
      lastEntryEnd = (header as { byteOffset?: number }).byteOffset ?? streamBytes;
      lastEntryEnd += Math.ceil(size / 512) * 512;
      try {
        switch (header.type as string) {
          case 'symlink':
            throw linkRefusal(raw, false);
          case 'link':
            throw linkRefusal(raw, true);
          case 'character-device':
          case 'block-device':
            throw specialRefusal(raw, 'device node');
          case 'fifo':
            throw specialRefusal(raw, 'named pipe (FIFO)');
          case 'pax-global-header':
            stream.resume();
            stream.on('end', () => next());
            return;
          case 'file':
          case 'contiguous-file':
          case 'directory':
            break;
          default:
            throw new RefusalError({
              code: 'unsupported',
              message: `The archive contains an entry of a kind Skillbench does not unpack (${raw}).`,
              detail: `tar type ${String(header.type)}`,
              entry: raw,
            });
        }
        const directory = header.type === 'directory' || raw.endsWith('/');
        budget.entry(directory, raw);
        const checked = checkEntryName(directory && !raw.endsWith('/') ? `${raw}/` : raw, limits);
        if (!checked.ok) throw new RefusalError(checked.refusal);
        if (checked.path !== '' && leftOut(checked.path, directory)) {
          ignored.push(checked.path);
          stream.on('end', () => {
            if (!settled) next();
          });
          stream.resume();
          return;
        }
      } catch (error) {
        fail(error);
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (data: unknown) => {
        if (settled) return;
        const chunk = data as Buffer;
        try {
          budget.add(chunk.length, raw);
          chunks.push(chunk);
        } catch (error) {
          fail(error);
        }
      });
      stream.on('end', () => {
        if (settled) return;
        try {
          accept(
            entries,
            ignored,
            raw,
            header.type === 'directory',
            Buffer.concat(chunks),
            header.mode,
            limits,
          );
          next();
        } catch (error) {
          fail(error);
        }
      });
    });
    source.on('data', (chunk) => {
      compressedRead += chunk.length;
    });
    source.on('error', stop);
    gunzip?.on('error', stop);
    counter.on('error', stop);
    extract.on('error', stop);
    extract.on('finish', () => {
      if (settled) return;
      // Why: a tar ends with two zero blocks; without them it was cut short, even when the cut
      // falls between two entries (tar-stream reads zero blocks as padding and stops quietly).
      if (streamBytes - lastEntryEnd < 1024) {
        stop(
          new RefusalError({
            ...CUT_SHORT,
            detail: `no end-of-archive marker: ${streamBytes - lastEntryEnd} bytes after the last entry, where two 512-byte zero blocks belong`,
          }),
        );
        return;
      }
      settled = true;
      resolve();
    });
    (gunzip ? source.pipe(gunzip).pipe(counter) : source.pipe(counter)).pipe(extract);
  });
  if (
    gzip &&
    budget.bytes > RATIO_FLOOR &&
    budget.bytes > limits.maxRatio * Math.max(archiveSize, 1)
  )
    throw ratioRefusal(limits, budget.bytes, archiveSize);
  return { entries, ignored };
}

/**
 * Read a folder as an import source with the one skill-folder reader: what a skill never holds
 * (version control, OS litter, dependencies, caches) is left out and listed as ignored; the
 * root `evals/` and other files withheld from sharing are kept (an import copies the author's
 * skill); a link or a pipe anywhere refuses the import; every file is read without following
 * links, counted against the limits as it is read.
 */
async function readFolder(
  dir: string,
  limits: ImportLimits,
): Promise<{ entries: ReadEntry[]; ignored: string[] }> {
  const budget = new Budget(limits);
  const entries: ReadEntry[] = [];
  const ignored: string[] = [];
  const tree = await walkSkillTree(dir, undefined, limits.maxFiles * 2 + 16);
  if (tree.truncated)
    throw new RefusalError({
      code: 'too-many-files',
      message: `The folder holds more than ${limits.maxFiles} files, the most a skill import accepts. If you trust it, raise the limit.`,
      detail: `more than ${limits.maxFiles * 2 + 16} entries`,
    });
  const listed = skillEntries(tree, '').sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  for (const e of listed) {
    if (e.leftOut?.scope === 'never') {
      // Why no contents: the walk never enters such a folder.
      ignored.push(e.kind === 'directory' ? `${e.path}/` : e.path);
      continue;
    }
    if (e.kind === 'symlink') throw linkRefusal(e.path, false, 'folder');
    if (e.kind === 'other')
      throw specialRefusal(e.path, 'special file (pipe, socket or device)', 'folder');
    if (e.kind === 'directory') {
      budget.entry(true, e.path);
      accept(entries, ignored, `${e.path}/`, true, Buffer.alloc(0), undefined, limits);
      continue;
    }
    budget.entry(false, e.path);
    const read = readRegularFileSync(join(dir, e.path), limits.maxBytes);
    budget.add(read.size, e.path);
    accept(
      entries,
      ignored,
      e.path,
      false,
      read.bytes ?? Buffer.alloc(0),
      read.executable ? 0o755 : 0o644,
      limits,
    );
  }
  return { entries, ignored };
}

/** The refusal for an archive that ends too early. */
const CUT_SHORT = {
  code: 'damaged',
  message:
    'The archive is damaged: it ends too early, as a download or copy that did not finish does, so nothing was imported. Get a complete copy and try again.',
} as const;

/** Map reader errors that are not refusals (corrupt or cut data) to a plain refusal. */
function damaged(error: unknown): Refusal {
  const detail = error instanceof Error ? error.message : String(error);
  // Why by message: tar-stream, zlib and yauzl report a cut with these words and no error code.
  if (/unexpected end|end of (data|file)|ends at byte|truncated/i.test(detail))
    return { ...CUT_SHORT, detail };
  return {
    code: 'damaged',
    message: 'The archive is damaged or not what its name says, so nothing was imported.',
    detail,
  };
}

/**
 * Read an import source — `.zip`/`.skill`, `.tar.gz`/`.tgz`/`.tar`, a folder or a single
 * SKILL.md — into memory with hard limits, check every name, and refuse (with nothing written)
 * anything unsafe: traversal, absolute or UNC paths, links, devices, FIFOs, collisions,
 * too many files, too many bytes, bombs (docs/skills-over-mcp.md §6).
 */
export async function readImportSource(
  source: string,
  limits: ImportLimits,
): Promise<ReadSourceResult> {
  let st;
  try {
    st = await lstat(source);
  } catch (error) {
    return {
      ok: false,
      refusal: {
        code: 'not-a-skill-source',
        message: `${source} does not exist.`,
        detail: (error as Error).message,
      },
    };
  }
  try {
    if (st.isSymbolicLink()) throw linkRefusal(source, false, 'given');
    if (st.isDirectory()) {
      const { entries, ignored } = await readFolder(source, limits);
      return finish('folder', entries, ignored, basename(source));
    }
    if (!st.isFile())
      throw specialRefusal(source, 'special file (pipe, socket or device)', 'given');
    const head = Buffer.alloc(512);
    const handle = await open(source, 'r');
    let headLength;
    try {
      headLength = (await handle.read(head, 0, 512, 0)).bytesRead;
    } finally {
      await handle.close();
    }
    const magic = head.subarray(0, headLength);
    if (
      magic.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) ||
      magic.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
    ) {
      const { entries, ignored } = await readZip(source, limits, st.size);
      return finish('zip', entries, ignored);
    }
    if (magic[0] === 0x1f && magic[1] === 0x8b) {
      const { entries, ignored } = await readTar(source, true, limits, st.size);
      return finish('tar.gz', entries, ignored);
    }
    if (headLength >= 262 && magic.subarray(257, 262).toString('latin1') === 'ustar') {
      const { entries, ignored } = await readTar(source, false, limits, st.size);
      return finish('tar', entries, ignored);
    }
    // Why only SKILL.md by name: the preview returns the text of the file it reads, and a
    // typed path must not turn it into a reader of any Markdown file on the machine.
    if (basename(source).toLowerCase() === 'skill.md') {
      if (st.size > limits.maxBytes)
        throw new RefusalError({
          code: 'too-large',
          message: `${basename(source)} is larger than ${formatBytes(limits.maxBytes)}.`,
          detail: `${st.size} bytes`,
        });
      const data = await readFile(source);
      return finish(
        'skill-md',
        [{ raw: 'SKILL.md', path: 'SKILL.md', directory: false, data, mode: 0o644 }],
        [],
        basename(dirname(source)),
      );
    }
    // Why no bytes in the refusal: they would show part of whatever file the path names.
    return {
      ok: false,
      refusal: {
        code: 'not-a-skill-source',
        message: `${basename(source)} is not something Skillbench imports. Give a .zip, .skill, .tar.gz (.tgz) or .tar archive, a skill folder, or a file named SKILL.md.`,
        detail: /\.md$/i.test(source)
          ? 'a single Markdown file is imported only when it is named SKILL.md'
          : 'neither a zip, gzip nor tar signature at the start of the file',
      },
    };
  } catch (error) {
    if (error instanceof RefusalError) return { ok: false, refusal: error.refusal };
    return { ok: false, refusal: damaged(error) };
  }
}

/** Final checks over all names (collisions) once everything is read. */
function finish(
  format: SourceFormat,
  entries: ReadEntry[],
  ignored: string[],
  nameHint?: string,
): ReadSourceResult {
  const collision = findCollision(
    entries.map((e) => ({ path: e.path, directory: e.directory, raw: e.raw })),
  );
  if (collision) return { ok: false, refusal: collision };
  return { ok: true, format, entries, ignored, ...(nameHint ? { nameHint } : {}) };
}
