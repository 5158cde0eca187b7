import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { exchange, recorded } from '../recorded.fixture';
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

  it('leaves a re-issue that reuses the lost request id to reissued-with-same-id', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' }, undefined, ERA);
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.result(1))] }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
    expect(findingsFor(t.capture(), 'reissued-with-same-id')).toHaveLength(1);
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

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-*)`, () => {
  it('finds the stream_progress call whose stream the lab cut and the application never sent again', () => {
    const capture = recorded('v2-cut-not-reissued');
    const cut = exchange(capture, 'tools/call', 'stream_progress');
    expect(cut.end).toBe('network-error');
    expect(findingsFor(capture, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [cut.id, `tools/call (id 0) lost on ${cut.id} was never re-issued.`],
    ]);
  });

  it('accepts the application re-issuing it: the SDK gave the new request a new id', () => {
    const capture = recorded('v2-cut-reissued');
    const ids = [0, 1].map((n) => JSON.parse(exchange(capture, 'tools/call', 'stream_progress', n).requestBody!).id);
    expect(ids).toEqual([0, 1]);
    expect(findingsFor(capture, RULE)).toEqual([]);
  });

  it('finds the lost 2026 request beside a 2025 client on the same endpoint, without session ids', () => {
    const capture = recorded('v2-mixed-eras');
    const analysis = analyze(capture);
    const cut = exchange(capture, 'tools/call', 'stream_progress', 0);
    const stateless = analysis.sessions.find((s) => s.era === '2026-07-28');
    expect(analysis.sessions.map((s) => s.era).sort()).toEqual(['2025-11-25', '2026-07-28']);
    expect(stateless?.connectionIds).toContain(cut.id);
    expect(analysis.findings.filter((f) => f.rule === RULE).map((f) => f.connectionId)).toEqual([cut.id]);
  });

  it('stays quiet on the clean control', () => {
    expect(findingsFor(recorded('v2-clean'), RULE)).toEqual([]);
  });
});
