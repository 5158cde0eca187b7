import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'resumption-rejected';

describe(RULE, () => {
  it('notes a resume refused with 409 and its Retry-After', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '1' }, status: 409, responseHeaders: { 'retry-after': '5' } });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'info', connectionId: 'c2' });
    expect(findings[0]?.message).toContain('409');
    expect(findings[0]?.message).toContain('Retry-After: 5');
  });

  it('notes a refusal sent as an SSE error event', () => {
    const t = new Transcript();
    session(
      t,
      'S1',
    )({ headers: { 'last-event-id': '1' }, sse: ['event: error\ndata: {"code":"resumption-failed"}\n\n'] });
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('resumption-failed');
  });

  it('says nothing about successful resumes or plain 404s without a cursor', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.progress(1, 1))] });
    s({ body: rpc.request(2, 'tools/list'), status: 404 });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
