import { describe, expect, it } from 'vitest';
import { parseCapture, serializeCapture } from '../../core/capture/format';
import { loadInput } from '../../core/capture/load';
import type { Capture, ConnectionRecord } from '../../core/capture/model';
import { readFixture } from '../../core/fixtures-dir.fixture';
import type { ConnectionDelta } from '../../protocol/records';
import { recordToDeltas } from '../state/records';
import { analyze, createAnalyzer } from '../../core/analyze';
import { blobPieces } from '../../core/capture/read-stream';
import { createAnalysisHost, type HostDeps } from './host';
import type { Choices, HostCommand, ViewWire, WorkerToUi } from './messages';
import type { PassClock } from './schedule';

/** A clock that moves only when told; due timers fire in order as it does. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: PassClock = {
    now: () => now,
    setTimer(run, ms) {
      timers.set(next, { at: now + ms, run });
      return next++;
    },
    clearTimer: (handle) => void timers.delete(handle as number),
  };
  const advance = (ms: number) => {
    const to = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = Math.max(now, due[1].at);
      due[1].run();
    }
    now = to;
  };
  return { clock, advance };
}

/** The cut-mid-event lab recording as a tab would send it: fetch records, one delta per change. */
function tornCapture(): Capture {
  const { har, ndjson } = readFixture('cut-mid-event');
  return loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });
}
const asTab = (r: ConnectionRecord): ConnectionRecord => (r.source === 'eventsource' ? r : { ...r, source: 'fetch' });
function sessionIdOf(capture: Capture): string {
  const header = capture.connections
    .flatMap((c) => c.responseHeaders ?? [])
    .find((h) => h.name.toLowerCase() === 'mcp-session-id');
  if (!header) throw new Error('the recording has no session id');
  return header.value;
}

const tornDeltas = (): ConnectionDelta[] => tornCapture().connections.flatMap((c) => recordToDeltas(asTab(c)));

/** Waits (a macrotask at a time) until `done` holds; a test that never gets there times out. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** A file's pieces that stop after the first until opened: what a slow read of a big file looks like. */
function gatedPieces(bytes: Uint8Array, size: number) {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let given = 0;
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += size) {
      if (given === 1) await opened;
      given++;
      yield bytes.slice(at, at + size);
    }
  }
  return {
    pieces: pieces(),
    open,
    given: () => given,
    reached: (n: number) => until(() => given >= n),
  };
}

const CHOICES: Choices = {
  filterText: '',
  severities: { error: true, warning: true, info: true },
  truncateBytes: 4096,
};

function start(options: Partial<HostDeps> = {}) {
  const time = fakeClock();
  const out: WorkerToUi[] = [];
  const host = createAnalysisHost({ post: (m) => out.push(structuredClone(m)), clock: time.clock, ...options });
  // As the UI thread does at start: the window of rows every view should carry.
  host.receive({ type: 'rows', version: 0, from: 0, to: 50 });
  let seq = 0;
  const send = (make: (seq: number) => HostCommand) => {
    const message = make(++seq);
    host.receive(message);
    return seq;
  };
  const transport = (deltas: ConnectionDelta[]) =>
    send((s) => ({ type: 'transport', seq: s, message: { type: 'deltas', tabId: 1, deltas } }));
  const views = () => out.flatMap((m) => (m.type === 'view' ? [m.view] : []));
  const last = (): ViewWire => {
    const v = views().at(-1);
    if (!v) throw new Error('no view yet');
    return v;
  };
  return { host, time, out, send, transport, views, last, seq: () => seq };
}

/** A tools/call whose POST stream primed and then fell silent, still open. */
function waitingCall(t0: number): ConnectionRecord {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } });
  return {
    id: 'c1',
    source: 'fetch',
    method: 'POST',
    url: 'http://127.0.0.1:3000/mcp',
    requestHeaders: [{ name: 'mcp-session-id', value: 's1' }],
    requestBody: body,
    startTime: t0,
    status: 200,
    responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }],
    responseTime: t0 + 5,
    chunks: [{ t: t0 + 10, bytes: new TextEncoder().encode('id: 1\ndata: \n\n') }],
    end: 'open',
  };
}

describe('the analysis worker', () => {
  it('folds deltas sent in many messages, and its last view covers every one of them', () => {
    const w = start();
    w.send((s) => ({ type: 'choices', seq: s, choices: CHOICES }));
    const deltas = tornDeltas();
    for (let i = 0; i < deltas.length; i += 3) {
      w.transport(deltas.slice(i, i + 3));
      w.time.advance(5);
    }
    w.time.advance(1000);
    const view = w.last();
    expect(view.seq).toBe(w.seq());
    expect(view.held.connections).toBe(tornCapture().connections.length);
    expect(view.totals.events).toBeGreaterThan(0);
    expect(view.findings.map((f) => f.rule)).toContain('torn-event-reconnect');
    // Coalesced: far fewer views than messages, and every view before the first that covers them all said it was
    // behind (later ones are the watch passes of an open connection: the same records, judged again as time runs).
    const views = w.views();
    expect(views.length).toBeLessThan(Math.ceil(deltas.length / 3));
    const covering = views.findIndex((v) => v.seq === w.seq());
    for (const v of views.slice(0, covering)) expect(v.seq).toBeLessThan(w.seq());
  });

  it('parses chunks as they arrive, between passes: a message reads each record it grew ahead once', () => {
    const analyzer = createAnalyzer();
    const readAhead: string[] = [];
    const spy = Object.assign((capture: Capture) => analyzer(capture), {
      readAhead: (record: ConnectionRecord) => {
        readAhead.push(`${record.id}:${record.chunks.length}`);
        analyzer.readAhead(record);
      },
    });
    const w = start({ analyzer: spy });
    const deltas = tornDeltas();
    for (let i = 0; i < deltas.length; i += 2) w.transport(deltas.slice(i, i + 2));
    w.time.advance(1000);
    // One read ahead per record a message grew, with the record as that message left it.
    const counts = new Map<string, number>();
    const expected: string[] = [];
    for (let i = 0; i < deltas.length; i += 2) {
      const grown = new Set<string>();
      for (const d of deltas.slice(i, i + 2)) {
        if (d.kind !== 'chunk') continue;
        counts.set(d.id, (counts.get(d.id) ?? 0) + 1);
        grown.add(d.id);
      }
      for (const id of grown) expected.push(`${id}:${counts.get(id)}`);
    }
    expect(expected.length).toBeGreaterThan(5);
    expect(readAhead).toEqual(expected);
    expect(w.last().findings.map((f) => f.rule)).toEqual(analyze(tornCapture()).findings.map((f) => f.rule));
  });

  it('says what it holds before the analysis of it is ready', () => {
    const w = start();
    w.transport(tornDeltas());
    w.time.advance(1000);
    const held = w.out.findIndex((m) => m.type === 'held' && m.held.connections > 0);
    const view = w.out.findIndex((m) => m.type === 'view' && m.view.totals.connections > 0);
    expect(held).toBeGreaterThanOrEqual(0);
    expect(held).toBeLessThan(view);
  });

  it('sends the timeline only when it changed, as typed arrays', () => {
    const w = start();
    w.transport(tornDeltas());
    w.time.advance(1000);
    const first = w.last();
    expect(first.timeline?.rows.some((r) => r.ticks instanceof Float64Array && r.ticks.length > 0)).toBe(true);
    // A new selection changes what is resolved, not the lanes.
    const event = first.rows.rows[3]!;
    w.send((s) => ({
      type: 'choices',
      seq: s,
      choices: { ...CHOICES, selection: { kind: 'event', connectionId: event.connectionId, start: event.start } },
    }));
    w.time.advance(10);
    const second = w.last();
    expect(second.timeline).toBeUndefined();
    expect(second.resolved.event).toEqual({ connectionId: event.connectionId, start: event.start });
    expect(second.resolved.position).toBe(3);
  });

  it('answers a rows request with the rows of its current view, and a filter starts a new version', () => {
    const w = start();
    w.transport(tornDeltas());
    w.time.advance(1000);
    const { version, shownEvents } = w.last();
    w.host.receive({ type: 'rows', version, from: 2, to: 5 });
    const rows = w.out.at(-1);
    expect(rows?.type).toBe('rows');
    if (rows?.type !== 'rows') return;
    expect(rows.rows).toMatchObject({ version, from: 2 });
    expect(rows.rows.rows).toHaveLength(Math.min(3, shownEvents - 2));
    w.send((s) => ({ type: 'choices', seq: s, choices: { ...CHOICES, filterText: 'result' } }));
    w.time.advance(10);
    const filtered = w.last();
    expect(filtered.version).not.toBe(version);
    expect(filtered.shownEvents).toBeLessThan(shownEvents);
    // The view carries the rows of the window asked for last, already filtered.
    expect(filtered.rows.rows.every((r) => r.method.startsWith('result'))).toBe(true);
  });

  it('cuts a payload above the truncation size in the row and the detail, and sends it whole on request', () => {
    const w = start();
    w.transport(tornDeltas());
    w.time.advance(1000);
    const long = w.last().rows.rows.find((r) => r.bytes > 100)!;
    const ref = { connectionId: long.connectionId, start: long.start };
    w.send((s) => ({
      type: 'choices',
      seq: s,
      choices: { ...CHOICES, truncateBytes: 40, selection: { kind: 'event', ...ref } },
    }));
    w.time.advance(10);
    const row = w.last().rows.rows.find((r) => r.start === long.start && r.connectionId === long.connectionId)!;
    expect(row.truncated).toBe(true);
    expect(row.data.length).toBe(40);
    const detail = w.out.findLast((m) => m.type === 'detail');
    if (detail?.type !== 'detail') throw new Error('no detail');
    const payload = detail.detail.event!.payload;
    expect(payload).toMatchObject({ truncated: true, bytes: long.bytes });
    expect(payload.json).toBeUndefined();
    expect(payload.segments.map((s) => s.text).join('')).toHaveLength(40);
    w.host.receive({ type: 'payload', id: 7, event: ref });
    const whole = w.out.at(-1);
    if (whole?.type !== 'payload') throw new Error('no payload');
    expect(whole.id).toBe(7);
    const text = whole.segments.map((s) => s.text).join('');
    expect(new TextEncoder().encode(text).length).toBe(long.bytes);
    expect(text.startsWith(payload.segments.map((s) => s.text).join(''))).toBe(true);
    expect(whole.json).toBeDefined();
  });

  it('opens a 10 MB event truncated (the detail sent is a few KiB) and sends it whole only when asked', () => {
    const w = start();
    w.send((s) => ({ type: 'choices', seq: s, choices: CHOICES }));
    const data = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(10 * 1024 * 1024) } });
    const body = new TextEncoder().encode(`id: 1\ndata: ${data}\n\n`);
    w.transport([
      {
        kind: 'start',
        conn: {
          id: 'big',
          source: 'fetch',
          method: 'POST',
          url: 'http://127.0.0.1/mcp',
          requestHeaders: [],
          startTime: 1,
        },
      },
      {
        kind: 'response',
        id: 'big',
        status: 200,
        statusText: 'OK',
        responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }],
        responseTime: 2,
      },
      // In 1 MiB chunks, as a network reader gives them.
      ...Array.from({ length: Math.ceil(body.length / 2 ** 20) }, (_, i) => ({
        kind: 'chunk' as const,
        id: 'big',
        t: 3 + i,
        bytes: body.subarray(i * 2 ** 20, (i + 1) * 2 ** 20),
      })),
      { kind: 'end', id: 'big', end: 'complete', endTime: 20 },
    ]);
    w.time.advance(1000);
    const row = w.last().rows.rows[0]!;
    expect(row.truncated).toBe(true);
    const ref = { connectionId: row.connectionId, start: row.start };
    w.send((s) => ({ type: 'choices', seq: s, choices: { ...CHOICES, selection: { kind: 'event', ...ref } } }));
    w.time.advance(10);
    const detail = w.out.findLast((m) => m.type === 'detail');
    if (detail?.type !== 'detail') throw new Error('no detail');
    const payload = detail.detail.event!.payload;
    expect(payload).toMatchObject({ truncated: true });
    expect(payload.bytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(payload.json).toBeUndefined();
    // What the UI gets to render: the head only.
    expect(payload.segments.map((seg) => seg.text).join('').length).toBeLessThanOrEqual(4096);
    expect(JSON.stringify(detail).length).toBeLessThan(64 * 1024);
    expect(w.out.some((m) => m.type === 'payload')).toBe(false);
    // "Load whole": the event, all of it, parsed for the tree.
    w.host.receive({ type: 'payload', id: 9, event: ref });
    const whole = w.out.at(-1);
    if (whole?.type !== 'payload') throw new Error('no payload');
    const text = whole.segments.map((seg) => seg.text).join('');
    expect(text.startsWith(`id: 1\ndata: ${data}`)).toBe(true);
    expect(new TextEncoder().encode(text).length).toBe(payload.bytes);
    expect(whole.json?.value).toMatchObject({ id: 1 });
  });

  it('imports a file in order: live messages sent meanwhile wait, then are ignored while the file is shown', async () => {
    const har = new TextEncoder().encode(readFixture('clean').har);
    const gate = gatedPieces(har, 1000);
    const w = start({ read: () => gate.pieces });
    w.transport(tornDeltas().slice(0, 4));
    const importSeq = w.send((s) => ({ type: 'import', seq: s, name: 'x.har', file: new Blob([har]) }));
    const later = w.transport(tornDeltas());
    await gate.reached(1);
    w.time.advance(1000);
    // Nothing after the import is reflected while the file is being read.
    expect(w.views().every((v) => v.seq < importSeq)).toBe(true);
    gate.open();
    await until(() => w.out.some((m) => m.type === 'imported'));
    w.time.advance(1000);
    const imported = w.out.findIndex((m) => m.type === 'imported');
    expect(w.out[imported]).toMatchObject({ type: 'imported', seq: importSeq, name: 'x.har' });
    const view = w.last();
    expect(view.seq).toBe(later);
    const clean = loadInput(har, 'x.har');
    expect(view.held.connections).toBe(clean.connections.length);
    // Back to live: the file goes, and the next snapshot is what is shown.
    w.send((s) => ({ type: 'clear', seq: s }));
    w.time.advance(1000);
    expect(w.last().held.connections).toBe(0);
  });

  it('reads an imported file slice by slice, telling how far it is, to the same capture as read whole', async () => {
    const har = new TextEncoder().encode(readFixture('cut-mid-event').har);
    const file = new Blob([har]);
    const w = start({ read: (f) => blobPieces(f, 4096) });
    const importSeq = w.send((s) => ({ type: 'import', seq: s, name: 'x.har', file }));
    await until(() => w.out.some((m) => m.type === 'imported'));
    const progress = w.out.flatMap((m) => (m.type === 'import-progress' ? [m] : []));
    // One report per percent at most, rising, the last at the file's end, all before the import is done.
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.length).toBeLessThanOrEqual(101);
    expect(progress.every((p, i) => i === 0 || p.bytes > (progress[i - 1]?.bytes ?? 0))).toBe(true);
    expect(progress.at(-1)).toEqual({
      type: 'import-progress',
      seq: importSeq,
      name: 'x.har',
      bytes: har.length,
      total: har.length,
    });
    expect(w.out.findIndex((m) => m.type === 'import-progress')).toBeLessThan(
      w.out.findIndex((m) => m.type === 'imported'),
    );
    w.time.advance(1000);
    const whole = analyze(loadInput(har, 'x.har'));
    expect(w.last().held.connections).toBe(whole.connections.length);
    expect(
      w
        .last()
        .findings.map((f) => f.rule)
        .sort(),
    ).toEqual(whole.findings.map((f) => f.rule).sort());
  });

  it('cancels an import between two slices: what was shown stays, and commands sent meanwhile apply', async () => {
    const har = new TextEncoder().encode(readFixture('clean').har);
    const gate = gatedPieces(har, 1000);
    const w = start({ read: () => gate.pieces });
    w.transport(tornDeltas());
    w.time.advance(1000);
    const before = w.last().held.connections;
    const importSeq = w.send((s) => ({ type: 'import', seq: s, name: 'x.har', file: new Blob([har]) }));
    const later = w.send((s) => ({ type: 'recording', seq: s, on: false }));
    await gate.reached(1);
    // A cancel for another import changes nothing; this one's stops the read before its next slice.
    w.host.receive({ type: 'import-cancel', importSeq: importSeq + 100 });
    w.host.receive({ type: 'import-cancel', importSeq });
    gate.open();
    await until(() => w.out.some((m) => m.type === 'import-cancelled'));
    expect(w.out.some((m) => m.type === 'imported' || m.type === 'import-failed')).toBe(false);
    expect(gate.given()).toBeLessThan(Math.ceil(har.length / 1000));
    w.time.advance(1000);
    expect(w.last()).toMatchObject({ seq: later, held: { connections: before } });
  });

  it('reports a file it cannot read and keeps what it showed', async () => {
    const w = start();
    w.transport(tornDeltas());
    w.time.advance(1000);
    const before = w.last().held.connections;
    w.send((s) => ({ type: 'import', seq: s, name: 'x.json', file: new Blob(['not a capture']) }));
    await until(() => w.out.some((m) => m.type === 'import-failed'));
    w.time.advance(1000);
    const failed = w.out.find((m) => m.type === 'import-failed');
    expect(failed).toMatchObject({ name: 'x.json', message: expect.stringContaining('JSON') });
    expect(w.last()).toMatchObject({ seq: w.seq(), held: { connections: before } });
  });

  it('exports the capture it holds, with the findings of all of it, as a Blob', async () => {
    const w = start();
    w.transport(tornDeltas());
    // No pass has run yet: the export runs one first.
    w.host.receive({
      type: 'export',
      id: 3,
      kind: 'capture',
      toolVersion: '9.9.9',
      createdAt: 5,
      revealSecrets: false,
    });
    const exported = w.out.find((m) => m.type === 'exported');
    if (exported?.type !== 'exported') throw new Error('no export');
    expect(exported.id).toBe(3);
    const text = await exported.blob.text();
    const capture = parseCapture(text);
    expect(capture.tool.version).toBe('9.9.9');
    expect(capture.connections).toHaveLength(tornCapture().connections.length);
    expect((JSON.parse(text) as { findings: Array<{ rule: string }> }).findings.map((f) => f.rule)).toContain(
      'torn-event-reconnect',
    );
    // Redacted by default: the session id is an alias, in the records and in the findings written along.
    const sessionId = sessionIdOf(tornCapture());
    expect(text).not.toContain(sessionId);
    expect(text).toContain('redacted-session-1');
  });

  it('exports what was recorded when the user opted in to credentials', async () => {
    const w = start();
    w.transport(tornDeltas());
    w.host.receive({ type: 'export', id: 4, kind: 'har', toolVersion: '9.9.9', createdAt: 5, revealSecrets: true });
    const exported = w.out.find((m) => m.type === 'exported');
    if (exported?.type !== 'exported') throw new Error('no export');
    const text = await exported.blob.text();
    expect(text).toContain(sessionIdOf(tornCapture()));
    expect(text).not.toContain('redacted-session-');
  });

  it('while a request waits on an open stream, judges it again as time runs: the clock, then request-hang', () => {
    const t0 = 1_800_000_000_000;
    let wall = t0;
    const w = start({ wallClock: () => wall });
    w.send((s) => ({ type: 'choices', seq: s, choices: CHOICES }));
    const open = waitingCall(t0);
    w.transport(recordToDeltas(open));
    wall = t0 + 5_000;
    w.time.advance(1000);
    expect(w.last().waiting).toMatchObject([{ connectionId: 'c1', label: 'tools/call 7' }]);
    const early = w.last().waiting[0]?.waitedMs ?? 0;
    expect(w.last().findings.map((f) => f.rule)).not.toContain('request-hang');
    // Nothing new arrives; the clock alone moves on past the hang threshold (30 s).
    for (let second = 6; second <= 40; second++) {
      wall = t0 + second * 1000;
      w.time.advance(1000);
    }
    expect(w.last().waiting[0]?.waitedMs).toBeGreaterThan(early);
    expect(w.last().findings.map((f) => f.rule)).toContain('request-hang');
  });

  it('judges an imported file until its observedUntil, and a re-export keeps it', async () => {
    const t0 = 1_800_000_000_000;
    const capture: Capture = {
      tool: { name: 'mcp-stream-inspector', version: 'test' },
      createdAt: t0,
      observedUntil: t0 + 40_000,
      connections: [waitingCall(t0)],
    };
    const file = new Blob([serializeCapture(capture)]);
    const w = start({ wallClock: () => t0 + 3_600_000 });
    w.send((s) => ({ type: 'import', seq: s, name: 'hang.json', file }));
    await until(() => w.out.some((m) => m.type === 'imported'));
    w.time.advance(1000);
    // Silent from its priming event until the recorder stopped watching: 40 s, not an hour (the wall clock).
    const hang = w.last().findings.find((f) => f.rule === 'request-hang');
    expect(hang?.message).toMatch(/\b39\.9 s\b|\b40(\.0)? s\b/);
    w.host.receive({
      type: 'export',
      id: 6,
      kind: 'capture',
      toolVersion: 't',
      createdAt: t0 + 7_200_000,
      revealSecrets: true,
    });
    const exported = w.out.find((m) => m.type === 'exported');
    if (exported?.type !== 'exported') throw new Error('no export');
    expect(parseCapture(await exported.blob.text()).observedUntil).toBe(t0 + 40_000);
  });

  it('exports live records as watched until the export, so a silent open stream reads as silent', async () => {
    const t0 = 1_800_000_000_000;
    const w = start({ wallClock: () => t0 + 50_000 });
    w.transport(recordToDeltas(waitingCall(t0)));
    w.host.receive({
      type: 'export',
      id: 7,
      kind: 'capture',
      toolVersion: 't',
      createdAt: t0 + 50_000,
      revealSecrets: true,
    });
    const exported = w.out.find((m) => m.type === 'exported');
    if (exported?.type !== 'exported') throw new Error('no export');
    const capture = parseCapture(await exported.blob.text());
    expect(capture.observedUntil).toBe(t0 + 50_000);
    expect(analyze(capture).findings.map((f) => f.rule)).toContain('request-hang');
  });

  it('stops taking new connections while recording is off, and a clear forgets what it held', () => {
    const w = start();
    const deltas = tornDeltas();
    const first = deltas.findIndex((d, i) => i > 0 && d.kind === 'start');
    w.transport(deltas.slice(0, first));
    w.send((s) => ({ type: 'recording', seq: s, on: false }));
    w.transport(deltas.slice(first));
    w.time.advance(1000);
    expect(w.last().held.connections).toBe(1);
    w.send((s) => ({ type: 'clear', seq: s }));
    w.time.advance(1000);
    expect(w.last()).toMatchObject({ seq: w.seq(), held: { connections: 0 }, totals: { events: 0 } });
  });
});
