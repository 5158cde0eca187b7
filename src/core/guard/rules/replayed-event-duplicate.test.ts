import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'replayed-event-duplicate';

function resumeDelivering(replayed: string) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({
    body: rpc.request(1, 'tools/call'),
    sse: [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2))],
    end: 'network-error',
  });
  s({ headers: { 'last-event-id': '2' }, sse: [replayed, sseEvent('4', rpc.result(1))] });
  return t.capture();
}

describe(RULE, () => {
  it('warns when a resume re-delivers an event with the identical payload', () => {
    const findings = findingsFor(resumeDelivering(sseEvent('2', rpc.progress(1, 2))), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', eventId: '2', connectionId: 'c2' });
  });

  it('is an error when the re-delivered id carries a different payload', () => {
    const findings = findingsFor(resumeDelivering(sseEvent('2', rpc.progress(1, 99))), RULE);
    expect(findings).toMatchObject([{ severity: 'error', eventId: '2' }]);
    expect(findings[0]?.message).toContain('DIFFERENT');
  });

  it('does not count the re-delivery of a torn, never-dispatched event', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({
      body: rpc.request(1, 'tools/call'),
      sse: [sseEvent('1', rpc.progress(1, 1)), 'id: 2\ndata: {"jsonrpc"'],
      end: 'network-error',
    });
    s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.progress(1, 2)), sseEvent('3', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('stays quiet on a clean continuation', () => {
    expect(findingsFor(resumeDelivering(sseEvent('3', rpc.progress(1, 3))), RULE)).toEqual([]);
  });
});

describe(`${RULE}: within one resumed connection`, () => {
  it('reports an id delivered twice by the same resume', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({
      headers: { 'last-event-id': '1' },
      sse: [sseEvent('2', rpc.progress(1, 2)), sseEvent('2', rpc.progress(1, 2)), sseEvent('3', rpc.result(1))],
    });
    expect(findingsFor(t.capture(), RULE)).toMatchObject([{ severity: 'warning', eventId: '2', connectionId: 'c2' }]);
  });
});
