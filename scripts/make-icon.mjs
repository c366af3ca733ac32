// Draws assets/icon.png (512×512): a page with frontmatter lines on a blue tile. Run by hand
// when the design changes; electron-builder turns it into the platform icons.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const size = 512;
const pixels = Buffer.alloc(size * size * 4);
const put = (x, y, [r, g, b, a]) => {
  const i = (y * size + x) * 4;
  pixels[i] = r;
  pixels[i + 1] = g;
  pixels[i + 2] = b;
  pixels[i + 3] = a;
};
const inRounded = (x, y, x0, y0, x1, y1, radius) => {
  const cx = Math.min(Math.max(x, x0 + radius), x1 - radius);
  const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
};
for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    let color = [0, 0, 0, 0];
    if (inRounded(x, y, 16, 16, 496, 496, 96)) color = [14, 99, 156, 255];
    if (inRounded(x, y, 136, 96, 376, 416, 20)) color = [245, 245, 245, 255];
    const bar = (y0, x1, c) => {
      if (y >= y0 && y < y0 + 18 && x >= 172 && x < x1) color = c;
    };
    bar(136, 340, [14, 99, 156, 255]);
    bar(176, 300, [55, 148, 255, 255]);
    bar(216, 320, [55, 148, 255, 255]);
    bar(256, 340, [14, 99, 156, 255]);
    bar(306, 330, [120, 120, 120, 255]);
    bar(346, 290, [120, 120, 120, 255]);
    put(x, y, color);
  }
}
const rows = Buffer.alloc((size * 4 + 1) * size);
for (let y = 0; y < size; y++)
  pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc(body));
  return Buffer.concat([len, body, sum]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8;
header[9] = 6;
header[10] = 0;
header[11] = 0;
header[12] = 0;
writeFileSync(
  new URL('../assets/icon.png', import.meta.url),
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
