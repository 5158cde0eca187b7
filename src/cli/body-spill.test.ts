import { describe, expect, it } from 'vitest';
import { analyze } from '../core/analyze';
import { loadInput } from '../core/capture/load';
import type { ConnectionRecord } from '../core/capture/model';
import { readFixture } from '../core/fixtures-dir.fixture';
import { BodySpill } from './body-spill';
import type { ScratchFile } from './file-chunks';

/** A scratch file in memory that counts what is written and read. */
function memoryScratch(): ScratchFile & { written: number; reads: number } {
  let bytes = new Uint8Array(0);
  return {
    written: 0,
    reads: 0,
    append(piece) {
      const at = bytes.length;
      const grown = new Uint8Array(at + piece.length);
      grown.set(bytes);
      grown.set(piece, at);
      bytes = grown;
      this.written += piece.length;
      return at;
    },
    read(offset, length) {
      this.reads++;
      return bytes.slice(offset, offset + length);
    },
    close() {},
  };
}

const bodyBytes = (record: ConnectionRecord): number => record.chunks.reduce((n, c) => n + c.bytes.length, 0);

describe('BodySpill', () => {
  // A real recording with its chunks and their times.
  const { har, ndjson } = readFixture('cut-mid-event');
  const capture = loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });

  it('keeps bodies in memory within its budget, moves the rest to the scratch file with their times, and the analysis is the same', () => {
    const scratch = memoryScratch();
    const sizes = capture.connections.map(bodyBytes);
    const budget = (sizes[0] ?? 0) + 1;
    const spill = new BodySpill(() => scratch, budget);
    const kept = capture.connections.map((record) => spill.keep(record));
    expect(kept[0]).toBe(capture.connections[0]);
    const moved = kept.filter((record, i) => record !== capture.connections[i]);
    expect(moved.length).toBeGreaterThan(0);
    expect(scratch.written).toBe(moved.reduce((n, r) => n + bodyBytes(r), 0));
    for (const [i, record] of kept.entries()) {
      const original = capture.connections[i] as ConnectionRecord;
      expect(record.chunks.map((c) => [c.t, Buffer.from(c.bytes).toString('hex')])).toEqual(
        original.chunks.map((c) => [c.t, Buffer.from(c.bytes).toString('hex')]),
      );
    }
    const spilled = analyze({ ...capture, connections: kept });
    expect(spilled.findings).toEqual(analyze(capture).findings);
  });

  it('keeps everything in memory when no scratch file can be made', () => {
    const spill = new BodySpill(() => undefined, 0);
    for (const record of capture.connections) expect(spill.keep(record)).toBe(record);
  });
});
