import { describe, expect, it } from 'vitest';
import type { ConnectionDelta } from '../../protocol/records';
import { applyDeltas, emptyRecords, mergeSnapshot, recordToDeltas } from './records';

const enc = new TextEncoder();
const bytes = (text: string) => enc.encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const start = (id: string, t = 1000): ConnectionDelta => ({
  kind: 'start',
  conn: {
    id,
    source: 'fetch',
    method: 'POST',
    url: 'http://127.0.0.1/mcp',
    requestHeaders: [{ name: 'Accept', value: 'text/event-stream' }],
    requestBody: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
    startTime: t,
  },
});

describe('applyDeltas', () => {
  it("keeps a Break fault's marks on the record it struck, in order, and gives them back as deltas", () => {
    const mark = (t: number, action: string) => ({ t, arm: 'a1', fault: 'f', action, offset: 0, note: action });
    const deltas: ConnectionDelta[] = [
      start('c1'),
      { kind: 'fault', id: 'c1', mark: mark(1001, 'cut') },
      { kind: 'fault', id: 'c1', mark: mark(1002, 'skip-event') },
    ];
    const state = applyDeltas(emptyRecords, deltas);
    expect(state.connections[0]?.faults?.map((m) => m.action)).toEqual(['cut', 'skip-event']);
    expect(recordToDeltas(state.connections[0]!).filter((d) => d.kind === 'fault')).toEqual(deltas.slice(1));
  });

  it('keeps capture gaps in body order, grows one a buffer evicts chunk by chunk, and gives them back in place', () => {
    const gap = (offset: number, size: number) =>
      ({ kind: 'gap', id: 'c1', gap: { offset, bytes: size, t: 1001, cause: 'evicted' } }) as const;
    const deltas: ConnectionDelta[] = [
      start('c1'),
      { kind: 'chunk', id: 'c1', t: 1001, bytes: bytes('abc') },
      gap(3, 10),
      gap(13, 5),
      { kind: 'chunk', id: 'c1', t: 1002, bytes: bytes('xyz') },
      // Re-sent (it overlaps what is known): nothing changes.
      gap(3, 4),
    ];
    const record = applyDeltas(emptyRecords, deltas).connections[0]!;
    expect(record.gaps).toEqual([{ offset: 3, bytes: 15, t: 1001, cause: 'evicted' }]);
    expect(recordToDeltas(record).map((d) => d.kind)).toEqual(['start', 'chunk', 'gap', 'chunk']);
  });

  it('builds a connection record from start, response, chunks and end', () => {
    const state = applyDeltas(emptyRecords, [
      start('c1'),
      {
        kind: 'response',
        id: 'c1',
        status: 200,
        statusText: 'OK',
        responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }],
        responseTime: 1010,
      },
      { kind: 'chunk', id: 'c1', t: 1011, bytes: bytes('id: 1\ndata: {"a":1}\n\n') },
      { kind: 'chunk', id: 'c1', t: 1020, bytes: bytes('id: 2\nda') },
      { kind: 'end', id: 'c1', end: 'network-error', endTime: 1030, error: 'net::ERR_CONNECTION_RESET' },
    ]);
    expect(state.connections).toHaveLength(1);
    const c = state.connections[0]!;
    expect(c.status).toBe(200);
    expect(c.chunks.map((k) => [k.t, text(k.bytes)])).toEqual([
      [1011, 'id: 1\ndata: {"a":1}\n\n'],
      [1020, 'id: 2\nda'],
    ]);
    expect(c.end).toBe('network-error');
    expect(c.endTime).toBe(1030);
    expect(c.error).toBe('net::ERR_CONNECTION_RESET');
  });

  it('marks a connection without an end delta as open', () => {
    const state = applyDeltas(emptyRecords, [
      start('c1'),
      { kind: 'chunk', id: 'c1', t: 1001, bytes: bytes(': ping\n\n') },
    ]);
    expect(state.connections[0]!.end).toBe('open');
    expect(state.connections[0]!.endTime).toBeUndefined();
  });

  it('appends across batches without touching the earlier state', () => {
    const first = applyDeltas(emptyRecords, [start('c1'), { kind: 'chunk', id: 'c1', t: 1, bytes: bytes('a') }]);
    const second = applyDeltas(first, [{ kind: 'chunk', id: 'c1', t: 2, bytes: bytes('b') }]);
    expect(first.connections[0]!.chunks).toHaveLength(1);
    expect(second.connections[0]!.chunks.map((k) => text(k.bytes)).join('')).toBe('ab');
    expect(emptyRecords.connections).toHaveLength(0);
  });

  it('keeps untouched records identical so views can skip them', () => {
    const first = applyDeltas(emptyRecords, [start('c1'), start('c2')]);
    const second = applyDeltas(first, [{ kind: 'chunk', id: 'c2', t: 2, bytes: bytes('x') }]);
    expect(second.connections[0]).toBe(first.connections[0]);
    expect(second.connections[1]).not.toBe(first.connections[1]);
  });

  it('keeps connections in start order and ignores a repeated start', () => {
    const state = applyDeltas(emptyRecords, [
      start('b'),
      start('a'),
      { kind: 'chunk', id: 'b', t: 5, bytes: bytes('x') },
      start('b'),
    ]);
    expect(state.connections.map((c) => c.id)).toEqual(['b', 'a']);
    expect(state.connections[0]!.chunks).toHaveLength(1);
  });

  it('counts deltas for connections it never saw start', () => {
    const state = applyDeltas(emptyRecords, [
      { kind: 'chunk', id: 'ghost', t: 1, bytes: bytes('x') },
      { kind: 'end', id: 'ghost', end: 'complete', endTime: 2 },
    ]);
    expect(state.connections).toHaveLength(0);
    expect(state.orphanDeltas).toBe(2);
  });

  it('while paused, keeps filling known connections but takes no new ones', () => {
    const running = applyDeltas(emptyRecords, [start('c1')]);
    const paused = applyDeltas(
      running,
      [
        start('c2'),
        { kind: 'chunk', id: 'c2', t: 1, bytes: bytes('x') },
        { kind: 'chunk', id: 'c1', t: 1, bytes: bytes('y') },
      ],
      { acceptNew: false },
    );
    expect(paused.connections.map((c) => c.id)).toEqual(['c1']);
    expect(paused.connections[0]!.chunks).toHaveLength(1);
    expect(paused.orphanDeltas).toBe(0);
  });

  it('round-trips a record through recordToDeltas', () => {
    const state = applyDeltas(emptyRecords, [
      start('c1'),
      { kind: 'response', id: 'c1', status: 200, statusText: 'OK', responseHeaders: [], responseTime: 1005 },
      { kind: 'chunk', id: 'c1', t: 1006, bytes: bytes('data: é\n\n') },
      { kind: 'end', id: 'c1', end: 'complete', endTime: 1007 },
    ]);
    const again = applyDeltas(emptyRecords, recordToDeltas(state.connections[0]!));
    expect(again.connections[0]).toEqual(state.connections[0]);
  });
});

describe('mergeSnapshot', () => {
  const start = (id: string, startTime: number): ConnectionDelta => ({
    kind: 'start',
    conn: { id, source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime },
  });
  const chunk = (id: string, text: string): ConnectionDelta => ({ kind: 'chunk', id, t: 5, bytes: enc.encode(text) });

  it('keeps connections only the panel still has (an earlier document under preserve log) and the longer body', () => {
    const panel = applyDeltas(emptyRecords, [
      start('old-page', 1),
      chunk('old-page', 'id: 1\n\n'),
      start('live', 2),
      chunk('live', 'id: 2\n'),
      chunk('live', 'data: x\n\n'),
    ]);
    const snapshot = applyDeltas(emptyRecords, [start('live', 2), chunk('live', 'id: 2\n'), start('new', 3)]);
    const merged = mergeSnapshot(panel, snapshot);
    expect(merged.connections.map((c) => [c.id, c.chunks.length])).toEqual([
      ['old-page', 1],
      ['live', 2],
      ['new', 0],
    ]);
    expect(merged.indexById.get('new')).toBe(2);
  });

  it('keeps the whole record the panel got live over a snapshot the bridge trimmed into a gap', () => {
    const panel = applyDeltas(emptyRecords, [start('s', 1), chunk('s', 'aaaa'), chunk('s', 'bbbb'), chunk('s', 'cc')]);
    const snapshot = applyDeltas(emptyRecords, [
      start('s', 1),
      chunk('s', 'aaaa'),
      { kind: 'gap', id: 's', gap: { offset: 4, bytes: 4, t: 5, cause: 'evicted' } },
      chunk('s', 'cc'),
      { kind: 'end', id: 's', end: 'complete', endTime: 9 },
    ]);
    const [kept] = mergeSnapshot(panel, snapshot).connections;
    expect(kept?.chunks.map((c) => text(c.bytes))).toEqual(['aaaa', 'bbbb', 'cc']);
    expect(kept?.gaps).toBeUndefined();
  });
});
