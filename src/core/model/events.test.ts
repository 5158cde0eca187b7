// An analyzer hands out the last model's event list where nothing changed, a list that continues it where events
// were only appended, and the same model as a fresh analysis everywhere.
import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer } from '../analyze';
import type { Capture, ConnectionRecord } from '../capture/model';
import { rpc, sseEvent, Transcript } from '../guard/transcript';
import { PlacedEvents } from './event-list';

const encoder = new TextEncoder();

/** Two sessions, each with an open SSE stream; `t` sets the chunk times. */
function twoStreams(): Capture {
  const t = new Transcript();
  t.exchange({ sse: [sseEvent('1', rpc.notification('n'))], end: 'open' }, 'A');
  t.exchange({ sse: [sseEvent('1', rpc.notification('n'))], end: 'open' }, 'B');
  return t.capture();
}

/** The capture with one more chunk (one event) on connection `index`, at time `at`, the record copied. */
function append(capture: Capture, index: number, id: string, at: number): Capture {
  const connections = capture.connections.map((record, i): ConnectionRecord => {
    if (i !== index) return record;
    return {
      ...record,
      chunks: [...record.chunks, { t: at, bytes: encoder.encode(sseEvent(id, rpc.notification('n'))) }],
    };
  });
  return { ...capture, connections };
}

describe('event lists across analyses', () => {
  it('are the same list when nothing changed', () => {
    const live = createAnalyzer();
    const capture = twoStreams();
    const first = live(capture);
    const again = live(capture);
    expect(again.events).toBe(first.events);
    expect(again.connections.map((c) => [...c.eventIndexes])).toEqual(
      first.connections.map((c) => [...c.eventIndexes]),
    );
  });

  it('continue the last list when a stream grows, and equal a fresh analysis', () => {
    const live = createAnalyzer();
    let capture = twoStreams();
    let previous = live(capture);
    for (const [step, index] of [0, 1, 1, 0].entries()) {
      capture = append(capture, index, String(step + 2), 2_000 + step);
      const next = live(capture);
      expect(next).toStrictEqual(analyze(capture));
      expect([...next.events].slice(0, previous.events.length)).toEqual([...previous.events]);
      // Same lineage: the rules' indexes read on from the last list instead of starting over.
      expect(next.events instanceof PlacedEvents && next.events.continues(previous.events)).toBe(true);
      previous = next;
    }
  });

  it('equal a fresh analysis when new events sort before old ones, or tie with them across streams', () => {
    const live = createAnalyzer();
    let capture = twoStreams();
    live(capture);
    const last = (c: Capture) => Math.max(...c.connections.flatMap((r) => r.chunks.map((k) => k.t)));
    // Equal to the last time, on the earlier stream: a stable sort puts it before the later stream's event.
    capture = append(capture, 0, '7', last(capture));
    expect(live(capture)).toStrictEqual(analyze(capture));
    // Earlier than everything so far.
    capture = append(capture, 1, '8', 0);
    expect(live(capture)).toStrictEqual(analyze(capture));
    capture = append(capture, 1, '9', last(capture) + 1);
    expect(live(capture)).toStrictEqual(analyze(capture));
  });

  it('equal a fresh analysis when a connection of the first session arrives after the second session', () => {
    const live = createAnalyzer();
    let capture = twoStreams();
    live(capture);
    const t = new Transcript();
    const added = t.exchange({ sse: [sseEvent('2', rpc.notification('n'))] }, 'A');
    const record = { ...(t.capture().connections[0] as ConnectionRecord), id: `${added}-late`, startTime: 5_000 };
    record.chunks = record.chunks.map((chunk) => ({ ...chunk, t: 5_001 }));
    capture = { ...capture, connections: [...capture.connections, record] };
    expect(live(capture)).toStrictEqual(analyze(capture));
  });

  it('equal a fresh analysis when a stream whose chunk times go back loses an earlier event before it', () => {
    const live = createAnalyzer();
    const t = new Transcript();
    // B's second chunk is stamped before its first: the model sorts B's events out of their own order.
    const b = t.exchange({ sse: [sseEvent('1', rpc.notification('n')), sseEvent('2', rpc.notification('n'))] }, 'B');
    t.exchange({ sse: [sseEvent('9', rpc.notification('n'))] }, 'A');
    const [recordB, recordA] = t.capture().connections as [ConnectionRecord, ConnectionRecord];
    const backwards = { ...recordB, chunks: recordB.chunks.map((chunk, i) => ({ ...chunk, t: i === 0 ? 500 : 300 })) };
    const early = { ...recordA, chunks: recordA.chunks.map((chunk) => ({ ...chunk, t: 100 })) };
    const both: Capture = { ...t.capture(), connections: [backwards, early] };
    expect([...live(both).events].map((e) => e.connectionId)).toEqual(['c2', b, b]);
    const alone: Capture = { ...both, connections: [backwards] };
    expect(live(alone)).toStrictEqual(analyze(alone));
  });
});
