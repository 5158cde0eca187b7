// The TS SDK v2 recordings of 2026-07-28 traffic (fixtures/v2-*), as a user reads them, and the eras kept apart:
// the 2025-era rules stay quiet on them, the 2026-07-28 rules on every 2025 (and 2024) recording.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from './analyze';
import { importHar } from './capture/har';
import { FIXTURES_DIR, readFixture } from './fixtures-dir.fixture';
import { rules } from './guard/index';

function analyzed(name: string): Analysis {
  const { har, ndjson } = readFixture(name);
  return analyze(importHar(har, { chunksNdjson: ndjson }));
}

const recordings = readdirSync(FIXTURES_DIR).filter((d) => existsSync(join(FIXTURES_DIR, d, 'expected.json')));
/** The same traffic rewritten by the product's fault proxy (e2e/lab/v2/faults-run.ts, e2e/lab/python/runs.ts). */
const isFaulted = (d: string): boolean => d.startsWith('v2-fault-') || d.startsWith('py-fault-');
/** The 2026-07-28 recordings: the TS SDK v2 ones and the Python SDK ones but its 2025-era resume. */
const is2026 = (d: string): boolean =>
  (d.startsWith('v2-') || d.startsWith('py-')) && !d.startsWith('py-2025-') && !isFaulted(d);
const stateless = recordings.filter(is2026);
const faulted = recordings.filter(isFaulted);
const statelessRules = new Set(rules.filter((r) => r.eras?.join() === '2026-07-28').map((r) => r.id));

describe('2026-07-28 recordings (TS SDK v2)', () => {
  it('are present: the clean control, a cut not re-issued, one re-issued, and mixed eras', () => {
    expect(stateless).toEqual([
      'py-clean',
      'py-client-cut-not-reissued',
      'py-client-cut-reissued',
      'py-client-ts-server',
      'py-server-cut-not-reissued',
      'py-server-ts-client',
      'v2-clean',
      'v2-cut-not-reissued',
      'v2-cut-reissued',
      'v2-mixed-eras',
      'v2-reissued-same-id',
    ]);
  });

  it('and the fault proxy rewriting it: one recording per stream and request fault', () => {
    expect(faulted).toEqual([
      'py-fault-method-header',
      'py-fault-server-request',
      'py-fault-version-header',
      'v2-fault-event-ids',
      'v2-fault-listen-ack-dropped',
      'v2-fault-method-header',
      'v2-fault-request-state',
      'v2-fault-response-id',
      'v2-fault-server-request',
      'v2-fault-session-header',
      'v2-fault-version-header',
    ]);
  });

  it('v2-clean: one stateless session of 2026-07-28 exchanges in time order, no finding at all', () => {
    const analysis = analyzed('v2-clean');
    expect(analysis.findings).toEqual([]);
    expect(analysis.sessions).toHaveLength(1);
    const [session] = analysis.sessions;
    expect(session).toMatchObject({ era: '2026-07-28', idScheme: 'none' });
    expect(session?.sessionId).toBeUndefined();
    const connections = analysis.connections.filter((c) => c.sessionKey === session?.key);
    expect(connections.map((c) => c.requestEra)).toEqual(Array(7).fill('2026-07-28'));
    const starts = connections.map((c) => c.record.startTime);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    // Progress arrived as SSE events without ids; the listen stream is a lane of its own.
    const events = [...analysis.events];
    expect(events.every((e) => !e.hasId)).toBe(true);
    const progress = events.flatMap((e) => e.messages).filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => (m.value as { params: { progress: number } }).params.progress)).toEqual([1, 2, 3, 4, 5]);
    const listen = connections.find((c) => c.requestMessages[0]?.method === 'subscriptions/listen');
    expect(analysis.streams.find((s) => s.id === listen?.streamId)).toMatchObject({
      kind: 'post',
      requestIds: ['listen:0'],
    });
  });

  it('v2-clean: the ask_user retry is linked to the round the server answered input_required', () => {
    const analysis = analyzed('v2-clean');
    const asks = analysis.connections.filter(
      (c) => (c.requestMessages[0]?.value as { params?: { name?: string } } | undefined)?.params?.name === 'ask_user',
    );
    expect(asks.map((c) => c.retryOf)).toEqual([undefined, asks[0]?.id]);
    expect(analysis.connections.filter((c) => c.retryOf !== undefined)).toHaveLength(1);
  });

  it('v2-mixed-eras: the 2025 client and the 2026-07-28 client are two sessions, each of its own era', () => {
    const analysis = analyzed('v2-mixed-eras');
    const byEra = new Map(analysis.sessions.map((s) => [s.era, s]));
    expect([...byEra.keys()].sort()).toEqual(['2025-11-25', '2026-07-28']);
    const methodsOf = (era: string) =>
      analysis.connections
        .filter((c) => c.sessionKey === byEra.get(era as '2025-11-25')?.key)
        .map((c) => c.requestMessages[0]?.method ?? c.record.method);
    expect(methodsOf('2025-11-25')).toEqual(['initialize', 'notifications/initialized', 'GET', 'tools/call']);
    expect(methodsOf('2026-07-28')).toEqual(['server/discover', 'tools/call']);
    expect(analysis.findings.map((f) => [f.rule, f.sessionKey])).toEqual([
      ['stateless-request-not-reissued', byEra.get('2026-07-28')?.key],
    ]);
  });

  it('v2-reissued-same-id: the lost tools/call sent again with the same id and bytes gives exactly reissued-with-same-id', () => {
    const analysis = analyzed('v2-reissued-same-id');
    expect(analysis.findings.map((f) => [f.rule, f.severity])).toEqual([['reissued-with-same-id', 'error']]);
    const calls = analysis.connections.filter((c) => c.requestMessages[0]?.method === 'tools/call');
    expect(calls.map((c) => [c.requestMessages[0]?.id, c.record.end])).toEqual([
      [0, 'network-error'],
      [0, 'complete'],
    ]);
    expect(analysis.findings[0]?.connectionId).toBe(calls[1]?.id);
    // Its clean twin: the same cut re-issued by the application through the SDK, under a new id.
    expect(analyzed('v2-cut-reissued').findings).toEqual([]);
  });

  it('v2-fault-event-ids: the stream_progress events numbered by the fault proxy give exactly stateless-event-ids', () => {
    const analysis = analyzed('v2-fault-event-ids');
    expect(analysis.findings.map((f) => [f.rule, f.severity, f.connectionId])).toEqual([
      ['stateless-event-ids', 'warning', 'e2'],
    ]);
    // add-event-ids:1000 numbered the six events of the first tools/call stream, the first with retry: 1000; the
    // listen stream's events are left as the server sent them.
    const ids = [...analysis.events].map((e) => [e.connectionId, e.hasId ? e.lastEventId : undefined, e.retry]);
    expect(ids).toEqual([
      ['e2', '1', 1000],
      ['e2', '2', undefined],
      ['e2', '3', undefined],
      ['e2', '4', undefined],
      ['e2', '5', undefined],
      ['e2', '6', undefined],
      ['e6', undefined, undefined],
      ['e6', undefined, undefined],
    ]);
    // The same calls straight from the server (v2-clean) carry no id: the clean twin.
    expect([...analyzed('v2-clean').events].some((e) => e.hasId || e.retry !== undefined)).toBe(false);
  });

  it("v2-fault-response-id: two concurrent answers' ids crossed by the fault proxy give response-id-mismatch on both POSTs", () => {
    const analysis = analyzed('v2-fault-response-id');
    const calls = analysis.connections.filter((c) => c.requestMessages[0]?.method === 'tools/call');
    const carried = (c: (typeof calls)[number]): unknown =>
      [...analysis.events]
        .filter((e) => e.connectionId === c.id)
        .flatMap((e) => e.messages)
        .find((m) => m.kind === 'response')?.id;
    expect(calls.map((c) => [c.requestMessages[0]?.id, carried(c), c.record.end])).toEqual([
      [0, 1, 'complete'],
      [1, 0, 'complete'],
    ]);
    // Each id answered is one a request of the endpoint had outstanding: nothing unsolicited, nothing lost.
    expect(analysis.findings.map((f) => [f.rule, f.connectionId])).toEqual(
      calls.map((c) => ['response-id-mismatch', c.id]),
    );
  });

  it('v2-fault-session-header: a 2026-07-28 request carrying Mcp-Session-Id stays in the one stateless session', () => {
    const analysis = analyzed('v2-fault-session-header');
    expect(analysis.findings.map((f) => [f.rule, f.connectionId])).toEqual([['stateless-session-headers', 'e2']]);
    expect(analysis.sessions.map((s) => [s.era, s.sessionId])).toEqual([['2026-07-28', undefined]]);
  });

  it('every 2026-07-28 rule fires on some recording of real traffic, and clean traffic of both SDKs gives none', () => {
    const fired = new Set([...stateless, ...faulted].flatMap((name) => analyzed(name).findings.map((f) => f.rule)));
    expect([...statelessRules].filter((id) => !fired.has(id))).toEqual([]);
    for (const clean of [
      'v2-clean',
      'v2-cut-reissued',
      'py-clean',
      'py-client-ts-server',
      'py-server-ts-client',
      'py-client-cut-reissued',
    ])
      expect(analyzed(clean).findings, clean).toEqual([]);
  });

  it.each([...stateless, ...faulted].map((s) => [s]))('%s: no rule of the 2025 eras fires', (name) => {
    const rulesFound = analyzed(name).findings.map((f) => f.rule);
    expect(rulesFound.filter((id) => !statelessRules.has(id))).toEqual([]);
  });

  it.each(recordings.filter((d) => !is2026(d) && !faulted.includes(d)).map((s) => [s]))(
    '%s (2025 or 2024): no rule of 2026-07-28 fires',
    (name) => {
      const rulesFound = analyzed(name).findings.map((f) => f.rule);
      expect(rulesFound.filter((id) => statelessRules.has(id))).toEqual([]);
    },
  );
});
