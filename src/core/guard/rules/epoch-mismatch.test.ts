import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'epoch-mismatch';

function resumeOn(epoch: string) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({
    body: rpc.request(1, 'tools/call'),
    sse: [sseEvent('470359:4', rpc.progress(1, 1)), sseEvent('470359:5', rpc.progress(1, 2))],
    end: 'network-error',
  });
  s({ headers: { 'last-event-id': '470359:5' }, sse: [sseEvent(`${epoch}:6`, rpc.result(1))] });
  return t.capture();
}

describe(RULE, () => {
  it('reports a resume answered with events of another epoch', () => {
    const findings = findingsFor(resumeOn('26ede3'), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', eventId: '26ede3:6', connectionId: 'c2' });
    expect(findings[0]?.message).toContain('epoch 470359');
  });

  it('accepts a resume within the same epoch', () => {
    expect(findingsFor(resumeOn('470359'), RULE)).toEqual([]);
  });

  it('does not apply to plain integer ids', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('5', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '5' }, sse: [sseEvent('1', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
