import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from '../protocol/records';
import { FrameBuffer } from './buffer';

const startOf = (id: string): ConnectionDelta => ({
  kind: 'start',
  conn: { id, source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime: 1 },
});
const chunkOf = (id: string, size: number): ConnectionDelta => ({
  kind: 'chunk',
  id,
  t: 2,
  bytes: new Uint8Array(size),
});
const endOf = (id: string): ConnectionDelta => ({ kind: 'end', id, end: 'complete', endTime: 3 });
const ids = (deltas: ConnectionDelta[]): string[] => [
  ...new Set(deltas.map((d) => (d.kind === 'start' ? d.conn.id : d.id))),
];

describe('FrameBuffer', () => {
  it('keeps every delta in order, grouped per connection', () => {
    const buffer = new FrameBuffer();
    const deltas = [startOf('a'), startOf('b'), chunkOf('a', 8), chunkOf('b', 8), endOf('a')];
    for (const d of deltas) expect(buffer.add(d)).toBe('buffered');
    expect(buffer.snapshot()).toEqual([deltas[0], deltas[2], deltas[4], deltas[1], deltas[3]]);
  });

  it('refuses deltas of connections it never saw start, duplicate starts, and deltas after the end', () => {
    const buffer = new FrameBuffer();
    expect(buffer.add(chunkOf('ghost', 4))).toBe('rejected');
    buffer.add(startOf('a'));
    expect(buffer.add(startOf('a'))).toBe('rejected');
    buffer.add(endOf('a'));
    expect(buffer.add(chunkOf('a', 4))).toBe('rejected');
  });

  it('over budget drops whole completed connections first, oldest first, and counts the bytes', () => {
    const buffer = new FrameBuffer(3000);
    buffer.add(startOf('old'));
    buffer.add(chunkOf('old', 1000));
    buffer.add(endOf('old'));
    buffer.add(startOf('live'));
    buffer.add(chunkOf('live', 1000));
    buffer.add(startOf('newer'));
    buffer.add(chunkOf('newer', 1000));
    buffer.add(endOf('newer'));
    expect(ids(buffer.snapshot())).toEqual(['live', 'newer']);
    expect(buffer.droppedBytes).toBeGreaterThan(1000);
    expect(buffer.bytes).toBeLessThanOrEqual(3000);
  });

  it('drops an open connection only when nothing completed is left, and relays its later deltas', () => {
    const buffer = new FrameBuffer(1500);
    buffer.add(startOf('live'));
    buffer.add(chunkOf('live', 1000));
    expect(buffer.add(chunkOf('live', 1000))).toBe('relay-only');
    expect(buffer.snapshot()).toEqual([]);
    expect(buffer.add(chunkOf('live', 10))).toBe('relay-only');
    buffer.add(startOf('next'));
    expect(ids(buffer.snapshot())).toEqual(['next']);
  });

  it('trims the middle of a big stream into a gap before touching the small exchanges that explain it', () => {
    const buffer = new FrameBuffer(200_000);
    buffer.add(startOf('initialize'));
    buffer.add(chunkOf('initialize', 300));
    buffer.add(endOf('initialize'));
    buffer.add(startOf('big'));
    for (let i = 0; i < 4; i += 1) expect(buffer.add(chunkOf('big', 60_000))).toBe('buffered');
    const snapshot = buffer.snapshot();
    expect(ids(snapshot)).toEqual(['initialize', 'big']);
    // The head (the first 64 KiB: two chunks here), then a gap: an open stream keeps no bytes after its head once
    // trimmed, and its later chunks go into the gap uncopied (relayed live only).
    const big = snapshot.filter((d) => d.kind !== 'start' && d.id === 'big');
    expect(big.map((d) => d.kind)).toEqual(['chunk', 'chunk', 'gap']);
    expect(big[2]).toEqual({
      kind: 'gap',
      id: 'big',
      gap: { offset: 120_000, bytes: 120_000, t: 2, cause: 'evicted' },
    });
    expect(buffer.trimmedBytes).toBe(120_000);
    expect(buffer.add(chunkOf('big', 5_000))).toBe('relay-only');
    const grown = buffer.snapshot().find((d) => d.kind === 'gap');
    expect(grown?.kind === 'gap' && grown.gap.bytes).toBe(125_000);
    expect(buffer.droppedBytes).toBe(0);
    buffer.add(startOf('next'));
    expect(ids(buffer.snapshot())).toEqual(['initialize', 'big', 'next']);
  });

  it('trims an ended stream only as far as the budget needs, keeping its latest bytes', () => {
    const buffer = new FrameBuffer(400_000);
    buffer.add(startOf('done'));
    for (let i = 0; i < 5; i += 1) buffer.add(chunkOf('done', 60_000));
    buffer.add(endOf('done'));
    buffer.add(startOf('other'));
    for (let i = 0; i < 3; i += 1) buffer.add(chunkOf('other', 50_000));
    const done = buffer.snapshot().filter((d) => d.kind !== 'start' && d.id === 'done');
    expect(done.map((d) => d.kind)).toEqual(['chunk', 'chunk', 'gap', 'chunk', 'chunk', 'end']);
    expect(buffer.bytes).toBeLessThanOrEqual(400_000);
  });

  it('grows one gap as a long stream keeps trimming, and keeps a fault mark it meets', () => {
    const buffer = new FrameBuffer(150_000);
    buffer.add(startOf('s'));
    buffer.add(chunkOf('s', 70_000));
    buffer.add(chunkOf('s', 10_000));
    buffer.add({
      kind: 'fault',
      id: 's',
      mark: { t: 2, arm: 'a', fault: 'cut', action: 'cut', offset: 80_000, note: 'n' },
    });
    for (let i = 0; i < 20; i += 1) buffer.add(chunkOf('s', 10_000));
    buffer.add(endOf('s'));
    const deltas = buffer.snapshot();
    const gaps = deltas.flatMap((d) => (d.kind === 'gap' ? [d.gap] : []));
    expect(gaps).toHaveLength(1);
    expect(gaps[0]?.offset).toBe(70_000);
    const kept = deltas.reduce((sum, d) => sum + (d.kind === 'chunk' ? d.bytes.byteLength : 0), 0);
    // Every body byte is either kept or in the gap.
    expect(kept + (gaps[0]?.bytes ?? 0)).toBe(280_000);
    expect(deltas.map((d) => d.kind).filter((k) => k !== 'chunk')).toEqual(['start', 'fault', 'gap', 'end']);
    expect(buffer.bytes).toBeLessThanOrEqual(150_000);
  });

  it('clear forgets everything and refuses later deltas of connections that were open', () => {
    const buffer = new FrameBuffer();
    buffer.add(startOf('open'));
    buffer.add(startOf('done'));
    buffer.add(endOf('done'));
    buffer.clear();
    expect(buffer.snapshot()).toEqual([]);
    expect(buffer.add(chunkOf('open', 4))).toBe('rejected');
    expect(buffer.add(startOf('fresh'))).toBe('buffered');
  });

  it('a smaller budget applies at once', () => {
    const buffer = new FrameBuffer();
    for (const id of ['a', 'b', 'c']) {
      buffer.add(startOf(id));
      buffer.add(chunkOf(id, 1000));
      buffer.add(endOf(id));
    }
    buffer.setBudget(1500);
    expect(ids(buffer.snapshot())).toEqual(['c']);
  });

  it('keeps its own copy of a chunk that sits in a slab, so the slab can go back to the tap', () => {
    const buffer = new FrameBuffer();
    const slab = new ArrayBuffer(64);
    const bytes = new Uint8Array(slab, 16, 4);
    bytes.set([1, 2, 3, 4]);
    buffer.add(startOf('a'));
    buffer.add({ kind: 'chunk', id: 'a', t: 2, bytes });
    structuredClone(slab, { transfer: [slab] });
    expect(slab.byteLength).toBe(0);
    const kept = buffer.snapshot()[1] as Extract<ConnectionDelta, { kind: 'chunk' }>;
    expect([...kept.bytes]).toEqual([1, 2, 3, 4]);
    expect(kept.bytes.buffer.byteLength).toBe(4);
  });
});
