import { describe, expect, it } from 'vitest';
import { exchange, recorded, responseText, rewritten, setResponseText } from '../recorded.fixture';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'response-id-mismatch';

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');

  it('accepts the recording: every answer, JSON or SSE, carries its own request id', () => {
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds a JSON answer and an SSE answer rewritten to another id', () => {
    const broken = rewritten(clean, (copy) => {
      const big = exchange(copy, 'tools/call', 'big_result');
      setResponseText(big, responseText(big).replace(/"id":1}$/, '"id":7}'));
      const progress = exchange(copy, 'tools/call', 'stream_progress');
      setResponseText(progress, responseText(progress).replace('"jsonrpc":"2.0","id":0}', '"jsonrpc":"2.0","id":1}'));
    });
    const [progress, big] = [
      exchange(broken, 'tools/call', 'stream_progress'),
      exchange(broken, 'tools/call', 'big_result'),
    ];
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [progress.id, `tools/call (id 0) on ${progress.id} got a response for id 1 on its SSE stream.`],
      [big.id, `tools/call (id 1) on ${big.id} got a response for id 7 in its JSON body.`],
    ]);
  });
});

describe(RULE, () => {
  it('accepts an error without an id (a parse error the server could not tie to the request)', () => {
    const t = new Transcript();
    t.exchange(
      {
        body: rpc.request(1, 'tools/call'),
        status: 400,
        json: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } },
      },
      undefined,
      '2026-07-28',
    );
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('does not apply to 2025 sessions, where a stream may carry answers to other requests', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(2, 'tools/call'), sse: [sseEvent('1', rpc.result(1))] }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
