// A model's event list: lookups and walks give the same views, in time order, across interleaved streams.
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import type { Capture } from '../capture/model';
import { rpc, sseEvent, Transcript } from '../guard/transcript';
import { PlacedEvents } from './event-list';
import type { EventList, EventView } from './types';

/** Two streams whose chunks alternate in time, so the list is many short stretches of two connections. */
function interleaved(): Capture {
  const t = new Transcript();
  t.exchange({ sse: [1, 2, 3].map((n) => sseEvent(String(n), rpc.progress(1, n))) }, 'A');
  t.exchange({ sse: [1, 2].map((n) => sseEvent(`b:${n}`, rpc.result(n))) }, 'B');
  const capture = t.capture();
  const [a, b] = capture.connections;
  if (!a || !b) throw new Error('two connections');
  a.chunks = a.chunks.map((chunk, i) => ({ ...chunk, t: 100 + 10 * i }));
  b.chunks = b.chunks.map((chunk, i) => ({ ...chunk, t: 105 + 10 * i }));
  b.startTime = a.startTime;
  return capture;
}

const fields = ({ index, connectionId, lastEventId, time, data, envelopes }: EventView) => ({
  index,
  connectionId,
  lastEventId,
  time,
  data,
  envelopes,
});

const byLookup = (events: EventList) => Array.from({ length: events.length }, (_, i) => events.at(i));

describe('event list', () => {
  const { events } = analyze(interleaved());

  it('orders the events of both streams by time, and walks them as lookups find them', () => {
    expect([...events].map((e) => [e.connectionId, e.lastEventId])).toEqual([
      ['c1', '1'],
      ['c2', 'b:1'],
      ['c1', '2'],
      ['c2', 'b:2'],
      ['c1', '3'],
    ]);
    expect([...events].map(fields)).toEqual(byLookup(events).map((e) => e && fields(e)));
    expect([...events].map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('lends one moving view that reads as the views lookups make, from any event on', () => {
    const list = events as PlacedEvents;
    for (const from of [0, 2, 4, 5]) {
      const seen: ReturnType<typeof fields>[] = [];
      let lent: EventView | undefined;
      list.visit(from, (view) => {
        seen.push(fields(view));
        lent ??= view;
        expect(view).toBe(lent);
      });
      expect(seen).toEqual(
        byLookup(events)
          .slice(from)
          .map((e) => e && fields(e)),
      );
    }
  });

  it("reads each event's time and body offset without a view, as the views have them", () => {
    const list = events as PlacedEvents;
    const direct = Array.from({ length: list.length }, (_, i) => [list.timeAt(i), list.startAt(i)]);
    expect(direct).toEqual(byLookup(events).map((e) => [e?.time, e?.start]));
    // Interleaved: the times rise across both connections, the offsets are each connection's own.
    const times = direct.map(([time]) => time ?? NaN);
    expect(times).toEqual(times.toSorted((a, b) => a - b));
  });

  it('looks up as Array.prototype.at does', () => {
    expect([events.at(-1)?.index, events.at(-5)?.index, events.at(1.7)?.index]).toEqual([4, 0, 1]);
    expect([events.at(5), events.at(-6)]).toEqual([undefined, undefined]);
  });

  it('makes each view on demand: data and messages from the bytes, envelopes from the columns', () => {
    const last = events.at(3);
    expect(last?.data).toBe(JSON.stringify(rpc.result(2)));
    expect(last?.dataLength).toBe(last?.data.length);
    expect(last?.messages).toEqual([{ kind: 'response', id: 2, value: rpc.result(2) }]);
    expect(last?.envelopes).toEqual([{ kind: 'response', id: 2 }]);
    expect(events.at(3)).not.toBe(last);
    expect(events.at(3)).toEqual(last);
  });
});
