import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'stateless-request-not-reissued';
const ERA = '2026-07-28';
const call = (id: number) => rpc.request(id, 'tools/call', { name: 'stream_progress', arguments: { count: 3 } });

describe(RULE, () => {
  it('reports a request lost with its stream and never sent again', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' }, undefined, ERA);
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('never re-issued');
  });

  it('reports a re-issue that reuses the lost request id', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' }, undefined, ERA);
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.result(1))] }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('SAME id');
  });

  it('accepts a re-issue with a new id', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' }, undefined, ERA);
    t.exchange({ body: call(2), sse: [sseEvent(undefined, rpc.result(2))] }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: what a re-issue may change`, () => {
  it('accepts a re-issue whose _meta.progressToken follows the new id', () => {
    const t = new Transcript();
    const withToken = (id: number) =>
      rpc.request(id, 'tools/call', { name: 'x', arguments: {}, _meta: { progressToken: id } });
    t.exchange(
      { body: withToken(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' },
      undefined,
      ERA,
    );
    t.exchange({ body: withToken(2), sse: [sseEvent(undefined, rpc.result(2))] }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('treats closing the stream (abort) as a cancellation, not a break', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'aborted' }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
