import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'unsolicited-response';

describe(RULE, () => {
  it('reports a response to an id the session never sent (answer from another epoch)', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.result(1))] });
    s({ sse: [sseEvent('2', rpc.result(41, { content: [] }))] });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', connectionId: 'c2', eventId: '2' });
    expect(findings[0]?.message).toContain('matches no request');
  });

  it('reports a second answer to one request under a new event id', () => {
    const t = new Transcript();
    session(
      t,
      'S1',
    )({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.result(1)), sseEvent('2', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('second answer');
  });

  it('treats 1 and "1" as different ids', () => {
    const t = new Transcript();
    session(t, 'S1')({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.result('1'))] });
    expect(findingsFor(t.capture(), RULE)).toHaveLength(1);
  });

  it('accepts answers to requests sent, also arriving on the resumed stream', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: ids reused and captures started late`, () => {
  it('matches each answer to the outstanding request, also when the client reuses ids', () => {
    const t = new Transcript();
    const s = session(t, undefined, '2025-06-18');
    s({ body: rpc.request(0, 'initialize'), json: rpc.result(0, { protocolVersion: '2025-06-18' }) });
    s({ body: rpc.request(1, 'tools/list'), sse: [sseEvent(undefined, rpc.result(1))] });
    s({ body: rpc.request(0, 'initialize'), json: rpc.result(0, { protocolVersion: '2025-06-18' }) });
    s({ body: rpc.request(1, 'tools/list'), sse: [sseEvent(undefined, rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('leaves alone answers on a stream whose POST is not in the capture', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(5, 'tools/list'), sse: [sseEvent('1', rpc.result(5))] });
    s({ headers: { 'last-event-id': 'p9' }, sse: [sseEvent('p10', rpc.result(3))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: a capture that holds the session's initialize`, () => {
  it('reports a response replayed into the session by a resume when the session never sent its request', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(0, 'initialize', { protocolVersion: '2025-11-25' }), json: rpc.result(0) });
    s({ body: rpc.request(5, 'tools/list'), sse: [sseEvent('1', rpc.result(5))] });
    // A cursor this session never got (another session's, from an event store they share) and its answer.
    s({ headers: { 'last-event-id': 'p9' }, sse: [sseEvent('p10', rpc.result(3))] });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ connectionId: 'c3', eventId: 'p10' });
    expect(findings[0]?.message).toContain('response id 3 on c3 matches no request this session sent');
  });
});
