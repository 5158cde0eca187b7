import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from './records';
import { deltaSize } from './size';
import { splitIntoMessages } from './split';

const chunk = (b64: string): ConnectionDelta => ({ kind: 'chunk', id: 'c', t: 1, b64 });

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

  it('cuts one huge chunk into pieces flagged more that join back to the same base64', () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256);
    const b64 = Buffer.from(bytes).toString('base64');
    const messages = splitIntoMessages([chunk(b64)], 1000);
    expect(messages.length).toBeGreaterThan(5);
    const pieces = messages.flat() as Extract<ConnectionDelta, { kind: 'chunk' }>[];
    expect(pieces.map((p) => p.more ?? false)).toEqual([...Array(pieces.length - 1).fill(true), false]);
    for (const p of pieces) expect(p.b64.length % 4 === 0 || p === pieces.at(-1)).toBe(true);
    expect(Buffer.from(pieces.map((p) => p.b64).join(''), 'base64')).toEqual(Buffer.from(bytes));
  });
});
