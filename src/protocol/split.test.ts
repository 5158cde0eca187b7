import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from './records';
import { deltaSize } from './size';
import { splitIntoMessages } from './split';

const chunk = (text: string): ConnectionDelta => ({
  kind: 'chunk',
  id: 'c',
  t: 1,
  bytes: new TextEncoder().encode(text),
});
const chunkOf = (bytes: Uint8Array): ConnectionDelta => ({ kind: 'chunk', id: 'c', t: 1, bytes });

describe('splitIntoMessages', () => {
  it('keeps small batches in one message', () => {
    const deltas = [chunk('QUJD'), chunk('REVG')];
    expect(splitIntoMessages(deltas, 1000)).toEqual([deltas]);
  });

  it('starts a new message before the limit is passed', () => {
    const deltas = Array.from({ length: 10 }, () => chunk('A'.repeat(200)));
    const messages = splitIntoMessages(deltas, 1000);
    expect(messages.flat()).toEqual(deltas);
    for (const m of messages) expect(m.reduce((s, d) => s + deltaSize(d), 0)).toBeLessThanOrEqual(1000);
  });

  it('cuts one huge chunk into pieces flagged more that join back to the same bytes', () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256);
    const messages = splitIntoMessages([chunkOf(bytes)], 1000);
    expect(messages.length).toBeGreaterThan(5);
    const pieces = messages.flat() as Extract<ConnectionDelta, { kind: 'chunk' }>[];
    expect(pieces.map((p) => p.more ?? false)).toEqual([...Array(pieces.length - 1).fill(true), false]);
    // Each piece owns its buffer: a structured clone of a view would carry the whole original buffer.
    for (const p of pieces) expect(p.bytes.buffer.byteLength).toBe(p.bytes.byteLength);
    expect(Buffer.concat(pieces.map((p) => p.bytes))).toEqual(Buffer.from(bytes));
  });
});
