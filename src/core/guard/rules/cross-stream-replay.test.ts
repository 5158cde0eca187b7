import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'cross-stream-replay';

describe(RULE, () => {
  it('reports a resume that replays events of another stream', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('10', rpc.notification('notifications/message'))], end: 'open' });
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('11', rpc.progress(1, 1))], end: 'network-error' });
    s({
      headers: { 'last-event-id': '11' },
      sse: [sseEvent('10', rpc.notification('notifications/message')), sseEvent('12', rpc.result(1))],
    });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', eventId: '10', connectionId: 'c3', streamId: 's2' });
  });

  it('stays quiet when a resume only continues its own stream', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('10', rpc.notification('notifications/message'))], end: 'open' });
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('11', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '11' }, sse: [sseEvent('12', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE} and replayed-event-duplicate: one finding per re-delivery`, () => {
  const replayed = (data: unknown) => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('10', rpc.notification('notifications/message'))], end: 'open' });
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('11', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': '11' }, sse: [sseEvent('10', data), sseEvent('12', rpc.result(1))] });
    return t.capture();
  };

  it('reports an event first seen on another stream here, saying it is a duplicate, and not as replayed-event-duplicate', () => {
    const capture = replayed(rpc.notification('notifications/message'));
    const [finding] = findingsFor(capture, RULE);
    expect(finding?.message).toContain('(identical payload)');
    expect(finding?.message).toContain('processes it twice');
    expect(findingsFor(capture, 'replayed-event-duplicate')).toEqual([]);
    // The cursor's stream continued after the replayed event: no restart either.
    expect(findingsFor(capture, 'resume-not-honored')).toEqual([]);
  });

  it('says when the re-delivered id carries another payload', () => {
    const [finding] = findingsFor(replayed(rpc.notification('notifications/other')), RULE);
    expect(finding?.message).toContain('(a DIFFERENT payload)');
  });
});
