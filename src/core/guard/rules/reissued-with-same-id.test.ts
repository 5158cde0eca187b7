import { describe, expect, it } from 'vitest';
import { editRequest, exchange, recorded, responseText, rewritten, setResponseText } from '../recorded.fixture';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'reissued-with-same-id';
const ERA = '2026-07-28';
const call = (id: number) => rpc.request(id, 'tools/call', { name: 'stream_progress', arguments: { count: 3 } });

describe(RULE, () => {
  it('reports a lost request sent again under its old id, at the re-issue', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' }, undefined, ERA);
    const again = t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.result(1))] }, undefined, ERA);
    const findings = findingsFor(t.capture(), RULE);
    expect(findings.map((f) => [f.connectionId, f.message])).toEqual([
      [again, 'tools/call (id 1) lost on c1 was re-issued on c2 with the SAME id; 2026-07-28 requires a new id.'],
    ]);
  });

  it('accepts a re-issue under a new id, and a request that was never lost', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent(undefined, rpc.progress(1, 1))], end: 'network-error' }, undefined, ERA);
    t.exchange({ body: call(2), sse: [sseEvent(undefined, rpc.result(2))] }, undefined, ERA);
    t.exchange({ body: call(2), sse: [sseEvent(undefined, rpc.result(2))] }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('does not apply to 2025 sessions, which resume instead', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), sse: [sseEvent('1', rpc.progress(1, 1))], end: 'network-error' }, 'S1', '2025-11-25');
    t.exchange({ body: call(1), sse: [sseEvent('2', rpc.result(1))] }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-cut-reissued)`, () => {
  const capture = recorded('v2-cut-reissued');

  it('accepts the recording: the SDK sent the re-issue as request 1 after request 0 was lost', () => {
    expect(findingsFor(capture, RULE)).toEqual([]);
  });

  it('finds the re-issue rewritten to reuse id 0 (request and its answer)', () => {
    const broken = rewritten(capture, (copy) => {
      const again = exchange(copy, 'tools/call', 'stream_progress', 1);
      editRequest(again, (body) => (body['id'] = 0));
      setResponseText(again, responseText(again).replace('"jsonrpc":"2.0","id":1}', '"jsonrpc":"2.0","id":0}'));
    });
    const again = exchange(broken, 'tools/call', 'stream_progress', 1);
    expect(findingsFor(broken, RULE).map((f) => f.connectionId)).toEqual([again.id]);
    expect(findingsFor(broken, 'stateless-request-not-reissued')).toEqual([]);
  });
});
