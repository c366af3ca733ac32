/**
 * Small deterministic archive writers for the legacy `.tar.gz` / `.zip` skill archives
 * (SKILLS-OVER-MCP.md §6 A/B; SKILL-FORMAT-AND-TARGETS.md §3 "Archives are reproducible").
 * `SKILL.md` sits at the archive root; entries are sorted by path, timestamps are fixed at
 * 1980-01-01 00:00 UTC (the earliest date a zip can hold), modes are 0644, owners are 0/0, so
 * the same files give the same bytes and the same sha256 with the same zlib build.
 * main/pack (another engineer's) writes user-facing exports; this one only serves bytes.
 */
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** One file to put in an archive: `/`-separated path relative to the archive root. */
export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

/** 1980-01-01T00:00:00Z in seconds: the fixed mtime of every tar entry. */
const FIXED_MTIME = 315532800;
const FILE_MODE = 0o644;
const encoder = new TextEncoder();

function sorted(files: readonly ArchiveFile[]): ArchiveFile[] {
  // Why: byte order of the UTF-8 path, not locale order, so every machine sorts the same way.
  return [...files].sort((a, b) =>
    Buffer.compare(Buffer.from(a.path, 'utf8'), Buffer.from(b.path, 'utf8')),
  );
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function tarHeader(
  name: Uint8Array,
  size: number,
  type: '0' | 'x',
  prefix: Uint8Array = new Uint8Array(),
): Buffer {
  const h = Buffer.alloc(512);
  h.set(name.subarray(0, 100), 0);
  h.write(octal(FILE_MODE, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(FIXED_MTIME, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.set(prefix.subarray(0, 155), 345);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

function padTo512(length: number): Buffer {
  const rest = length % 512;
  return Buffer.alloc(rest === 0 ? 0 : 512 - rest);
}

/** Split a UTF-8 path into ustar prefix (≤155 bytes) and name (≤100 bytes) at a `/`; undefined when impossible. */
function ustarSplit(path: Uint8Array): { prefix: Uint8Array; name: Uint8Array } | undefined {
  if (path.length <= 100) return { prefix: new Uint8Array(), name: path };
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i] !== 0x2f) continue;
    if (i <= 155 && path.length - i - 1 <= 100 && path.length - i - 1 > 0)
      return { prefix: path.subarray(0, i), name: path.subarray(i + 1) };
  }
  return undefined;
}

/** A POSIX tar (ustar, PAX `path` records for long names) of the files, uncompressed. */
export function tarBytes(files: readonly ArchiveFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of sorted(files)) {
    const path = encoder.encode(file.path);
    const split = ustarSplit(path);
    if (split) {
      parts.push(tarHeader(split.name, file.bytes.length, '0', split.prefix));
    } else {
      // PAX extended header (POSIX.1-2001): "<len> path=<value>\n", where len counts itself.
      const body = ` path=${file.path}\n`;
      let len = Buffer.byteLength(body) + 1;
      while (String(len).length + Buffer.byteLength(body) !== len)
        len = String(len).length + Buffer.byteLength(body);
      const record = Buffer.from(`${len}${body}`, 'utf8');
      parts.push(
        tarHeader(encoder.encode('PaxHeader'), record.length, 'x'),
        record,
        padTo512(record.length),
      );
      parts.push(tarHeader(path.subarray(0, 100), file.bytes.length, '0'));
    }
    parts.push(
      Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
      padTo512(file.bytes.length),
    );
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** A gzip-compressed tar: the `.tar.gz` archive (`application/gzip`). The gzip header's mtime is 0. */
export function tarGzBytes(files: readonly ArchiveFile[]): Buffer {
  return gzipSync(tarBytes(files), { level: 9 });
}

/** A zip archive (`application/zip`): deflate, UTF-8 names, fixed DOS time 1980-01-01 00:00. */
export function zipBytes(files: readonly ArchiveFile[]): Buffer {
  const DOS_TIME = 0;
  const DOS_DATE = (0 << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of sorted(files)) {
    const name = Buffer.from(file.path, 'utf8');
    const data = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const crc = crc32(data);
    const deflated = data.length > 0 ? deflateRawSync(data, { level: 9 }) : data;
    const method = data.length > 0 && deflated.length < data.length ? 8 : 0;
    const stored = method === 8 ? deflated : data;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // Why: bit 11 says names are UTF-8 (APPNOTE 4.4.4).
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, so the external attributes carry a mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | FILE_MODE) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + stored.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
