import { describe, expect, it } from 'vitest';
import type { Capture } from '../../capture/model';
import { exchange, recorded } from '../recorded.fixture';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'retry-ignored';

/** Moves record `id` to start `ms` after record `after` ended (the transcript's clock is 5-10 ms a step). */
function startAfter(capture: Capture, id: string, after: string, ms: number): Capture {
  const ended = capture.connections.find((r) => r.id === after)?.endTime ?? 0;
  const record = capture.connections.find((r) => r.id === id);
  if (!record) throw new Error(`no ${id}`);
  const shift = ended + ms - record.startTime;
  record.startTime += shift;
  if (record.responseTime !== undefined) record.responseTime += shift;
  if (record.endTime !== undefined) record.endTime += shift;
  record.chunks = record.chunks.map((c) => ({ ...c, t: c.t + shift }));
  return capture;
}

function cutThenResumed(retry: number, delay: number): Capture {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: [`id: p0\nretry: ${retry}\ndata: \n\n`], end: 'network-error' });
  s({ headers: { 'last-event-id': 'p0' }, sse: [sseEvent('p1', rpc.result(1))] });
  return startAfter(t.capture(), 'c2', 'c1', delay);
}

describe(RULE, () => {
  it('reports a resume sooner than the retry: the server asked for', () => {
    const findings = findingsFor(cutThenResumed(1000, 20), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', connectionId: 'c1', streamId: 's1' });
    expect(findings[0]?.message).toBe(
      "c1 (stream s1) broke and the client reconnected on c2 after 20 ms, sooner than the server's retry: 1000 ms.",
    );
  });

  it('accepts a resume after the retry time (the SDK 1.32 client waits the server retry:)', () => {
    expect(findingsFor(cutThenResumed(150, 150), RULE)).toEqual([]);
    expect(findingsFor(cutThenResumed(150, 400), RULE)).toEqual([]);
  });

  it('reports a standalone GET stream the server closed with retry: and the client never reopened', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: ['id: g0\nretry: 200\ndata: \n\n'] });
    s({ body: rpc.request(2, 'tools/list'), json: rpc.result(2) });
    const capture = startAfter(t.capture(), 'c2', 'c1', 5000);
    const [finding] = findingsFor(capture, RULE);
    expect(finding?.message).toBe('c1 (stream s1) closed with retry: 200 ms and the client never reconnected.');
  });

  it('stays quiet without retry:, and on streams the client aborted itself', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: ['id: p0\ndata: \n\n'], end: 'network-error' });
    s({ headers: { 'last-event-id': 'p0' }, sse: [sseEvent('p1', rpc.result(1))] });
    s({ sse: ['id: g0\nretry: 200\ndata: \n\n'], end: 'aborted' });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE} on real SDK traffic`, () => {
  it('accepts the SDK 1.32 client resuming a stream the server closed, after the retry time (server-close-resumed)', () => {
    expect(findingsFor(recorded('server-close-resumed'), RULE)).toEqual([]);
  });

  it('reports a client that never reconnects and cancels on its timeout instead (server-close-not-resumed)', () => {
    const capture = recorded('server-close-not-resumed');
    const call = exchange(capture, 'tools/call', 'stream_progress');
    const findings = findingsFor(capture, RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.connectionId).toBe(call.id);
    expect(findings[0]?.message).toContain(
      'closed with retry: 150 ms and the client never reconnected (it cancelled the request instead)',
    );
  });
});
