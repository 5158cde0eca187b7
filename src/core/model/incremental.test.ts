// The analyzer that remembers parses must give exactly what a fresh analyze() gives, at every step of a live capture.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer } from '../analyze';
import { parseCapture } from '../capture/format';
import { importHar } from '../capture/har';
import type { BodyChunk, Capture, ConnectionRecord } from '../capture/model';
import type { Analysis } from '../analyze';
import { rpc, session, sseEvent, Transcript } from '../guard/transcript';
import { FIXTURES_DIR, readFixture } from '../fixtures-dir.fixture';
import { PlacedEvents } from './event-list';
import { aiChatCapture, inspectorCapture } from './other-streams.fixture';

const examples = readdirSync(FIXTURES_DIR).filter((d) => existsSync(join(FIXTURES_DIR, d, 'chunks.ndjson')));

function example(name: string): Capture {
  const { har, ndjson } = readFixture(name);
  return importHar(har, { chunksNdjson: ndjson });
}

type Change = { kind: 'start' | 'response' | 'end' } | { kind: 'chunk'; chunk: BodyChunk };
type Step = Change & { at: number; id: string };

/**
 * The captures a panel would hold while `final` streams in: connections appear at their start, then get their
 * response head, chunks and end, in time order. A touched record is copied (as the panel's applyDeltas does);
 * the others keep their identity.
 */
function* growing(final: Capture): Generator<Capture> {
  const steps: Step[] = [];
  for (const record of final.connections) {
    // A connection's own steps keep their order even when its times disagree.
    let at = record.startTime;
    const add = (time: number | undefined, change: Change) => {
      at = Math.max(at, time ?? at);
      steps.push({ ...change, at, id: record.id });
    };
    add(record.startTime, { kind: 'start' });
    if (record.status !== undefined) add(record.responseTime, { kind: 'response' });
    for (const chunk of record.chunks) add(chunk.t, { kind: 'chunk', chunk });
    if (record.end !== 'open') add(record.endTime, { kind: 'end' });
  }
  steps.sort((a, b) => a.at - b.at);
  const finalById = new Map(final.connections.map((r) => [r.id, r]));
  let records: ConnectionRecord[] = [];
  for (const step of steps) {
    const done = finalById.get(step.id) as ConnectionRecord;
    if (step.kind === 'start') {
      const {
        status: _s,
        statusText: _st,
        responseHeaders: _h,
        responseTime: _t,
        endTime: _e,
        error: _err,
        ...head
      } = done;
      records = [...records, { ...head, chunks: [], end: 'open' }];
    } else {
      records = records.map((r) => {
        if (r.id !== step.id) return r;
        if (step.kind === 'chunk') return { ...r, chunks: [...r.chunks, step.chunk] };
        if (step.kind === 'response') {
          const next = { ...r, status: done.status, responseHeaders: done.responseHeaders };
          if (done.statusText !== undefined) next.statusText = done.statusText;
          if (done.responseTime !== undefined) next.responseTime = done.responseTime;
          return next;
        }
        const next = { ...r, end: done.end };
        if (done.endTime !== undefined) next.endTime = done.endTime;
        if (done.error !== undefined) next.error = done.error;
        return next;
      });
    }
    yield { ...final, connections: records };
  }
}

/** The same capture with chunks cut into pieces of `size` bytes, at most 50 per chunk (torn lines, split UTF-8, split CRLF). */
function rechunked(capture: Capture, size: number): Capture {
  return {
    ...capture,
    connections: capture.connections.map((record) => ({
      ...record,
      chunks: record.chunks.flatMap((chunk) => {
        const pieces: BodyChunk[] = [];
        const step = Math.max(size, Math.ceil(chunk.bytes.length / 50));
        for (let i = 0; i < chunk.bytes.length; i += step)
          pieces.push({ t: chunk.t, bytes: chunk.bytes.subarray(i, i + step) });
        return pieces;
      }),
    })),
  };
}

/** Deep equality on everything derived; the raw records must be the capture's own objects (compared by identity). */
function expectSameAnalysis(capture: Capture, actual: Analysis, message?: string): void {
  const expected = analyze(capture);
  // Tail bytes compared as hex, the event list as its views (and its columns by Node's deep equality below):
  // element-wise equality over large typed arrays is very slow.
  const derived = (analysis: Analysis) => ({
    ...analysis,
    events: [...analysis.events].map((view) => ({ ...view, data: view.data, envelopes: view.envelopes })),
    connections: analysis.connections.map(({ record: _record, ...view }) =>
      view.tail ? { ...view, tail: { ...view.tail, bytes: Buffer.from(view.tail.bytes).toString('hex') } } : view,
    ),
  });
  expect(derived(actual), message).toStrictEqual(derived(expected));
  expect(isDeepStrictEqual(actual.events, expected.events), message).toBe(true);
  for (const [index, view] of actual.connections.entries())
    expect(view.record, message).toBe(expected.connections[index]?.record);
}

/**
 * Analyses the capture at every step; with `aheadEvery` n, only every nth step, the records of the other steps read
 * ahead as the live panel does when their chunks arrive.
 */
function expectSameAtEveryStep(final: Capture, aheadEvery = 1): number {
  const incremental = createAnalyzer();
  let steps = 0;
  let unanalysed: Capture | undefined;
  for (const capture of growing(final)) {
    steps++;
    unanalysed = undefined;
    if (steps % aheadEvery !== 0) {
      for (const record of capture.connections) incremental.readAhead(record);
      unanalysed = capture;
      continue;
    }
    expectSameAnalysis(capture, incremental(capture), `step ${steps}`);
  }
  if (unanalysed) expectSameAnalysis(unanalysed, incremental(unanalysed), 'the last step');
  return steps;
}

/** A session torn mid-event, resumed with Last-Event-ID and replayed from the boundary, with non-ASCII data. */
function tornTranscript(): Capture {
  const t = new Transcript();
  const s = session(t, 'S');
  s({
    body: rpc.request(0, 'initialize', { protocolVersion: '2025-11-25' }),
    sse: [sseEvent('0', rpc.result(0, { protocolVersion: '2025-11-25' }))],
  });
  const torn = sseEvent('3', rpc.progress(1, 3));
  s({
    body: rpc.request(1, 'tools/call'),
    sse: [
      'id: 1\ndata: \n\n',
      sseEvent('2', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'café 処理 ✓' } }) +
        torn.slice(0, 20),
    ],
    end: 'network-error',
  });
  s({ headers: { 'last-event-id': '2' }, sse: [torn, sseEvent('4', rpc.result(1)), 'id: 5\ndata: {"jsonrpc"\n\n'] });
  s({ body: rpc.request(2, 'tools/list'), json: rpc.result(2) });
  s({ sse: [sseEvent('x-9', rpc.notification('notifications/message'))], end: 'open' });
  return t.capture();
}

describe('createAnalyzer: a live capture analysed again at every step', () => {
  it('finds the recorded fixtures', () => {
    expect(examples).toEqual(
      expect.arrayContaining(['clean', 'cut-mid-event', 'replay-boundary', 'epoch-restart-clamp']),
    );
  });

  it.each(examples)('%s, chunk by chunk, equals a fresh analysis', (name) => {
    const final = example(name);
    expect(expectSameAtEveryStep(final)).toBeGreaterThan(final.connections.length * 2);
    expect(analyze(final).events.length).toBeGreaterThan(0);
  });

  it.each(examples)('%s, in 7-byte pieces, equals a fresh analysis', (name) => {
    expectSameAtEveryStep(rechunked(example(name), 7));
  });

  it.each(examples)(
    '%s, in 7-byte pieces read ahead between analyses of every third, equals a fresh analysis',
    (name) => {
      expectSameAtEveryStep(rechunked(example(name), 7), 3);
    },
  );

  it('a torn, resumed transcript with mixed id schemes and a JSON answer, byte by byte, equals a fresh analysis', () => {
    const final = tornTranscript();
    const findings = analyze(final).findings.map((f) => f.rule);
    expect(findings).toContain('torn-event-reconnect');
    expect(findings).toContain('incomplete-json');
    expectSameAtEveryStep(rechunked(final, 1));
    expectSameAtEveryStep(rechunked(final, 1), 2);
  });

  it('an MCP session beside streams that are not MCP, byte by byte, equals a fresh analysis', () => {
    const inspector = inspectorCapture().connections.map((record) => ({ ...record, id: `i${record.id}` }));
    // A stream with nothing to tell at first (other), then a JSON-RPC answer (MCP): it changes sides while live.
    const late = new Transcript();
    late.exchange({ url: 'http://127.0.0.1:5173/rpc', sse: [': open\n\n', sseEvent('1', rpc.result(1))] });
    const flips = late.capture().connections.map((record) => ({ ...record, id: `l${record.id}` }));
    const final = { ...aiChatCapture(), connections: [...aiChatCapture().connections, ...inspector, ...flips] };
    expect(analyze(final).otherStreams).toHaveLength(4);
    expect(analyze(final).sessions).toHaveLength(2);
    expectSameAtEveryStep(rechunked(final, 1));
  });

  it("a relay's reports as they stream in (the real Inspector recording, in 64-byte pieces) equal a fresh analysis", () => {
    const final = parseCapture(readFileSync(join(FIXTURES_DIR, 'mcp-inspector.capture.json'), 'utf8'));
    expect(analyze(final).sessions[0]?.relayed).toBeDefined();
    expect(expectSameAtEveryStep(rechunked(final, 64))).toBeGreaterThan(100);
  });
});

describe('createAnalyzer: what it may reuse', () => {
  it('continues a growing stream: events its copy carried before are not parsed again', () => {
    const incremental = createAnalyzer();
    const [first, ...rest] = growing(rechunked(example('cut-mid-event'), 16));
    let previous = { capture: first as Capture, analysis: incremental(first as Capture) };
    let continued = 0;
    const tablesOf = (analysis: Analysis) =>
      new Map((analysis.events as PlacedEvents).runs.map((run) => [run.connectionId, run.table]));
    for (const capture of rest) {
      const analysis = incremental(capture);
      const copied = new Set(
        capture.connections.filter((r, i) => r !== previous.capture.connections[i]).map((r) => r.id),
      );
      const before = tablesOf(previous.analysis);
      for (const [id, table] of tablesOf(analysis)) {
        const old = before.get(id);
        if (!copied.has(id) || !old || old.count === 0) continue;
        // The record is a new object; its table is the last one's, continued: its old chunks were not read again.
        expect(table.continues(old)).toBe(true);
        continued += old.count;
      }
      previous = { capture, analysis };
    }
    expect(continued).toBeGreaterThan(50);
  });

  it('notices a record changed in place, a body that is not a continuation, and connections that went away', () => {
    const incremental = createAnalyzer();
    const capture = tornTranscript();
    expectSameAnalysis(capture, incremental(capture));

    const open = capture.connections.at(-1) as ConnectionRecord;
    open.chunks.push({
      t: open.startTime + 50,
      bytes: new TextEncoder().encode(sseEvent('x-10', rpc.notification('notifications/message'))),
    });
    expectSameAnalysis(capture, incremental(capture));

    const rewritten: Capture = {
      ...capture,
      connections: capture.connections.map((r) => (r === open ? { ...r, chunks: r.chunks.slice(1) } : r)),
    };
    expectSameAnalysis(rewritten, incremental(rewritten));

    const ended: Capture = {
      ...capture,
      connections: capture.connections.map((r) =>
        r === open ? { ...r, end: 'aborted' as const, endTime: r.startTime + 60 } : r,
      ),
    };
    expectSameAnalysis(ended, incremental(ended));

    const fewer: Capture = { ...capture, connections: capture.connections.slice(2) };
    expectSameAnalysis(fewer, incremental(fewer));
    expectSameAnalysis(capture, incremental(capture));
  });

  it('gives an earlier capture, analysed again after its streams grew, what it gave the first time', () => {
    const incremental = createAnalyzer();
    const steps = [...growing(rechunked(example('cut-mid-event'), 64))];
    for (const capture of steps) incremental(capture);
    for (const [index, capture] of steps.entries())
      expectSameAnalysis(capture, incremental(capture), `step ${index + 1} again`);
  });

  it('does not continue a streaming record whose copy changed its head', () => {
    const incremental = createAnalyzer();
    const capture = tornTranscript();
    incremental(capture);
    const open = capture.connections.at(-1) as ConnectionRecord;
    const moved: Capture = {
      ...capture,
      connections: capture.connections.map((r) =>
        r === open ? { ...r, requestHeaders: [{ name: 'mcp-session-id', value: 'T' }] } : r,
      ),
    };
    expectSameAnalysis(moved, incremental(moved));
    expect(incremental(moved).sessions.map((s) => s.key)).toContain('T');
  });

  it('notices a response head that changed on the same record object', () => {
    const incremental = createAnalyzer();
    const capture = tornTranscript();
    incremental(capture);
    const json = capture.connections[3] as ConnectionRecord;
    json.responseHeaders = [{ name: 'content-type', value: 'text/plain' }];
    expectSameAnalysis(capture, incremental(capture));
    expect(incremental(capture).connections.find((c) => c.id === json.id)?.responseMessages).toEqual([]);
  });
});
