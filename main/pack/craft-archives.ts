/**
 * Raw zip and tar writers for the hostile-archive tests: they produce shapes no archiver will
 * (links, devices, `..` names, UNC paths, lying Unicode names). Never used to export.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, gzipSync } from 'node:zlib';

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
  /** The unpacked size the headers claim, when it should differ from the data's (a lie). */
  declaredSize?: number;
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
    local.writeUInt32LE(entry.declaredSize ?? data.length, 22);
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
    central.writeUInt32LE(entry.declaredSize ?? data.length, 24);
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

/** SKILL.md of the ordinary archives below. */
const ORDINARY_SKILL = Buffer.from(
  '---\nname: photos\ndescription: Sorts holiday photos. Use when photos need sorting.\n---\n# Photos\n',
);

/**
 * An ordinary skill as `zip -r` packs a folder of photos: SKILL.md and `count` files of random
 * bytes, stored (photos do not compress, so zip stores them). 20 of 1 MiB unpack to more than
 * the 16 MiB import limit, and the refusal comes while other entries are still being read.
 */
export function photoSkillZip(count = 20, size = 1024 * 1024): Buffer {
  return craftZip([
    { name: 'photos/SKILL.md', data: ORDINARY_SKILL },
    ...Array.from({ length: count }, (_, i) => ({
      name: `photos/img/p${i + 1}.jpg`,
      data: randomBytes(size),
      method: 0 as const,
    })),
  ]);
}

/** One damaged archive: file name (its extension picks the reader) and bytes. */
export interface DamagedArchive {
  name: string;
  file: string;
  bytes: Buffer;
}

/**
 * An ordinary skill tar cut short in every way a download or copy can cut it. The tar's layout
 * (512-byte blocks): SKILL.md header at 0, its data at 512; data.bin header at 1024, its 3000
 * bytes at 1536–4536 (padded to 4608); notes.txt header at 4608, data at 5120; the two zero
 * end-of-archive blocks at 5632–6656. Every cut is refused as damaged.
 */
export function truncatedTars(): DamagedArchive[] {
  const tar = ordinarySkillTar();
  const gz = gzipSync(tar);
  return [
    { name: 'tar cut inside a header', file: 'cut.tar', bytes: tar.subarray(0, 1024 + 100) },
    { name: 'tar cut inside file data', file: 'cut.tar', bytes: tar.subarray(0, 1536 + 1000) },
    {
      name: 'tar cut at a 512 boundary after a header, before its data',
      file: 'cut.tar',
      bytes: tar.subarray(0, 1536),
    },
    {
      name: 'tar cut at a 512 boundary between entries (no end-of-archive blocks)',
      file: 'cut.tar',
      bytes: tar.subarray(0, 4608),
    },
    {
      name: 'tar cut after its last entry with one of the two end blocks',
      file: 'cut.tar',
      bytes: tar.subarray(0, 6144),
    },
    {
      name: 'tar.gz cut inside the gzip stream',
      file: 'cut.tar.gz',
      bytes: gz.subarray(0, Math.floor(gz.length / 2)),
    },
    {
      name: 'tar.gz wrapping a tar cut inside file data',
      file: 'cut.tgz',
      bytes: gzipSync(tar.subarray(0, 1536 + 1000)),
    },
    {
      name: 'tar.gz wrapping a tar cut at a 512 boundary',
      file: 'cut.tgz',
      bytes: gzipSync(tar.subarray(0, 4608)),
    },
  ];
}

/** The whole tar {@link truncatedTars} cuts (the control case: it imports). */
export function ordinarySkillTar(): Buffer {
  return craftTar([
    { name: 'photos/SKILL.md', data: ORDINARY_SKILL },
    { name: 'photos/data.bin', data: randomBytes(3000) },
    { name: 'photos/notes.txt', data: Buffer.from('notes\n') },
  ]);
}
