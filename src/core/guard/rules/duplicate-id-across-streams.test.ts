import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'duplicate-id-across-streams';

describe(RULE, () => {
  it('warns when two streams of one session use the same event id', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/list'), sse: [sseEvent('1', rpc.result(1))] });
    s({ body: rpc.request(2, 'tools/list'), sse: [sseEvent('1', rpc.result(2))] });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toMatchObject([{ severity: 'warning', eventId: '1', connectionId: 'c2' }]);
  });

  it('reports a stream that repeats many ids of another once, at its first repeat, with how many', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    const progress = (n: number) => sseEvent(String(n), rpc.notification('notifications/progress'));
    s({ body: rpc.request(1, 'tools/call'), sse: [1, 2, 3, 4, 5].map(progress) });
    s({ body: rpc.request(2, 'tools/call'), sse: [1, 2, 3, 4].map(progress) });
    s({ body: rpc.request(3, 'tools/call'), sse: [4, 5].map(progress) });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toMatchObject([
      {
        eventId: '1',
        connectionId: 'c2',
        message: expect.stringContaining('4 of its ids repeat ids of that stream, the last 4'),
      },
      {
        eventId: '4',
        connectionId: 'c3',
        message: expect.stringContaining('2 of its ids repeat ids of that stream, the last 5'),
      },
    ]);
  });

  it('allows the same id in different sessions', () => {
    const t = new Transcript();
    session(t, 'S1')({ body: rpc.request(1, 'tools/list'), sse: [sseEvent('1', rpc.result(1))] });
    session(t, 'S2')({ body: rpc.request(1, 'tools/list'), sse: [sseEvent('1', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
