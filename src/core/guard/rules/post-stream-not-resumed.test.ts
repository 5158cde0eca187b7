import { describe, expect, it } from 'vitest';
import { exchange, recorded, rewritten, rpcMethod } from '../recorded.fixture';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'post-stream-not-resumed';
const PRIMING = 'id: p0\nretry: 150\ndata: \n\n';

/** The server closes the tools/call stream after its priming event (2025-11-25 polling); then what the client does. */
function closedAfterPriming(then: (s: ReturnType<typeof session>) => void) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: [PRIMING, sseEvent('p1', rpc.progress(1, 1))] });
  then(s);
  return t.capture();
}

const later = (s: ReturnType<typeof session>) => {
  // The client goes on with other work, well after the retry time.
  for (let i = 0; i < 120; i++) s({ body: rpc.notification('notifications/message'), status: 202 });
};

describe(RULE, () => {
  it('reports a POST stream closed after an id, neither resumed nor cancelled, while the capture went on', () => {
    const findings = findingsFor(closedAfterPriming(later), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', connectionId: 'c1', streamId: 's1' });
    expect(findings[0]?.message).toBe(
      'the server closed c1 (stream s1, request 1) after event id p1 (retry: 150 ms) without the answer; the client neither resumed it with Last-Event-ID nor cancelled the request.',
    );
    // One finding per loss: the generic lost-request rule steps aside.
    expect(findingsFor(closedAfterPriming(later), 'unanswered-after-disconnect')).toEqual([]);
  });

  it('stays quiet when the client resumed the stream', () => {
    const capture = closedAfterPriming((s) => {
      s({ headers: { 'last-event-id': 'p1' }, sse: [sseEvent('p2', rpc.result(1))] });
      later(s);
    });
    expect(findingsFor(capture, RULE)).toEqual([]);
  });

  it('leaves a request the client cancelled to unanswered-after-disconnect', () => {
    const capture = closedAfterPriming((s) => {
      later(s);
      s({ body: rpc.notification('notifications/cancelled', { requestId: 1, reason: 'timeout' }) });
    });
    expect(findingsFor(capture, RULE)).toEqual([]);
    expect(findingsFor(capture, 'unanswered-after-disconnect')).toHaveLength(1);
  });

  it('says nothing while the capture ends right after the close (the client may still resume)', () => {
    expect(
      findingsFor(
        closedAfterPriming(() => undefined),
        RULE,
      ),
    ).toEqual([]);
  });

  it('leaves a broken stream (network error) to unanswered-after-disconnect', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [PRIMING], end: 'network-error' });
    later(s);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE} on real SDK traffic (fixtures/server-close-not-resumed)`, () => {
  const real = recorded('server-close-not-resumed');

  it('leaves the recording itself to unanswered-after-disconnect: the SDK cancelled the call on its timeout', () => {
    expect(findingsFor(real, RULE)).toEqual([]);
    expect(findingsFor(real, 'unanswered-after-disconnect')).toHaveLength(1);
  });

  it('reports the same closed stream when the client never cancels either', () => {
    const silent = rewritten(real, (copy) => {
      copy.connections = copy.connections.filter((r) => rpcMethod(r) !== 'notifications/cancelled');
    });
    const call = exchange(silent, 'tools/call', 'stream_progress');
    const findings = findingsFor(silent, RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', connectionId: call.id });
    expect(findings[0]?.message).toContain('(retry: 150 ms) without the answer; the client neither resumed it');
    expect(findingsFor(silent, 'unanswered-after-disconnect')).toEqual([]);
  });

  it('stays quiet when the SDK client resumes it (fixtures/server-close-resumed)', () => {
    expect(findingsFor(recorded('server-close-resumed'), RULE)).toEqual([]);
  });
});
