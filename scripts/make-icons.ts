// Node build helper: draws the extension icons (public/icons/icon-<size>.png) from code, no downloads.
// Run: npx tsx scripts/make-icons.ts. The PNGs are committed; rerun only to change the design.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZES = [16, 32, 48, 128] as const;
const OUT_DIR = new URL('../public/icons/', import.meta.url);

type Rgba = [number, number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function encodePng(size: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** A blue rounded square with three white stream lines, the middle one cut (a torn stream). */
function iconPixel(size: number): (x: number, y: number) => Rgba {
  const radius = size * 0.2;
  return (px, py) => {
    const x = px + 0.5;
    const y = py + 0.5;
    const cx = Math.min(Math.max(x, radius), size - radius);
    const cy = Math.min(Math.max(y, radius), size - radius);
    const outside = Math.hypot(x - cx, y - cy) - radius;
    if (outside > 0.5) return [0, 0, 0, 0];
    const alpha = Math.round(255 * Math.min(1, 0.5 - outside));
    const u = x / size;
    const v = y / size;
    const half = Math.max(0.045, 1.2 / size);
    const onLine = [0.3, 0.5, 0.7].some((lineY) => Math.abs(v - lineY) < half) && u > 0.2 && u < 0.8;
    const cut = Math.abs(v - 0.5) < half && u > 0.46 && u < 0.56;
    if (onLine && !cut) return [255, 255, 255, alpha];
    return [26, 115, 232, alpha];
  };
}

mkdirSync(OUT_DIR, { recursive: true });
for (const size of SIZES) writeFileSync(new URL(`icon-${size}.png`, OUT_DIR), encodePng(size, iconPixel(size)));
