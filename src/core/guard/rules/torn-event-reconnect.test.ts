import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'torn-event-reconnect';

function cutThenResume(tornPiece: string) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1)), tornPiece], end: 'network-error' });
  s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.progress(1, 2)), sseEvent('3', rpc.result(1))] });
  return t.capture();
}

describe(RULE, () => {
  it('reports a connection cut inside a data line that the client then resumed', () => {
    const findings = findingsFor(cutThenResume('event: message\nid: 2\ndata: {"jsonrpc":"2.0","meth'), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', connectionId: 'c1', eventId: '2' });
    expect(findings[0]?.message).toContain('partial data');
  });

  it('reports a cut inside the header lines of an event (the SDK example capture does this)', () => {
    const findings = findingsFor(cutThenResume('event: message\nid: 2'), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('before any data');
  });

  it('stays quiet when the cut fell between events', () => {
    expect(findingsFor(cutThenResume(''), RULE)).toEqual([]);
  });

  it('stays quiet when a torn connection was never resumed', () => {
    const t = new Transcript();
    session(t, 'S1')({ body: rpc.request(1, 'tools/call'), sse: ['id: 1\ndata: {"a'], end: 'network-error' });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
