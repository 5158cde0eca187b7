import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { parseTranscript } from '../transcript';
import { recorded } from '../recorded.fixture';
import { findingsFor } from '../testing';

const RULE = 'version-fallback';

/** What `@ai-sdk/mcp` does against a 2025 server: discover at 2026-07-28 (400), a GET without a session (400), initialize. */
const AI_SDK_STYLE = `
> POST /mcp
> MCP-Protocol-Version: 2026-07-28
> Mcp-Method: server/discover
> {"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
< 400
< Content-Type: application/json
{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"},"id":null}

> GET /mcp
> MCP-Protocol-Version: 2026-07-28
< 400
< Content-Type: application/json
{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"},"id":null}

> POST /mcp
> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
< 200
< Content-Type: application/json
< Mcp-Session-Id: s1
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}

> POST /mcp
> Mcp-Session-Id: s1
> MCP-Protocol-Version: 2025-11-25
> {"jsonrpc":"2.0","method":"notifications/initialized"}
< 202
`;

describe(RULE, () => {
  it('joins the probe and the sessionless GET to the session the client then initialized, and says so', () => {
    const analysis = analyze(parseTranscript(AI_SDK_STYLE));
    expect(analysis.sessions.map((s) => [s.sessionId, s.era, s.probedEra, s.connectionIds])).toEqual([
      ['s1', '2025-11-25', '2026-07-28', ['c1', 'c2', 'c3', 'c4']],
    ]);
    expect(analysis.connections.filter((c) => c.probe).map((c) => c.id)).toEqual(['c1', 'c2']);
    const findings = analysis.findings.filter((f) => f.rule === RULE);
    expect(findings).toEqual([expect.objectContaining({ severity: 'info', sessionKey: 's1', connectionId: 'c1' })]);
    expect(findings[0]?.message).toBe(
      'the client probed 2026-07-28 (server/discover on c1, answered 400 "Bad Request: Mcp-Session-Id header is required") and fell back to initialize 2025-11-25 on c3; before it also GET without a session on c2 (400 "Bad Request: Mcp-Session-Id header is required").',
    );
    // Nothing else: the refused probe's error (id null) is not an unsolicited response.
    expect(analysis.findings.map((f) => f.rule)).toEqual([RULE]);
  });

  it('on real traffic: the TS SDK v2 client (auto) falls back from 2026-07-28 to a 1.32 server by itself', () => {
    const analysis = analyze(recorded('probe-fallback'));
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.sessions[0]).toMatchObject({ era: '2025-11-25', probedEra: '2026-07-28' });
    const probe = analysis.connections.find((c) => c.probe);
    expect(probe?.requestMessages[0]?.method).toBe('server/discover');
    expect(probe?.record.status).toBe(400);
    expect(analysis.findings.map((f) => [f.rule, f.connectionId])).toEqual([[RULE, probe?.id]]);
  });

  it('stays quiet where a probe succeeded or none was made (v2-clean, v2-mixed-eras, clean)', () => {
    for (const name of ['v2-clean', 'v2-mixed-eras', 'clean'])
      expect(findingsFor(recorded(name), RULE), name).toEqual([]);
  });

  it('leaves failures after an initialize where they are (a 2025 client served statelessly: its GET gets 405)', () => {
    const analysis = analyze(recorded('v2-mixed-eras'));
    expect(analysis.connections.filter((c) => c.probe)).toEqual([]);
    expect(analysis.sessions.map((s) => s.era).sort()).toEqual(['2025-11-25', '2026-07-28']);
  });
});
