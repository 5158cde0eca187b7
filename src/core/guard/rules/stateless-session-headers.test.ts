import { describe, expect, it } from 'vitest';
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
