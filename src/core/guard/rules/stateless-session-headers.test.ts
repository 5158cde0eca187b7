import { describe, expect, it } from 'vitest';
import { exchange, recorded, rewritten, setHeader } from '../recorded.fixture';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'stateless-session-headers';

describe(RULE, () => {
  it('warns when a 2026-07-28 exchange carries Last-Event-ID or Mcp-Session-Id', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.result(1))] }, undefined, '2026-07-28');
    t.exchange({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.result(1))] }, undefined, '2026-07-28');
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('Last-Event-ID');
  });

  it('does not apply to 2025-11-25 sessions', () => {
    const t = new Transcript();
    t.exchange({ headers: { 'last-event-id': '1' }, sse: [sseEvent('2', rpc.result(1))] }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('accepts a clean stateless exchange', () => {
    const t = new Transcript();
    t.exchange(
      { body: rpc.request(1, 'tools/call'), sse: [sseEvent(undefined, rpc.result(1))] },
      undefined,
      '2026-07-28',
    );
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-*, rewritten)`, () => {
  it('accepts the recordings: no session id, no Last-Event-ID, also beside a 2025 client', () => {
    for (const name of ['v2-clean', 'v2-cut-reissued', 'v2-mixed-eras'])
      expect(findingsFor(recorded(name), RULE), name).toEqual([]);
  });

  it('finds a server minting Mcp-Session-Id on its server/discover answer', () => {
    const broken = rewritten(recorded('v2-clean'), (copy) =>
      setHeader(exchange(copy, 'server/discover').responseHeaders!, 'Mcp-Session-Id', '3b1f0c'),
    );
    const discover = exchange(broken, 'server/discover');
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [discover.id, `1 exchange(s) of a 2026-07-28 session use Mcp-Session-Id (first ${discover.id}).`],
    ]);
  });

  it('finds a client sending Last-Event-ID with the re-issue of a cut call', () => {
    const broken = rewritten(recorded('v2-cut-reissued'), (copy) =>
      setHeader(exchange(copy, 'tools/call', 'stream_progress', 1).requestHeaders, 'Last-Event-ID', '2'),
    );
    expect(findingsFor(broken, RULE)[0]?.message).toContain('use Last-Event-ID');
  });
});
