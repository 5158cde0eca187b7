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

describe('FileChunks', () => {
  it('hands out the bytes read, keeps the last 8 chunks and reads older ones again from their offsets', () => {
    const file = reader(FILE);
    const chunks = new FileChunks(file);
    const made = Array.from({ length: 10 }, (_, i) => chunks.chunk(FILE.slice(i * 10, i * 10 + 10), i * 10));
    expect(made[9]?.bytes).toEqual(FILE.slice(90, 100));
    expect(made[2]?.bytes).toEqual(FILE.slice(20, 30));
    expect(file.reads).toEqual([]);
    expect(made[0]?.bytes).toEqual(FILE.slice(0, 10));
    expect(made[1]?.bytes).toEqual(FILE.slice(10, 20));
    expect(file.reads).toEqual([
      [0, 10],
      [10, 10],
    ]);
    expect(made.every((c) => c.t === 0)).toBe(true);
  });

  it('says so, as bad input, when the file lost bytes since it was read', () => {
    const chunks = new FileChunks(reader(FILE.slice(0, 15)));
    const made = Array.from({ length: 10 }, (_, i) => chunks.chunk(FILE.slice(i * 10, i * 10 + 10), i * 10));
    const read = (): Uint8Array => (made[1] as { bytes: Uint8Array }).bytes;
    expect(read).toThrow(InputError);
    expect(read).toThrow('the file changed while it was analyzed: byte 15 is gone');
  });
});
