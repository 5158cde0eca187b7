import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'unanswered-after-disconnect';

describe(RULE, () => {
  it('reports a POST stream that broke before its answer and was never resumed', () => {
    const t = new Transcript();
    session(
      t,
      'S1',
    )({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toMatchObject([{ severity: 'error', connectionId: 'c1' }]);
    expect(findings[0]?.message).toContain('request 7');
  });

  it('stays quiet when the client resumed the stream', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.result(7))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: the client's own choices`, () => {
  it('does not count a request the client cancelled while its stream was alive', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ body: rpc.notification('notifications/cancelled', { requestId: 7, reason: 'user' }) });
    const capture = t.capture();
    const [stream, cancel] = capture.connections;
    if (stream && cancel) stream.endTime = cancel.startTime + 1;
    expect(findingsFor(capture, RULE)).toEqual([]);
  });

  it('does not count an abort', () => {
    const t = new Transcript();
    session(t, 'S1')({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'aborted' });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: every way a stream can end without its answer`, () => {
  it('reports a resume refused with 409 after which the request was never sent again', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '1' }, status: 409 });
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('refused (409)');
  });

  it('stays quiet when the client re-initialized after the refusal and made the same call again', () => {
    const t = new Transcript();
    const s1 = session(t, 'S1');
    const call = rpc.request(7, 'tools/call', { name: 'report', arguments: { n: 1 } });
    s1({ body: call, sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s1({ headers: { 'last-event-id': '1' }, status: 404 });
    const s2 = session(t, 'S2');
    s2({ body: rpc.request(0, 'initialize'), json: rpc.result(0) });
    s2({ body: { ...call, id: 1 }, sse: [sseEvent('7', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('still reports it when the new session made other calls only', () => {
    const t = new Transcript();
    const s1 = session(t, 'S1');
    s1({
      body: rpc.request(7, 'tools/call', { name: 'report' }),
      sse: [sseEvent('1', rpc.progress(1, 1))],
      end: 'network-error',
    });
    s1({ headers: { 'last-event-id': '1' }, status: 404 });
    const s2 = session(t, 'S2');
    s2({ body: rpc.request(0, 'initialize'), json: rpc.result(0) });
    s2({ body: rpc.request(1, 'tools/call', { name: 'other' }), sse: [sseEvent('7', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('refused (404)');
  });

  it('reports a POST stream closed in the middle of an event without a reconnect', () => {
    const t = new Transcript();
    session(
      t,
      'S1',
    )({
      body: rpc.request(7, 'tools/call'),
      sse: [sseEvent('1', rpc.progress(1, 1)), 'id: 2\ndata: {"jsonrpc":"2.0","id":7,"res'],
    });
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('in the middle of an event');
  });

  it('reports a last resume that ended cleanly without the answer', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.progress(1, 2))] });
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('last resume');
  });

  it('stays quiet while the stream is still open, and when the client closed the session during it', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'open' });
    s({ body: rpc.request(8, 'tools/call'), sse: [sseEvent('2', rpc.progress(1, 1))], end: 'network-error' });
    s({ method: 'DELETE' });
    const capture = t.capture();
    const [, stream, del] = capture.connections;
    if (stream && del) stream.endTime = del.startTime + 1;
    expect(findingsFor(capture, RULE)).toEqual([]);
  });

  it('still reports the loss when the DELETE only cleaned up after it', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(8, 'tools/call'), sse: [sseEvent('2', rpc.progress(1, 1))], end: 'network-error' });
    s({ method: 'DELETE' });
    expect(findingsFor(t.capture(), RULE)).toHaveLength(1);
  });
});

describe(`${RULE}: a cancellation that only records a timeout`, () => {
  it('still reports a request lost first and cancelled by the client timeout afterwards', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(7, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '1' }, status: 409 });
    s({ body: rpc.notification('notifications/cancelled', { requestId: 7, reason: 'timeout' }) });
    expect(findingsFor(t.capture(), RULE)).toHaveLength(1);
  });
});
