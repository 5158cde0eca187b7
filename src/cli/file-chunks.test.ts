import { describe, expect, it } from 'vitest';
import { InputError } from '../core/capture/errors';
import { FileChunks, type RangeReader } from './file-chunks';

const FILE = Uint8Array.from({ length: 100 }, (_, i) => i);

function reader(bytes: Uint8Array): RangeReader & { reads: [number, number][] } {
  return {
    reads: [],
    read(offset, length) {
      this.reads.push([offset, length]);
      return bytes.slice(offset, offset + length);
    },
    close() {},
  };
}

/** The byte at `offset` of the virtual file. */
const expectedByte = (offset: number): number => offset % 251;

/** A file of any size whose bytes are made on each read. */
function virtualFile(): RangeReader & { reads: [number, number][]; size: number } {
  return {
    reads: [],
    size: Infinity,
    read(offset, length) {
      this.reads.push([offset, length]);
      const n = Math.max(0, Math.min(length, this.size - offset));
      return Uint8Array.from({ length: n }, (_, i) => expectedByte(offset + i));
    },
    close() {},
  };
}

describe('FileChunks', () => {
  it('hands out the bytes read, keeps 8 MiB of the last chunks read and reads older ones again from their offsets', () => {
    const file = reader(FILE);
    const chunks = new FileChunks(file);
    const made = Array.from({ length: 10 }, (_, i) => chunks.chunk(FILE.slice(i * 10, i * 10 + 10), i * 10));
    // Small chunks: all ten are kept.
    expect(made.map((c) => c.bytes)).toEqual(made.map((_, i) => FILE.slice(i * 10, i * 10 + 10)));
    expect(file.reads).toEqual([]);
    expect(made.every((c) => c.t === 0)).toBe(true);

    const MiB = 2 ** 20;
    const big = virtualFile();
    const bigChunks = new FileChunks(big);
    const bodies = Array.from({ length: 4 }, (_, i) => bigChunks.chunk(big.read(i * 3 * MiB, 3 * MiB), i * 3 * MiB, 7));
    big.reads.length = 0;
    // 3 MiB each: the last two are kept (a third would pass 8 MiB), the first two are read again.
    expect(bodies[3]?.bytes[0]).toBe(expectedByte(9 * MiB));
    expect(bodies[2]?.bytes[0]).toBe(expectedByte(6 * MiB));
    expect(big.reads).toEqual([]);
    expect(bodies[0]?.bytes[5]).toBe(expectedByte(5));
    expect(big.reads).toEqual([[0, 3 * MiB]]);
    expect(bodies.every((c) => c.t === 7)).toBe(true);
  });

  it('lays patches over the chunks kept at once and over every chunk read again, in any order they came', () => {
    const MiB = 2 ** 20;
    const big = virtualFile();
    const chunks = new FileChunks(big);
    const bodies = Array.from({ length: 4 }, (_, i) => chunks.chunk(big.read(i * 3 * MiB, 3 * MiB), i * 3 * MiB));
    // The last patch first; one at the very end of chunk 0 and one at the start of chunk 3 (kept).
    chunks.patch(9 * MiB, Uint8Array.of(1, 2, 3));
    chunks.patch(3 * MiB - 2, Uint8Array.of(7, 8));
    chunks.patch(10, Uint8Array.of(9));
    expect([...(bodies[3]?.bytes.subarray(0, 4) ?? [])]).toEqual([1, 2, 3, expectedByte(9 * MiB + 3)]);
    big.reads.length = 0;
    const first = bodies[0]?.bytes ?? new Uint8Array();
    expect(big.reads).toEqual([[0, 3 * MiB]]);
    expect([first[9], first[10], first[11]]).toEqual([expectedByte(9), 9, expectedByte(11)]);
    expect([...first.subarray(-3)]).toEqual([expectedByte(3 * MiB - 3), 7, 8]);
    // Chunk 1 has no patch: read as the file has it.
    expect(bodies[1]?.bytes[0]).toBe(expectedByte(3 * MiB));
  });

  it('says so, as bad input, when the file lost bytes since it was read', () => {
    const MiB = 2 ** 20;
    const file = virtualFile();
    const chunks = new FileChunks(file);
    const made = Array.from({ length: 4 }, (_, i) => chunks.chunk(file.read(i * 3 * MiB, 3 * MiB), i * 3 * MiB));
    // The file is cut to 4 MiB: the second chunk, no longer kept, is read again and comes back short.
    file.size = 4 * MiB;
    const read = (): Uint8Array => (made[1] as { bytes: Uint8Array }).bytes;
    expect(read).toThrow(InputError);
    expect(read).toThrow(`the file changed while it was analyzed: byte ${4 * MiB} is gone`);
  });
});
