import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeIo } from './node-io';

const dir = mkdtempSync(join(tmpdir(), 'msi-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('nodeIo().readPieces', () => {
  it('reads a file in 256 KiB pieces, each in a buffer of its own, the next read under way meanwhile', async () => {
    const bytes = randomBytes(2.5 * 2 ** 18);
    const path = join(dir, 'random.bin');
    writeFileSync(path, bytes);
    const pieces: Uint8Array[] = [];
    for await (const piece of nodeIo().readPieces(path)) pieces.push(piece);
    expect(pieces.map((p) => p.length)).toEqual([2 ** 18, 2 ** 18, 2 ** 17]);
    expect(new Set(pieces.map((p) => p.buffer)).size).toBe(3);
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
  });

  it('stops early without trouble, and an empty file gives no piece', async () => {
    const path = join(dir, 'some.bin');
    writeFileSync(path, randomBytes(3 * 2 ** 20));
    let seen = 0;
    for await (const piece of nodeIo().readPieces(path)) {
      seen += piece.length;
      break;
    }
    expect(seen).toBe(2 ** 18);
    const empty = join(dir, 'empty.bin');
    writeFileSync(empty, '');
    const none: Uint8Array[] = [];
    for await (const piece of nodeIo().readPieces(empty)) none.push(piece);
    expect(none).toEqual([]);
  });

  it('a missing file rejects with the system reason', async () => {
    const read = async () => {
      for await (const piece of nodeIo().readPieces(join(dir, 'nope'))) expect(piece).toBeUndefined();
    };
    await expect(read()).rejects.toThrow(/ENOENT/);
  });
});

describe('nodeIo().openScratch', () => {
  it('appends and reads back bytes, and leaves nothing in the temporary folder', () => {
    const before = new Set(readdirSync(tmpdir()));
    const scratch = nodeIo().openScratch?.();
    expect(scratch).toBeDefined();
    if (!scratch) return;
    const first = randomBytes(3000);
    const second = randomBytes(5);
    expect(scratch.append(first)).toBe(0);
    expect(scratch.append(second)).toBe(3000);
    expect(Buffer.from(scratch.read(3000, 5))).toEqual(second);
    expect(Buffer.from(scratch.read(10, 100))).toEqual(first.subarray(10, 110));
    // Unlinked while open (Linux): its folder is already gone.
    const left = readdirSync(tmpdir()).filter((name) => !before.has(name) && name.startsWith('mcp-stream-inspector-'));
    expect(left).toEqual([]);
    scratch.close();
  });
});
