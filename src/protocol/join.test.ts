import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from './records';
import { splitIntoMessages } from './split';
import { DeltaJoiner } from './join';

describe('DeltaJoiner', () => {
  it('joins pieces split by the bridge back into the original chunk, across messages', () => {
    const bytes = Uint8Array.from({ length: 9000 }, (_, i) => i % 251);
    const original: ConnectionDelta[] = [
      { kind: 'chunk', id: 'a', t: 5, bytes: new TextEncoder().encode('ABC') },
      { kind: 'chunk', id: 'a', t: 6, bytes },
      { kind: 'end', id: 'a', end: 'complete', endTime: 7 },
    ];
    const joiner = new DeltaJoiner(0);
    const joined = splitIntoMessages(original, 1000).flatMap((m) => joiner.push(m));
    expect(joined).toEqual(original);
  });

  it('scopes ids of subframes and leaves the top frame alone', () => {
    const start: ConnectionDelta = {
      kind: 'start',
      conn: { id: 'x-1', source: 'fetch', method: 'GET', url: 'http://127.0.0.1/', requestHeaders: [], startTime: 1 },
    };
    const chunk: ConnectionDelta = { kind: 'chunk', id: 'x-1', t: 2, bytes: new TextEncoder().encode('ABC') };
    expect(new DeltaJoiner(0).push([start, chunk])).toEqual([start, chunk]);
    const scoped = new DeltaJoiner(7).push([start, chunk]);
    expect(scoped.map((d) => (d.kind === 'start' ? d.conn.id : d.id))).toEqual(['f7.x-1', 'f7.x-1']);
  });
});
