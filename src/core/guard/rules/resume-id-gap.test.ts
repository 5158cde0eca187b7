import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'resume-id-gap';

function resumeFirst(firstId: string, cursor = '2', prefix = '') {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({
    body: rpc.request(1, 'tools/call'),
    sse: [sseEvent(`${prefix}1`, rpc.progress(1, 1)), sseEvent(`${prefix}2`, rpc.progress(1, 2))],
    end: 'network-error',
  });
  s({ headers: { 'last-event-id': `${prefix}${cursor}` }, sse: [sseEvent(firstId, rpc.result(1))] });
  return t.capture();
}

describe(RULE, () => {
  it('reports integer ids that skip events on resume', () => {
    const findings = findingsFor(resumeFirst('6'), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', eventId: '6', connectionId: 'c2' });
    expect(findings[0]?.message).toContain('3 events (3..5)');
  });

  it('reports epoch:seq ids that skip events on resume', () => {
    expect(findingsFor(resumeFirst('e1:4', '2', 'e1:'), RULE)).toMatchObject([{ eventId: 'e1:4' }]);
  });

  it('accepts the exact successor', () => {
    expect(findingsFor(resumeFirst('3'), RULE)).toEqual([]);
  });

  it('does not count numbers that another stream of the session used', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('3', rpc.notification('notifications/tools/list_changed'))], end: 'open' });
    s({
      body: rpc.request(1, 'tools/call'),
      sse: [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2)), sseEvent('4', rpc.result(1))],
    });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('reports a jump inside a resumed connection of a session numbered one by one', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({
      body: rpc.request(1, 'tools/call'),
      sse: [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.progress(1, 2))],
      end: 'network-error',
    });
    s({ headers: { 'last-event-id': '2' }, sse: [sseEvent('3', rpc.progress(1, 3)), sseEvent('7', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toMatchObject([{ eventId: '7' }]);
  });

  it('stays quiet when healthy connections already skip numbers (a counter shared with unseen sessions)', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({
      body: rpc.request(1, 'tools/call'),
      sse: [sseEvent('105', rpc.progress(1, 1)), sseEvent('109', rpc.progress(1, 2))],
      end: 'network-error',
    });
    s({ headers: { 'last-event-id': '109' }, sse: [sseEvent('112', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('counts a huge jump without walking it', () => {
    const capture = resumeFirst('2000000');
    expect(findingsFor(capture, RULE)[0]?.message).toContain('1999997 events (3..1999999)');
  });

  it('never compares opaque or SDK-style ids numerically', () => {
    const t = new Transcript();
    session(
      t,
      'S1',
    )({
      body: rpc.request(1, 'tools/call'),
      sse: [
        sseEvent('abc_1795967688308_5humigxl', rpc.progress(1, 1)),
        sseEvent('abc_1795967689999_zzzzzzzz', rpc.result(1)),
      ],
    });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
