import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { factsOf, firstDeliveries, repeatedIds } from './facts';
import { rpc, session, sseEvent, Transcript } from './transcript';

function replayedSession() {
  const t = new Transcript();
  const s = session(t, 'S');
  s({
    body: rpc.request(1, 'tools/call'),
    sse: [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2))],
    end: 'network-error',
  });
  s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.progress(1, 2)), sseEvent('3', rpc.result(1))] });
  return analyze(t.capture());
}

describe('facts', () => {
  it('give each session its events and each connection its own, in time order', () => {
    const model = replayedSession();
    const facts = factsOf(model);
    expect(facts.sessions.map((s) => s.events.map((e) => e.lastEventId))).toEqual([['1', '2', '2', '3']]);
    expect(model.connections.map((c) => facts.eventsOf(c).map((e) => e.lastEventId))).toEqual([
      ['1', '2'],
      ['2', '3'],
    ]);
    expect(facts.sessions[0]?.answeredAt.get('n:1')).toBe(model.events[3]?.time);
  });

  it('pair each repeated id with its first delivery, and keep that first delivery per id', () => {
    const events = factsOf(replayedSession()).sessions[0]?.events ?? [];
    const pairs = [...repeatedIds(events)].map(({ event, earlier }) => [
      event.connectionId,
      earlier.connectionId,
      event.lastEventId,
    ]);
    expect(pairs).toEqual([['c2', 'c1', '2']]);
    expect([...firstDeliveries(events)].map(([id, e]) => [id, e.connectionId])).toEqual([
      ['1', 'c1'],
      ['2', 'c1'],
      ['3', 'c2'],
    ]);
    // Asked again (as three rules do), the same answer; a list that grew since is walked again.
    const list = events.slice();
    expect([...repeatedIds(list)]).toHaveLength(1);
    list.push(events[0]!);
    expect([...repeatedIds(list)]).toHaveLength(2);
  });
});
