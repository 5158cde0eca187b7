import { describe, expect, it } from 'vitest';
import { exchange, recorded, rewritten } from '../recorded.fixture';
import { findingsFor, rpc, Transcript } from '../testing';

const RULE = 'client-posted-response';

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');

  it('accepts the recording: the client answered the elicitation inside its retry, never as a response', () => {
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds the notifications/cancelled POST rewritten into an answer to a server request', () => {
    const broken = rewritten(clean, (copy) => {
      exchange(copy, 'notifications/cancelled').requestBody = JSON.stringify(rpc.result(0, { action: 'accept' }));
    });
    const posted = broken.connections.at(-1)!;
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [posted.id, `${posted.id} POSTs a JSON-RPC result to id 0 (answered 202).`],
    ]);
  });
});

describe(RULE, () => {
  it('does not apply to 2025 sessions, where answering a server request by POST is the transport', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.result(0, { action: 'accept' }) }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('finds a JSON-RPC error POSTed in a 2026-07-28 exchange', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.error(3, -32601, 'no handler') }, undefined, '2026-07-28');
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('POSTs a JSON-RPC error to id 3');
  });
});
