import { Archiver, type CoreOptions } from 'archiver';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import { deflateOptions } from './deflate';
import { grouped } from '../../shared/text/words';

export { deflateOptions } from './deflate';

/*
 * Our zip format module for archiver's core (archiver stays the driver: queue, entry
 * normalisation, events). Why our own instead of archiver's ZipArchive (zip-stream): that one
 * runs every entry through its own async deflate stream and writes a data descriptor after it;
 * for 2,000 small files that cost ~750–1,000 ms against ~150 ms for one synchronous
 * deflateRawSync + crc32 per entry (bench/pack). Layout follows PKWARE APPNOTE.TXT 6.3.10:
 * local file header + data per entry (4.3.7), central directory (4.3.12), end of central
 * directory record (4.3.16). No zip64, no extra fields, no data descriptors.
 */

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const LOCAL_HEADER_BYTES = 30;
const CENTRAL_HEADER_BYTES = 46;
const END_BYTES = 22;

const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
/** General purpose bit 11: names are UTF-8 (APPNOTE 4.4.4 and appendix D). */
const FLAG_UTF8 = 0x0800;
/** Version 2.0: deflate and folders need it; 1.0 is enough for a stored file (APPNOTE 4.4.3.2). */
const VERSION_DEFLATE_OR_FOLDER = 20;
const VERSION_STORE = 10;
/** Upper byte 3 = Unix (APPNOTE 4.4.2.2), so readers take the mode from the external attributes. */
const VERSION_MADE_BY = (3 << 8) | 20;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
/** MS-DOS directory attribute, for readers that ignore the Unix mode. */
const DOS_DIRECTORY = 0x10;

/** The largest counts and sizes a zip without zip64 records can hold. */
export interface ZipLimits {
  /** Entries in the archive (default 65,535: the end record's 16-bit count). */
  maxEntries: number;
  /**
   * Any size or offset (default 0xFFFFFFFE: the 32-bit fields, minus 0xFFFFFFFF, which means
   * "look in the zip64 record" to readers, APPNOTE 4.4.8).
   */
  maxBytes: number;
}

/** The limits of a zip without zip64. */
export const ZIP_LIMITS: Readonly<ZipLimits> = { maxEntries: 0xffff, maxBytes: 0xfffffffe };

/** Size of the chunks the encoder pushes (archiver's own highWaterMark). */
const BATCH_BYTES = 1024 * 1024;

/** Deflate level: zlib's default, the same as `zip`'s, so sizes compare fairly. */
const DEFAULT_LEVEL = 6;

/** Options of {@link ZipFormatArchive}. */
export interface ZipFormatOptions extends CoreOptions {
  /** zlib deflate level, 1–9 (default 6). */
  level?: number;
  /** Lower limits than the zip format's, for tests of the refusal. */
  limits?: Partial<ZipLimits>;
}

/** Entry data as archiver's core hands it to a format module (after `_normalizeEntryData`). */
interface ModuleEntryData {
  name: string;
  type: 'file' | 'directory' | 'symlink';
  date: Date;
  mode: number;
  /** Set by our writer: store instead of deflate (already-compressed bytes). */
  store?: boolean;
  /** Set by our writer: the raw deflate of the bytes, made ahead (by a worker thread) with {@link deflateOptions}. */
  deflated?: Buffer;
  sourceType: 'buffer' | 'stream';
}

/** What the central directory needs to know about an entry already written. */
interface WrittenEntry {
  name: Buffer;
  method: number;
  version: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  externalAttributes: number;
  offset: number;
}

/**
 * Throw when a count or size does not fit a zip without zip64. The message is for people;
 * `what` names the quantity.
 */
export function checkZipLimit(
  what: 'entries' | 'bytes',
  value: number,
  limits: Readonly<ZipLimits> = ZIP_LIMITS,
): void {
  if (what === 'entries' && value > limits.maxEntries) {
    throw new Error(
      `The archive would hold more than ${grouped(limits.maxEntries)} files and folders, the most a zip file can list without the zip64 extension, which Skillbench does not write. Leave some files out, or export to a tar.gz archive.`,
    );
  }
  if (what === 'bytes' && value > limits.maxBytes) {
    throw new Error(
      `The archive would be larger than ${readableBytes(limits.maxBytes)}, the most a zip file can address without the zip64 extension, which Skillbench does not write. Leave some large files out, or export to a tar.gz archive.`,
    );
  }
}

/** "4 GiB" for the real limit, "1,000 bytes" for a small one. */
function readableBytes(bytes: number): string {
  return bytes >= 2 ** 30 ? `${Math.round(bytes / 2 ** 30)} GiB` : `${grouped(bytes)} bytes`;
}

/**
 * MS-DOS date and time of `date`, read in UTC. Why UTC: the local time zone of the machine that
 * exports must not change the bytes. DOS times count from 1980 and have 2-second steps; dates
 * outside 1980–2107 are clamped (APPNOTE 4.4.6).
 */
export function dosDateTime(date: Date): { date: number; time: number } {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 1980) return { date: (1 << 5) | 1, time: 0 };
  if (year > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
  };
}

/** Read a stream source to one buffer (archiver hands streams for `file()` and stream appends). */
function collect(source: Readable, done: (error: Error | null, data?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  source.on('data', (chunk: Buffer | string) =>
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
  );
  source.once('error', (error: Error) => done(error));
  source.once('end', () => done(null, Buffer.concat(chunks)));
}

/**
 * The format module: archiver's core calls `append` once per entry, one at a time, then
 * `finalize`; the bytes come out of the readable side, which the core pipes into the archive.
 */
class ZipEncoder extends Transform {
  private readonly entries: WrittenEntry[] = [];
  /** Bytes written so far: the offset of the next local header. */
  private offset = 0;
  /** Bytes waiting to be pushed, and how many of them are used. */
  private batch: Buffer | null = null;
  private used = 0;
  /** The first entry error; nothing is written after it. */
  private failure: Error | null = null;

  constructor(
    private readonly level: number,
    private readonly limits: Readonly<ZipLimits>,
  ) {
    super();
  }

  /** Nothing is written to this stream's writable side; bytes are pushed by `append`. */
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
  }

  /** Encode one entry; `callback(error)` makes archiver emit the error and stop. */
  append(
    source: Buffer | Readable,
    data: ModuleEntryData,
    callback: (error: Error | null, data?: ModuleEntryData) => void,
  ): void {
    if (data.sourceType === 'stream') {
      collect(source as Readable, (error, bytes) => {
        if (error || !bytes) callback(error ?? new Error(`Could not read ${data.name}.`));
        else this.encode(bytes, data, callback);
      });
      return;
    }
    this.encode(source as Buffer, data, callback);
  }

  private encode(
    raw: Buffer,
    data: ModuleEntryData,
    callback: (error: Error | null, data?: ModuleEntryData) => void,
  ): void {
    // Why a latch: archiver's core reports an entry's error and goes on with the next; after a
    // refused entry the archive must not be finished as if it were whole.
    if (this.failure) {
      callback(this.failure);
      return;
    }
    try {
      this.entry(raw, data);
    } catch (error) {
      this.failure = error as Error;
      callback(this.failure);
      return;
    }
    callback(null, data);
  }

  /** Local header, name and data of one entry into the batch, recorded for the central directory. */
  private entry(raw: Buffer, data: ModuleEntryData): void {
    if (data.type === 'symlink')
      throw new Error(
        `${data.name} is a symbolic link; Skillbench's zip files hold only files and folders.`,
      );
    checkZipLimit('entries', this.entries.length + 1, this.limits);
    const directory = data.type === 'directory';
    const name = Buffer.from(
      directory && !data.name.endsWith('/') ? `${data.name}/` : data.name,
      'utf8',
    );
    if (name.length > 0xffff)
      throw new Error(`The name ${data.name} is longer than a zip file allows (65,535 bytes).`);
    let body = directory ? Buffer.alloc(0) : raw;
    let method = METHOD_STORE;
    if (!directory && !data.store && raw.length > 0) {
      const deflated = data.deflated ?? deflateRawSync(raw, deflateOptions(this.level, raw.length));
      // Why: deflate can grow bytes that are already compressed; storing is never larger.
      if (deflated.length < raw.length) {
        body = deflated;
        method = METHOD_DEFLATE;
      }
    }
    const crc = directory ? 0 : crc32(raw);
    const size = directory ? 0 : raw.length;
    checkZipLimit('bytes', size, this.limits);
    checkZipLimit(
      'bytes',
      this.offset + LOCAL_HEADER_BYTES + name.length + body.length,
      this.limits,
    );
    const { date, time } = dosDateTime(data.date);
    const version =
      directory || method === METHOD_DEFLATE ? VERSION_DEFLATE_OR_FOLDER : VERSION_STORE;
    // Why the file type bits: Info-ZIP and libarchive read S_IFDIR/S_IFREG from the upper 16 bits.
    const unixMode = (directory ? S_IFDIR : S_IFREG) | (data.mode & 0o7777);
    const externalAttributes = ((unixMode << 16) | (directory ? DOS_DIRECTORY : 0)) >>> 0;

    const header = this.room(LOCAL_HEADER_BYTES + name.length);
    let at = this.used;
    header.writeUInt32LE(LOCAL_HEADER, at);
    header.writeUInt16LE(version, at + 4);
    header.writeUInt16LE(FLAG_UTF8, at + 6);
    header.writeUInt16LE(method, at + 8);
    header.writeUInt16LE(time, at + 10);
    header.writeUInt16LE(date, at + 12);
    // Why crc and sizes here (no data descriptor, flag bit 3 clear): the whole entry is in memory.
    header.writeUInt32LE(crc, at + 14);
    header.writeUInt32LE(body.length, at + 18);
    header.writeUInt32LE(size, at + 22);
    header.writeUInt16LE(name.length, at + 26);
    header.writeUInt16LE(0, at + 28); // extra field length
    name.copy(header, at + LOCAL_HEADER_BYTES);
    at += LOCAL_HEADER_BYTES + name.length;
    this.used = at;
    if (body.length <= BATCH_BYTES - at) {
      body.copy(header, at);
      this.used += body.length;
    } else {
      this.flush();
      this.push(body);
    }
    this.entries.push({
      name,
      method,
      version,
      time,
      date,
      crc,
      compressedSize: body.length,
      size,
      externalAttributes,
      offset: this.offset,
    });
    this.offset += LOCAL_HEADER_BYTES + name.length + body.length;
  }

  /**
   * The current batch, with at least `bytes` free from `this.used` (a full batch is pushed
   * first). Why batches: every chunk pushed makes a trip through two streams (ours and
   * archiver's) and a 'data' event; one per megabyte instead of one or more per entry.
   */
  private room(bytes: number): Buffer {
    if (this.batch && BATCH_BYTES - this.used >= bytes) return this.batch;
    this.flush();
    this.batch = Buffer.allocUnsafe(Math.max(BATCH_BYTES, bytes));
    return this.batch;
  }

  /** Push what the current batch holds. */
  private flush(): void {
    if (this.batch && this.used > 0) this.push(this.batch.subarray(0, this.used));
    this.batch = null;
    this.used = 0;
  }

  /** Write the central directory and the end record, then end the stream. */
  finalize(): void {
    let tail: Buffer;
    try {
      if (this.failure) throw this.failure;
      tail = this.centralDirectory();
    } catch (error) {
      this.destroy(error as Error);
      return;
    }
    this.flush();
    this.push(tail);
    this.end();
  }

  private centralDirectory(): Buffer {
    const entries = this.entries;
    const directoryBytes = entries.reduce(
      (sum, e) => sum + CENTRAL_HEADER_BYTES + e.name.length,
      0,
    );
    checkZipLimit('bytes', this.offset + directoryBytes, this.limits);
    const out = Buffer.allocUnsafe(directoryBytes + END_BYTES);
    let at = 0;
    for (const e of entries) {
      out.writeUInt32LE(CENTRAL_HEADER, at);
      out.writeUInt16LE(VERSION_MADE_BY, at + 4);
      out.writeUInt16LE(e.version, at + 6);
      out.writeUInt16LE(FLAG_UTF8, at + 8);
      out.writeUInt16LE(e.method, at + 10);
      out.writeUInt16LE(e.time, at + 12);
      out.writeUInt16LE(e.date, at + 14);
      out.writeUInt32LE(e.crc, at + 16);
      out.writeUInt32LE(e.compressedSize, at + 20);
      out.writeUInt32LE(e.size, at + 24);
      out.writeUInt16LE(e.name.length, at + 28);
      out.writeUInt16LE(0, at + 30); // extra field length
      out.writeUInt16LE(0, at + 32); // comment length
      out.writeUInt16LE(0, at + 34); // disk number start
      out.writeUInt16LE(0, at + 36); // internal attributes
      out.writeUInt32LE(e.externalAttributes, at + 38);
      out.writeUInt32LE(e.offset, at + 42);
      e.name.copy(out, at + CENTRAL_HEADER_BYTES);
      at += CENTRAL_HEADER_BYTES + e.name.length;
    }
    out.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, at);
    out.writeUInt16LE(0, at + 4); // this disk
    out.writeUInt16LE(0, at + 6); // disk with the central directory
    out.writeUInt16LE(entries.length, at + 8);
    out.writeUInt16LE(entries.length, at + 10);
    out.writeUInt32LE(directoryBytes, at + 12);
    out.writeUInt32LE(this.offset, at + 16);
    out.writeUInt16LE(0, at + 20); // comment length
    return out;
  }
}

/**
 * archiver with our zip encoder as its format module: `append`, `finalize`, events and errors
 * work as for archiver's own ZipArchive. Entries may set `store: true` to skip deflate. Symlinks
 * are refused. Same input, same bytes: nothing depends on the clock or the machine.
 */
export class ZipFormatArchive extends Archiver {
  // Why `declare`: these are archiver core internals its own subclasses set (archiver/index.js);
  // @types/archiver does not list them, and `declare` emits no field that would reset them.
  declare private _format: string;
  declare private _module: ZipEncoder;
  declare private _supportsDirectory: boolean;
  declare private _supportsSymlink: boolean;
  declare private _modulePipe: () => void;

  constructor(options: ZipFormatOptions = {}) {
    const { level = DEFAULT_LEVEL, limits, ...core } = options;
    super(core);
    this._format = 'zip';
    this._module = new ZipEncoder(level, { ...ZIP_LIMITS, ...limits });
    this._supportsDirectory = true;
    this._supportsSymlink = false;
    this._modulePipe();
  }
}
