import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { editRequest, exchange, recorded, rewritten, setHeader } from '../recorded.fixture';
import { findingsFor, rpc, Transcript } from '../testing';

const RULE = 'protocol-version-mismatch';
const META = 'io.modelcontextprotocol/protocolVersion';

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');

  it('accepts the recording: every POST, the notification too, sends the version in both places', () => {
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds a header that says 2025-11-25 on a body that speaks 2026-07-28, and keeps the request in its era', () => {
    const broken = rewritten(clean, (copy) =>
      setHeader(exchange(copy, 'tools/call', 'stream_progress').requestHeaders, 'MCP-Protocol-Version', '2025-11-25'),
    );
    const call = exchange(broken, 'tools/call', 'stream_progress');
    const findings = findingsFor(broken, RULE);
    expect(findings.map((f) => [f.connectionId, f.message])).toEqual([
      [call.id, `tools/call (id 0) on ${call.id} sends MCP-Protocol-Version 2025-11-25 but its _meta says 2026-07-28.`],
    ]);
    const analysis = analyze(broken);
    expect(analysis.sessions.map((s) => s.era)).toEqual(['2026-07-28']);
    expect(analysis.connections.find((c) => c.id === call.id)?.requestEra).toBe('2026-07-28');
  });

  it('finds a POST without the header and a request without the _meta version', () => {
    const broken = rewritten(clean, (copy) => {
      setHeader(exchange(copy, 'tools/call', 'big_result').requestHeaders, 'MCP-Protocol-Version', undefined);
      editRequest(exchange(copy, 'tools/call', 'ask_user'), (body) => {
        delete (body['params'] as { _meta: Record<string, unknown> })._meta[META];
      });
    });
    const messages = findingsFor(broken, RULE).map((f) => f.message);
    expect(messages).toEqual([
      expect.stringContaining('has no MCP-Protocol-Version header (its _meta says 2026-07-28)'),
      expect.stringContaining(`sends MCP-Protocol-Version 2026-07-28 but its _meta has no ${META}`),
    ]);
  });
});

describe(RULE, () => {
  it('does not apply to 2025 sessions, whose requests carry no _meta version', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'tools/list'), json: rpc.result(1, { tools: [] }) }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('does not ask a response the client POSTs for a _meta version', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.result(7, {}) }, undefined, '2026-07-28');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
