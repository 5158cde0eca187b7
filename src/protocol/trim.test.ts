import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../core/capture/model';
import { gapChunks, keepEnds, middleRun } from './trim';

const record = (sizes: number[], gaps?: ConnectionRecord['gaps']): ConnectionRecord => ({
  id: 'c1',
  source: 'fetch',
  method: 'GET',
  url: 'http://127.0.0.1/mcp',
  requestHeaders: [],
  startTime: 0,
  chunks: sizes.map((size, i) => ({ t: 10 + i, bytes: new Uint8Array(size).fill(i) })),
  end: 'open',
  ...(gaps ? { gaps } : {}),
});

describe('trimming a body (bridge buffer and panel budget)', () => {
  it('takes chunks oldest first until the excess is freed, stepping over what has no size', () => {
    const sizes = [10, undefined, 10, 10, undefined, 10];
    expect(middleRun(0, sizes.length, 15, (i) => sizes[i])).toEqual({ end: 3, freed: 20 });
    // An unsized item after the last chunk taken stays where it is.
    expect(middleRun(0, 5, Infinity, (i) => sizes[i])).toEqual({ end: 4, freed: 30 });
    expect(middleRun(2, 2, 100, (i) => sizes[i])).toEqual({ end: 2, freed: 0 });
  });

  it('turns given-up chunks into gaps at body offsets, beside the gaps the record had, merging only like causes', () => {
    // Body: chunk0 (4) | evicted gap (100) | chunk1 (4) chunk2 (4) | chunk3 (4)
    const before = record([4, 4, 4, 4], [{ offset: 4, bytes: 100, t: 10, cause: 'evicted' }]);
    const out = gapChunks(before, 1, 3, 'panel-budget');
    expect(out.chunks.map((c) => c.bytes[0])).toEqual([0, 3]);
    expect(out.gaps).toEqual([
      { offset: 4, bytes: 100, t: 10, cause: 'evicted' },
      { offset: 104, bytes: 8, t: 11, cause: 'panel-budget' },
    ]);
    // Giving up the rest joins the panel's gaps across it; the evicted one stays apart.
    const all = gapChunks(out, 0, out.chunks.length, 'panel-budget');
    expect(all.chunks).toEqual([]);
    expect(all.gaps).toEqual([
      { offset: 0, bytes: 4, t: 10, cause: 'panel-budget' },
      { offset: 4, bytes: 100, t: 10, cause: 'evicted' },
      { offset: 104, bytes: 12, t: 11, cause: 'panel-budget' },
    ]);
    expect(before.chunks).toHaveLength(4); // the input is not changed
    expect(gapChunks(before, 2, 2, 'panel-budget')).toBe(before);
  });

  it('keeps a head and a tail byte-exact, splitting the chunks across either edge into copies', () => {
    const before = record([10, 10, 10]);
    const out = keepEnds(before, 4, 7, 'panel-budget');
    expect(out.chunks.map((c) => [c.bytes[0], c.bytes.byteLength])).toEqual([
      [0, 4],
      [2, 7],
    ]);
    expect(out.gaps).toEqual([{ offset: 4, bytes: 19, t: 10, cause: 'panel-budget' }]);
    expect(keepEnds(before, 20, 10, 'panel-budget')).toBe(before);
  });
});
