// The Python SDK (mcp 2.3.0) recordings (fixtures/py-*, npm run fixtures:py), as a user reads them: what the Python
// client and server put on the wire with each other and with the TS SDKs, and what the core finds there.
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from './analyze';
import { importHar } from './capture/har';
import { fixtureEntries, readFixture } from './fixtures-dir.fixture';

function analyzed(name: string): Analysis {
  const { har, ndjson } = readFixture(name);
  return analyze(importHar(har, { chunksNdjson: ndjson }));
}

const CLEAN = ['py-clean', 'py-client-ts-server', 'py-server-ts-client'];
const CUTS = ['py-client-cut-not-reissued', 'py-server-cut-not-reissued'];
const PY_SERVER = ['py-clean', 'py-server-ts-client', 'py-server-cut-not-reissued', 'py-2025-resume'];
/** One SSE event boundary in CRLF framing, and a LF-only one. */
const CRLF_EVENT_END = /\r\n\r\n/;
const LF_ONLY_EVENT_END = /(?<!\r)\n\n/;

describe('Python SDK recordings (2026-07-28)', () => {
  it.each(CLEAN.map((n) => [n]))(
    '%s: clean traffic gives no finding at all, one stateless 2026-07-28 session',
    (name) => {
      const analysis = analyzed(name);
      expect(analysis.findings).toEqual([]);
      expect(analysis.sessions.map((s) => [s.era, s.sessionId])).toEqual([['2026-07-28', undefined]]);
      const eras = new Set(analysis.connections.map((c) => c.requestEra));
      expect([...eras]).toEqual(['2026-07-28']);
    },
  );

  it.each(CUTS.map((n) => [n]))('%s: the cut request is found lost and not re-issued, nothing else', (name) => {
    const analysis = analyzed(name);
    expect(analysis.findings.map((f) => [f.rule, f.severity])).toEqual([['stateless-request-not-reissued', 'error']]);
    const calls = fixtureEntries(name).filter((e) => e.rpcMethod === 'tools/call');
    expect(calls.map((e) => e.streamState)).toEqual(['failed']);
  });

  it('the Python client opens with server/discover at mode="auto", never initialize, and sends every header', () => {
    for (const name of ['py-clean', 'py-client-ts-server']) {
      const entries = fixtureEntries(name);
      expect(entries[0]?.rpcMethod).toBe('server/discover');
      expect(entries.some((e) => e.rpcMethod === 'initialize' || e.method !== 'POST')).toBe(false);
      for (const e of entries) {
        expect(e.requestHeaders['mcp-protocol-version']).toBe('2026-07-28');
        expect(e.requestHeaders['mcp-method']).toBe(e.rpcMethod);
        expect(e.requestHeaders['mcp-session-id']).toBeUndefined();
      }
      // It lists the tools after its first call (to learn their output schemas), before the next one.
      expect(entries.map((e) => e.rpcMethod).slice(0, 4)).toEqual([
        'server/discover',
        'tools/call',
        'tools/list',
        'tools/call',
      ]);
      // A listen is closed by aborting its stream: no notifications/cancelled, no result.
      const listen = entries.find((e) => e.rpcMethod === 'subscriptions/listen');
      expect(listen?.streamState).toBe('aborted');
      expect(entries.some((e) => e.rpcMethod === 'notifications/cancelled')).toBe(false);
    }
  });

  it('the Python server frames SSE with CRLF in both eras, and writes no id in 2026-07-28', () => {
    for (const name of PY_SERVER) {
      const streams = fixtureEntries(name).filter((e) => e.responseHeaders['content-type'] === 'text/event-stream');
      const bodies = streams.map((e) => e.body).filter((b) => b !== '');
      expect(bodies.length, name).toBeGreaterThan(0);
      for (const body of bodies) expect(body, name).not.toMatch(LF_ONLY_EVENT_END);
      const ids = bodies.filter((b) => /^id:/m.test(b)).length;
      expect(ids, name).toBe(name.startsWith('py-2025-') ? bodies.length : 0);
      expect(bodies.some((b) => CRLF_EVENT_END.test(b))).toBe(true);
    }
  });
});

describe('the Python client re-issuing a cut call (py-client-cut-reissued)', () => {
  it('sends the lost tools/call again under a new id, answered in full: no finding, the re-issue linked', () => {
    const analysis = analyzed('py-client-cut-reissued');
    expect(analysis.findings).toEqual([]);
    const calls = fixtureEntries('py-client-cut-reissued').filter((e) => e.rpcMethod === 'tools/call');
    expect(calls.map((e) => e.streamState)).toEqual(['failed', 'complete']);
    const ids = analysis.connections
      .filter((c) => c.requestMessages[0]?.method === 'tools/call')
      .map((c) => c.requestMessages[0]?.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });
});

/** The Python recordings with one fault of the product's proxy rewriting real traffic, and what each gives. */
const PY_FAULTED: Record<string, string[]> = {
  'py-fault-server-request': ['client-posted-response', 'server-request-on-stream'],
  'py-fault-version-header': ['header-mismatch-not-rejected', 'protocol-version-mismatch', 'stateless-session-headers'],
  'py-fault-method-header': ['method-header-mismatch'],
};

describe('the fault proxy rewriting the Python peers (py-fault-*)', () => {
  it.each(Object.entries(PY_FAULTED))('%s gives exactly %j', (name, rules) => {
    const analysis = analyzed(name);
    expect([...new Set(analysis.findings.map((f) => f.rule))].sort()).toEqual(rules);
    expect(analysis.sessions.map((s) => [s.era, s.sessionId])).toEqual([['2026-07-28', undefined]]);
  });

  it('py-fault-server-request: the Python client POSTs its answer to the injected roots/list, the server refuses it', () => {
    const posted = fixtureEntries('py-fault-server-request').find((e) => e.rpcMethod === 'response');
    expect(posted?.status).toBe(400);
    expect(posted?.body).toContain('-32600');
    const finding = analyzed('py-fault-server-request').findings.find((f) => f.rule === 'client-posted-response');
    expect(finding?.connectionId).toBe(posted?.id);
  });

  it('py-fault-version-header: the Python server answers 400 -32600 and mints an Mcp-Session-Id, one stateless session', () => {
    const entries = fixtureEntries('py-fault-version-header');
    expect(entries.map((e) => [e.rpcMethod, e.status])).toEqual([
      ['server/discover', 200],
      ['tools/call', 200],
      ['tools/list', 400],
    ]);
    const call = entries[2];
    expect(call?.requestHeaders['mcp-protocol-version']).toBe('2025-11-25');
    expect(call?.requestHeaders['mcp-session-id']).toBeUndefined();
    expect(call?.status).toBe(400);
    expect(call?.responseHeaders['mcp-session-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(call?.body ?? '{}')).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('py-fault-method-header, the clean twin of header-mismatch-not-rejected: 400 -32020, then the client recovers', () => {
    const entries = fixtureEntries('py-fault-method-header');
    const calls = entries.filter((e) => e.rpcMethod === 'tools/call');
    expect(calls.map((e) => [e.requestHeaders['mcp-method'], e.status])).toEqual([
      ['tools/list', 400],
      ['tools/call', 200],
    ]);
    expect(JSON.parse(calls[0]?.body ?? '{}')).toMatchObject({ error: { code: -32020 } });
    expect(entries.map((e) => e.rpcMethod)).toEqual(['server/discover', 'tools/call', 'tools/list', 'tools/call']);
  });
});

describe('Python SDK server, 2025 era, resumed by the TS SDK 1.32 client (py-2025-resume)', () => {
  const entries = fixtureEntries('py-2025-resume');
  const analysis = analyzed('py-2025-resume');

  it('primes every POST stream (initialize too) with an empty event and retry: 150', () => {
    const posts = entries.filter((e) => e.rpcMethod === 'initialize' || e.rpcMethod === 'tools/call');
    for (const e of posts) expect(e.body).toMatch(/^id: \d+_\d+\r\ndata: \r\nretry: 150\r\n\r\n/);
  });

  it('replays from the cursor, the torn event whole under its id, then writes a new priming event after the answer', () => {
    const cut = entries.find((e) => e.rpcMethod === 'tools/call');
    const resume = entries.find((e) => e.requestHeaders['last-event-id'] !== undefined);
    expect(cut?.streamState).toBe('failed');
    const ids = (body: string) => [...body.matchAll(/^id: (\S+)\r$/gm)].map((m) => m[1]);
    const cutIds = ids(cut?.body ?? '');
    // The SDK client resumes from the last event it dispatched, not the torn one.
    expect(resume?.requestHeaders['last-event-id']).toBe(cutIds.at(-2));
    const replayed = ids(resume?.body ?? '');
    expect(replayed[0]).toBe(cutIds.at(-1));
    expect(resume?.body).toMatch(/"result":\{[^\r]*\}\}\r\n\r\nid: \S+\r\ndata: \r\nretry: 150\r\n\r\n$/);
    expect(resume?.streamState).toBe('complete');
  });

  it('gives the torn-event warning of a mid-event cut and nothing else: the replay is honoured', () => {
    expect(analysis.findings.map((f) => [f.rule, f.severity])).toEqual([['torn-event-reconnect', 'warning']]);
    expect(analysis.sessions.map((s) => s.era)).toEqual(['2025-11-25']);
    const progress = [...analysis.events]
      .flatMap((e) => e.messages)
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => (m.value as { params: { progress: number } }).params.progress);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  });
});
