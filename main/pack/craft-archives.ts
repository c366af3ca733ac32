/**
 * Raw zip and tar writers for the hostile-archive tests: they produce shapes no archiver will
 * (links, devices, `..` names, UNC paths, lying Unicode names). Never used to export.
 */
import { deflateRawSync } from 'node:zlib';

/** CRC-32 (IEEE) table. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of bytes, as zip stores it. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One entry of a crafted zip. */
export interface CraftZipEntry {
  name: string | Buffer;
  data?: Buffer;
  /** 0 store, 8 deflate (default). */
  method?: 0 | 8;
  /** Unix mode (with type bits) put in the external attributes; made-by becomes Unix. */
  unixMode?: number;
  /** General-purpose flags (0x800 UTF-8 is added for string names). */
  flags?: number;
  /** Raw extra field bytes (central and local). */
  extra?: Buffer;
}

/** Build a zip file byte by byte (no zip64, no data descriptors). */
export function craftZip(entries: readonly CraftZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = typeof entry.name === 'string' ? Buffer.from(entry.name, 'utf8') : entry.name;
    const data = entry.data ?? Buffer.alloc(0);
    const method = entry.method ?? 8;
    const flags = (entry.flags ?? 0) | (typeof entry.name === 'string' ? 0x800 : 0);
    const packed = method === 8 ? deflateRawSync(data) : data;
    // Traditional (ZipCrypto) encryption prefixes the data with a 12-byte header (APPNOTE 6.1).
    const body = flags & 0x1 ? Buffer.concat([Buffer.alloc(12, 0xaa), packed]) : packed;
    const extra = entry.extra ?? Buffer.alloc(0);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    locals.push(local, name, extra, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE(entry.unixMode !== undefined ? (entry.unixMode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += 30 + name.length + extra.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An Info-ZIP Unicode Path extra field (0x7075) claiming `unicodeName` for `headerName`. */
export function unicodePathExtra(headerName: string, unicodeName: string): Buffer {
  const name = Buffer.from(unicodeName, 'utf8');
  const field = Buffer.alloc(4 + 5 + name.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + name.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(Buffer.from(headerName, 'utf8')), 5);
  name.copy(field, 9);
  return field;
}

/** One entry of a crafted tar. Type flags: '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' dir, '6' FIFO. */
export interface CraftTarEntry {
  name: string;
  type?: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  data?: Buffer;
  linkname?: string;
  mode?: number;
}

/** Write `value` as a NUL-terminated octal field of `width` bytes. */
function octal(header: Buffer, value: number, offset: number, width: number): void {
  header.write(`${value.toString(8).padStart(width - 1, '0')}\0`, offset, width, 'latin1');
}

/** Build an uncompressed ustar archive byte by byte. */
export function craftTar(entries: readonly CraftTarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = entry.data ?? Buffer.alloc(0);
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, 'utf8');
    octal(header, entry.mode ?? 0o644, 100, 8);
    octal(header, 0, 108, 8);
    octal(header, 0, 116, 8);
    octal(header, data.length, 124, 12);
    octal(header, 315532800, 136, 12);
    header.write('        ', 148, 8, 'latin1');
    header.write(entry.type ?? '0', 156, 1, 'latin1');
    if (entry.linkname) header.write(entry.linkname, 157, 100, 'utf8');
    header.write('ustar\u000000', 257, 8, 'latin1');
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
    parts.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
