import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer } from '../analyze';
import { runRules } from './engine';
import { factsOf, FactsMemory } from './facts';
import { rules } from './index';
import { rpc, session, sseEvent, Transcript } from './transcript';

function replayedTranscript() {
  const t = new Transcript();
  const s = session(t, 'S');
  s({
    body: rpc.request(1, 'tools/call'),
    sse: [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2))],
    end: 'network-error',
  });
  s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.progress(1, 2)), sseEvent('3', rpc.result(1))] });
  return t;
}

const replayedSession = () => analyze(replayedTranscript().capture());

describe('facts', () => {
  it('find the events of a connection, and the answers of a session', () => {
    const model = replayedSession();
    const facts = factsOf(model);
    expect(model.connections.map((c) => facts.findEvent(c, (e) => e.lastEventId === '2')?.connectionId)).toEqual([
      'c1',
      'c2',
    ]);
    expect(model.connections.map((c) => facts.summaryOf(c).firstId?.lastEventId)).toEqual(['1', '2']);
    expect(facts.sessions[0]?.answeredAt.get('n:1')).toBe(model.events.at(3)?.time);
    expect(facts.sessions[0]?.messages.answers).toEqual([model.events.at(3)]);
  });

  it('pair each repeated id with its first delivery, and keep that first delivery per id', () => {
    const ids = factsOf(replayedSession()).sessions[0]?.ids;
    const pairs = ids?.repeats.map(({ event, earlier }) => [
      event.connectionId,
      earlier.connectionId,
      event.lastEventId,
    ]);
    expect(pairs).toEqual([['c2', 'c1', '2']]);
    expect(['1', '2', '3', '4'].map((id) => ids?.firstDelivery(id)?.connectionId)).toEqual([
      'c1',
      'c1',
      'c2',
      undefined,
    ]);
  });

  it('count the sequence numbers delivered and find the jumps over them', () => {
    const t = new Transcript();
    const s = session(t, 'S');
    s({ body: rpc.request(1, 'tools/call'), sse: [1, 2, 5, 6, 9].map((n) => sseEvent(String(n), rpc.progress(1, n))) });
    const model = analyze(t.capture());
    const facts = factsOf(model);
    const seen = facts.sessions[0]?.seen('integer');
    expect(seen?.countBetween('', 1, 9)).toBe(3);
    expect([seen?.nextMissing('', 5), seen?.previousMissing('', 6)]).toEqual([7, 4]);
    const jumps = facts.jumpsOf(model.connections[0]!, 'integer');
    expect(jumps.map(({ from, to }) => [from.event.lastEventId, to.event.lastEventId])).toEqual([
      ['2', '5'],
      ['6', '9'],
    ]);
  });

  it('built on an analyzer memory, are dropped after its run: a model asked later gets facts of its own events', () => {
    const t = replayedTranscript();
    const analyzeLive = createAnalyzer();
    const before = analyzeLive(t.capture());
    session(t, 'S')({ headers: { 'last-event-id': '2' }, sse: [sseEvent('3', rpc.result(1))] });
    analyzeLive(t.capture());
    expect(factsOf(before).sessions[0]?.ids.repeats).toHaveLength(1);
    expect(factsOf(before)).toBe(factsOf(before));
  });

  it('give every rule the same findings with or without a memory', () => {
    const model = replayedSession();
    expect(runRules(model, rules, new FactsMemory())).toEqual(runRules(model, rules));
  });
});
