// The real SDK traffic the lab recorded into fixtures/ (HAR + per-chunk timings) must give exactly the findings expected.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { importHar } from './capture/har';
import { FIXTURES_DIR, fixtureEntries, fixtureSessionId, readFixture } from './fixtures-dir.fixture';
import { rules as allRules } from './guard/index';
import { STORM_RECONNECTS } from './guard/rules/reconnect-storm';
import type { Analysis } from './analyze';

const scenarios = readdirSync(FIXTURES_DIR).filter((d) => existsSync(join(FIXTURES_DIR, d, 'expected.json')));

interface Expected {
  must: string[];
  must_not: string[];
}

function analyzed(name: string): Analysis {
  const { har, ndjson } = readFixture(name);
  return analyze(importHar(har, { chunksNdjson: ndjson }));
}

const progressOf = (analysis: Analysis, connectionId?: string): number[] =>
  [...analysis.events]
    .filter((e) => connectionId === undefined || e.connectionId === connectionId)
    .flatMap((e) => e.messages)
    .filter((m) => m.method === 'notifications/progress')
    .map((m) => (m.value as { params: { progress: number } }).params.progress);

describe('recorded fixtures (real MCP SDK traffic)', () => {
  it('are present, with the clean control and the three resumption hazards the tests lean on', () => {
    expect(scenarios).toEqual(
      expect.arrayContaining(['clean', 'cut-mid-event', 'replay-boundary', 'epoch-restart-clamp']),
    );
  });

  it.each(scenarios.map((s) => [s]))('%s gives the expected findings', (scenario) => {
    const expected = JSON.parse(readFileSync(join(FIXTURES_DIR, scenario, 'expected.json'), 'utf8')) as Expected;
    expect(expected.must_not.length).toBeGreaterThan(0);
    expect(expected.must.filter((id) => expected.must_not.includes(id))).toEqual([]);
    const rules = new Set(analyzed(scenario).findings.map((f) => f.rule));
    for (const id of expected.must) expect(rules, `must report ${id}`).toContain(id);
    for (const id of expected.must_not) expect(rules, `must not report ${id}`).not.toContain(id);
  });
});

/**
 * Rules no recording of real traffic fires yet, each for a reason: the list only shrinks (a recording that fires one
 * fails this test until it is taken off).
 */
const NOT_YET_RECORDED = [
  'capture-gap', // the panel's own buffer overflowing: a capture made in a browser, not a recording of the wire
  'cross-stream-replay', // no real server here re-delivers one stream's event on another
  'duplicate-id-across-streams', // nor gives two streams the same id
  'legacy-stream-lost', // the lab's 2024-11-05 run is fault-free
];

describe('every rule on real traffic', () => {
  it('fires on some recording, but the few not recorded yet', () => {
    const fired = new Set(scenarios.flatMap((s) => analyzed(s).findings.map((f) => f.rule)));
    expect(
      allRules
        .map((r) => r.id)
        .filter((id) => !fired.has(id))
        .sort(),
    ).toEqual(NOT_YET_RECORDED);
  });
});

describe('the ai-sdk-close-not-resumed recording (@ai-sdk/mcp and a server that closes the stream to poll)', () => {
  const analysis = analyzed('ai-sdk-close-not-resumed');
  const sent = (c: (typeof analysis.connections)[number]): string[] => c.requestMessages.flatMap((m) => m.method ?? []);
  const call = analysis.connections.find((c) => sent(c).includes('tools/call'))!;

  it('reads the primed tools/call stream to its clean end, then neither resumes nor cancels', () => {
    expect(call.record.end).toBe('complete');
    const events = [...call.eventIndexes].map((index) => analysis.events.at(index)!);
    // The priming event: an id and retry: 150, no data; the server closed before any message.
    expect(events.map((e) => [e.dataLength, e.messages.length, e.lastEventId !== undefined])).toEqual([[0, 0, true]]);
    expect(call.retryMs).toBe(150);
    expect(analysis.connections.filter((c) => c.lastEventIdSent !== undefined)).toEqual([]);
    expect(analysis.connections.flatMap(sent)).not.toContain('notifications/cancelled');
  });

  it('gives post-stream-not-resumed on that stream, the one warning-or-worse finding, and names the client', () => {
    const serious = analysis.findings.filter((f) => f.severity !== 'info');
    expect(serious.map((f) => [f.rule, f.connectionId])).toEqual([['post-stream-not-resumed', call.id]]);
    expect(serious[0]?.message).toMatch(
      new RegExp(
        `^the server closed ${call.id} \\(stream ${call.streamId}, request 2\\) after event id \\S+ \\(retry: 150 ms\\) without the answer`,
      ),
    );
    // Its 2026-07-28 probe came first: said as info, in the same session.
    expect(analysis.findings.filter((f) => f.severity === 'info').map((f) => f.rule)).toEqual(['version-fallback']);
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.reconnects).toEqual([
      { sessionKey: analysis.sessions[0]?.key, resumesPostStreams: 'no', honoursRetry: 'no', deduplicates: 'unknown' },
    ]);
  });
});

describe('the fault-close-resumes recording (the fault proxy closes every resume at once)', () => {
  const analysis = analyzed('fault-close-resumes');
  const post = analysis.connections.find(
    (c) =>
      c.record.method === 'POST' &&
      c.resumes === undefined &&
      c.streamId !== undefined &&
      analysis.connections.some((r) => r.resumes === c.id),
  )!;
  const chain = analysis.connections.filter((c) => c.streamId === post.streamId && c.id !== post.id);

  it('resumes the finished stream again and again from the last priming id, each resume ended with no message', () => {
    expect(chain.length).toBeGreaterThanOrEqual(STORM_RECONNECTS);
    expect(chain.map((c) => c.resumes)).toEqual([post.id, ...chain.slice(0, -1).map((c) => c.id)]);
    expect(chain.map((c) => c.record.end)).toEqual(chain.map(() => 'complete'));
    const eventsOf = (c: (typeof chain)[number]) => [...c.eventIndexes].map((index) => analysis.events.at(index)!);
    expect(chain.map((c) => eventsOf(c).map((e) => [e.dataLength, e.messages.length]))).toEqual(
      chain.map(() => [[0, 0]]),
    );
    // Each resume's cursor is the priming id the one before it got.
    expect(chain.slice(1).map((c) => c.lastEventIdSent)).toEqual(
      chain.slice(0, -1).map((c) => eventsOf(c)[0]?.lastEventId),
    );
  });

  it('gives reconnect-storm with the count and rate, and resume-after-answer, on the first resume', () => {
    const storm = analysis.findings.find((f) => f.rule === 'reconnect-storm');
    expect(storm).toMatchObject({ severity: 'warning', connectionId: chain[0]?.id });
    expect(storm?.message).toMatch(
      new RegExp(
        `^${chain.length} reconnects of stream ${post.streamId} in \\d+\\.\\d s \\(\\d+\\.\\d/s\\), none delivering anything new`,
      ),
    );
    expect(analysis.findings.map((f) => [f.rule, f.connectionId])).toEqual([
      ['reconnect-storm', chain[0]?.id],
      ['resume-after-answer', chain[0]?.id],
    ]);
  });
});

describe('the cut-mid-event recording, as a user reads it', () => {
  const analysis = analyzed('cut-mid-event');
  const cut = analysis.connections.find((c) => c.record.end === 'network-error')!;
  const resume = analysis.connections.find((c) => c.lastEventIdSent !== undefined)!;

  it('has one 2025-11-25 session with SDK-style ids, under the id the server gave', () => {
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.sessions[0]).toMatchObject({
      sessionId: fixtureSessionId('cut-mid-event'),
      era: '2025-11-25',
      idScheme: 'sdk-stream',
    });
  });

  it('links the resumption GET to the cut POST stream of tools/call #1', () => {
    expect(analysis.connections.filter((c) => c.record.end === 'network-error')).toHaveLength(1);
    expect(resume.record.method).toBe('GET');
    expect(resume.resumes).toBe(cut.id);
    expect(resume.streamId).toBe(cut.streamId);
    const stream = analysis.streams.find((s) => s.id === cut.streamId);
    expect(stream).toMatchObject({ kind: 'post', requestIds: [1], connectionIds: [cut.id, resume.id] });
  });

  it('resumed after the last event the client got, and shows the torn tail that was never dispatched', () => {
    const cutEvents = [...cut.eventIndexes].map((i) => analysis.events.at(i)!);
    expect(resume.lastEventIdSent).toBe(cutEvents.at(-1)?.lastEventId);
    expect(progressOf(analysis, cut.id)).toEqual([1, 2]);
    // 60 bytes into the data of progress 3: its id line passed, its data did not end.
    expect(cut.tail).toMatchObject({ type: 'message', hasData: true, dataLines: [] });
    expect(cut.tail?.pendingLine).toBe('data: {"method":"notifications/progress","params":{"progressToken"');
    // The origin re-sent the torn event whole, under the same id, as the first event of the resume.
    const replayed = analysis.events.at(resume.eventIndexes.at(0)!)!;
    expect(replayed.lastEventId).toBe(cut.tail?.id);
    expect(replayed.data.startsWith(cut.tail!.pendingLine.slice('data: '.length))).toBe(true);
  });

  it('delivers every progress step once, then the answer to request 1', () => {
    expect(progressOf(analysis)).toEqual([1, 2, 3, 4, 5, 6]);
    const answer = [...analysis.events]
      .flatMap((e) => e.messages.map((m) => ({ m, e })))
      .find(({ m }) => m.kind === 'response' && m.id === 1);
    expect(answer?.e.connectionId).toBe(resume.id);
    expect(analysis.findings.map((f) => [f.rule, f.connectionId])).toEqual([['torn-event-reconnect', cut.id]]);
  });
});

describe('the replay-boundary recording', () => {
  const analysis = analyzed('replay-boundary');
  const cut = analysis.connections.find((c) => c.record.end === 'network-error')!;
  const resume = analysis.connections.find((c) => c.resumes === cut.id)!;

  it('cut at an event boundary: no torn tail, progress 1 and 2 delivered', () => {
    expect(cut.tail).toBeUndefined();
    expect(progressOf(analysis, cut.id)).toEqual([1, 2]);
  });

  it('the resume starts with the cursor event again, byte for byte, and the client sees progress 2 twice', () => {
    const last = analysis.events.at(cut.eventIndexes.at(-1)!)!;
    const first = analysis.events.at(resume.eventIndexes.at(0)!)!;
    expect(resume.lastEventIdSent).toBe(last.lastEventId);
    expect(first.lastEventId).toBe(last.lastEventId);
    expect(first.data).toBe(last.data);
    expect(progressOf(analysis)).toEqual([1, 2, 2, 3, 4, 5, 6]);
    const duplicate = analysis.findings.find((f) => f.rule === 'replayed-event-duplicate');
    expect(duplicate).toMatchObject({ connectionId: resume.id, eventId: last.lastEventId });
  });
});

describe('the epoch-restart-clamp recording', () => {
  const analysis = analyzed('epoch-restart-clamp');
  const resume = analysis.connections.find((c) => c.lastEventIdSent !== undefined)!;

  it('resumed an epoch:seq cursor of the old epoch and got ids of a new epoch, counted from 1', () => {
    expect(analysis.sessions[0]).toMatchObject({
      sessionId: fixtureSessionId('epoch-restart-clamp'),
      idScheme: 'epoch-seq',
    });
    const [oldEpoch] = resume.lastEventIdSent!.split(':');
    const ids = [...resume.eventIndexes].map((i) => analysis.events.at(i)!.lastEventId);
    expect(ids.length).toBeGreaterThan(0);
    const [newEpoch, firstSeq] = ids[0]!.split(':');
    expect(newEpoch).not.toBe(oldEpoch);
    expect(firstSeq).toBe('1');
    expect(ids.every((id) => id.startsWith(`${newEpoch}:`))).toBe(true);
    const mismatch = analysis.findings.find((f) => f.rule === 'epoch-mismatch');
    expect(mismatch?.message).toContain(`resumed ${resume.lastEventIdSent}`);
    expect(mismatch?.message).toContain(`epoch ${newEpoch}`);
  });

  it('never answered the call: no response to request 1 anywhere', () => {
    expect([...analysis.events].flatMap((e) => e.messages).filter((m) => m.kind === 'response' && m.id === 1)).toEqual(
      [],
    );
    const call = fixtureEntries('epoch-restart-clamp').find((e) => e.rpcMethod === 'tools/call');
    expect(call?.streamState).toBe('failed');
  });
});

describe('the clean control recording', () => {
  const analysis = analyzed('clean');

  it('answers progress, the big result and the elicitation without a finding', () => {
    expect(analysis.findings).toEqual([]);
    expect(progressOf(analysis)).toEqual([1, 2, 3, 4, 5]);
    const results = [...analysis.events].flatMap((e) => e.messages).filter((m) => m.kind === 'response');
    expect(results.map((m) => m.id)).toEqual([0, 1, 2, 3]);
    const elicitation = [...analysis.events].flatMap((e) => e.messages).find((m) => m.method === 'elicitation/create');
    expect(elicitation?.kind).toBe('request');
  });
});

describe("the silence rules on the lab's real intermediaries, with the numbers they measured", () => {
  const messageOf = (name: string, rule: string) => analyzed(name).findings.find((f) => f.rule === rule)?.message ?? '';

  it('idle-timeout-cut names nginx proxy_read_timeout of 2 s as the silence before each cut', () => {
    expect(messageOf('nginx-idle-get-cut', 'idle-timeout-cut')).toMatch(
      /^3 event streams ended after the same silence, about 2\.0 s without a byte \((19\d\d|20\d\d) ms \//,
    );
    expect(messageOf('nginx-slow-call-cut', 'idle-timeout-cut')).toMatch(/^2 event streams .* about 2\.0 s/);
  });

  it('buffered-stream names the held progress, the wait and, behind compression(), the gzip encoding', () => {
    const compressed = messageOf('compression-buffered', 'buffered-stream');
    expect(compressed).toMatch(
      /'s 5 progress notifications and its answer arrived together, 1\.\d s after the request/,
    );
    expect(compressed).toContain('gzip-encoded');
    expect(messageOf('nginx-buffered', 'buffered-stream')).toContain('a buffering reverse proxy');
  });

  it('request-hang names how long the call waited, with keep-alives flowing but no message', () => {
    expect(messageOf('nginx-request-hang', 'request-hang')).toMatch(
      /^request 1 \(tools\/call\) has waited 3\d\.\d s unanswered: \S+ is open and sent no message for 3\d\.\d s \(its last byte \d+ ms ago\)/,
    );
  });
});
