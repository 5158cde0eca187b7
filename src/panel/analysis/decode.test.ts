import { describe, expect, it } from 'vitest';
import { loadInput } from '../../core/capture/load';
import { devtoolsStyle } from '../../core/devtools-har.fixture';
import { readFixture } from '../../core/fixtures-dir.fixture';
import { aiChatCapture } from '../../core/model/other-streams.fixture';
import type { Capture } from '../../core/capture/model';
import { recordToDeltas } from '../state/records';
import { asUiToWorker } from './decode-commands';
import { asWorkerToUi } from './decode-results';
import { createAnalysisHost } from './host';
import type { Choices, UiToWorker, WorkerToUi } from './messages';

const CHOICES: Choices = {
  filterText: 'progress -ping',
  severities: { error: true, warning: false, info: true },
  sessionKey: 'k',
  selection: { kind: 'event', connectionId: 'e4', start: 120 },
  truncateBytes: 4096,
};

/** The real host, its answers as the UI thread receives them (structured clones), and a flush of its timers. */
function realHost() {
  const out: WorkerToUi[] = [];
  const timers: Array<() => void> = [];
  const host = createAnalysisHost({
    post: (m, transfer) => out.push(structuredClone(m, { transfer: transfer ?? [] })),
    clock: { now: () => 0, setTimer: (run) => timers.push(run), clearTimer: () => undefined },
    policy: { quietMs: 0, floorMs: 0 },
  });
  return { host, out, flush: () => timers.splice(0).forEach((run) => run()) };
}

const deltasOf = (capture: Capture) => capture.connections.flatMap((c) => recordToDeltas({ ...c, source: 'fetch' }));

/** Every kind of answer the real host gives on the cut-mid-event recording, as the UI thread receives them. */
function realAnswers(): WorkerToUi[] {
  const { har, ndjson } = readFixture('cut-mid-event');
  const capture = loadInput(new TextEncoder().encode(har), 'capture.har', { chunksNdjson: ndjson });
  // As if the Break menu had cut it: the connection detail then carries the fault's mark too.
  for (const c of capture.connections)
    if (c.end === 'network-error')
      c.faults = [
        { t: c.endTime ?? c.startTime, arm: 'a1', fault: 'cut-mid-event', action: 'cut', offset: 83, note: 'torn' },
      ];
  const { host, out, flush } = realHost();
  host.receive({ type: 'rows', version: 0, from: 0, to: 20 });
  host.receive({ type: 'transport', seq: 1, message: { type: 'deltas', tabId: 1, deltas: deltasOf(capture) } });
  flush();
  const view = out.findLast((m) => m.type === 'view');
  if (view?.type !== 'view') throw new Error('no view');
  const event = view.view.rows.rows[4]!;
  const selection = { kind: 'event', connectionId: event.connectionId, start: event.start } as const;
  host.receive({ type: 'choices', seq: 2, choices: { ...CHOICES, sessionKey: undefined, selection } });
  flush();
  host.receive({ type: 'rows', version: view.view.version, from: 2, to: 6 });
  host.receive({ type: 'payload', id: 1, event: selection });
  const cut = view.view.findings[0]!.target.connectionId!;
  host.receive({
    type: 'choices',
    seq: 3,
    choices: { ...CHOICES, selection: { kind: 'connection', connectionId: cut } },
  });
  flush();
  const key = view.view.findings[0]!.key;
  host.receive({ type: 'choices', seq: 4, choices: { ...CHOICES, selection: { kind: 'finding', key } } });
  flush();
  return out;
}

describe('the worker wire, worker -> UI thread', () => {
  const answers = realAnswers();

  it('takes every answer the real host gives as it is, each kind of it', () => {
    expect(new Set(answers.map((m) => m.type))).toEqual(new Set(['held', 'view', 'detail', 'rows', 'payload']));
    const details = answers.flatMap((m) => (m.type === 'detail' ? [m.detail] : []));
    expect(details.some((d) => d.event) && details.some((d) => d.connection) && details.some((d) => d.finding)).toBe(
      true,
    );
    expect(details.flatMap((d) => d.connection?.faults ?? [])).toContainEqual({
      fault: 'cut-mid-event',
      action: 'cut',
      offset: 83,
      note: 'torn',
    });
    for (const message of answers) expect(asWorkerToUi(message)).toEqual(message);
  });

  it('rebuilds each message from its fields: nothing unchecked travels on', () => {
    const view = answers.find((m) => m.type === 'view')!;
    const decoded = asWorkerToUi({ ...view, extra: 1, view: { ...(view as { view: object }).view, extra: 2 } });
    expect(decoded).toEqual(view);
  });

  it('refuses what it cannot trust: unknown kinds, wrong types, arrays that are not the typed arrays drawn', () => {
    const found = answers.find((m) => m.type === 'view');
    if (found?.type !== 'view') throw new Error('no view');
    const view = structuredClone(found);
    expect(asWorkerToUi({ type: 'nope' })).toBeNull();
    expect(asWorkerToUi(null)).toBeNull();
    expect(asWorkerToUi({ ...view, view: { ...view.view, seq: -1 } })).toBeNull();
    expect(asWorkerToUi({ ...view, view: { ...view.view, seq: '3' } })).toBeNull();
    const rows = view.view.rows;
    expect(
      asWorkerToUi({ ...view, view: { ...view.view, rows: { ...rows, rows: [{ ...rows.rows[0], time: 5 }] } } }),
    ).toBeNull();
    const timeline = view.view.timeline!;
    const plainTicks = { ...timeline, rows: timeline.rows.map((r) => ({ ...r, ticks: [...r.ticks] })) };
    expect(asWorkerToUi({ ...view, view: { ...view.view, timeline: plainTicks } })).toBeNull();
    const withQuiet = (quiet: unknown) => ({
      ...view,
      view: { ...view.view, timeline: { ...timeline, rows: timeline.rows.map((r, i) => (i ? r : { ...r, quiet })) } },
    });
    const waiting = withQuiet([{ from: 10, to: 4_000, waiting: true }]);
    expect(asWorkerToUi(waiting)).toEqual(waiting);
    expect(asWorkerToUi(withQuiet([{ from: 10, to: 4_000, waiting: 'yes' }]))).toBeNull();
    expect(asWorkerToUi(withQuiet([{ from: 10 }]))).toBeNull();
    expect(asWorkerToUi({ type: 'exported', id: 1, blob: 'text' })).toBeNull();
    expect(asWorkerToUi({ type: 'held', held: { connections: 1 } })).toBeNull();
  });
});

/** The views the real host sends for a capture given whole. */
function viewsOf(capture: Capture): Array<Extract<WorkerToUi, { type: 'view' }>> {
  const { host, out, flush } = realHost();
  host.receive({ type: 'transport', seq: 1, message: { type: 'deltas', tabId: 1, deltas: deltasOf(capture) } });
  flush();
  return out.flatMap((m) => (m.type === 'view' ? [m] : []));
}

/** The last view the real host sends after importing a file (the panel's Import, read in the worker). */
async function importedView(name: string, text: string): Promise<Extract<WorkerToUi, { type: 'view' }>> {
  const { host, out, flush } = realHost();
  host.receive({ type: 'import', seq: 1, name, file: new Blob([text]) });
  for (let turn = 0; turn < 100; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    flush();
    const view = out.findLast((m) => m.type === 'view');
    if (view?.type === 'view' && view.view.seq >= 1) return view;
  }
  throw new Error('the import was never reflected');
}

describe('the worker wire: what the analysis could not see', () => {
  it('carries the notice of an imported HAR that dropped the bodies of its cut streams, checked field by field', async () => {
    const view = await importedView('devtools.har', devtoolsStyle());
    expect(view.view.notices).toHaveLength(1);
    expect(view.view.notices[0]?.kind).toBe('body-missing');
    expect(view.view.notices[0]?.message).toMatch(/^3 responses have no body in this file \(.*POST tools\/call/);
    expect(asWorkerToUi(view)).toEqual(view);
    expect(asWorkerToUi({ ...view, view: { ...view.view, notices: [{ kind: 'body-missing' }] } })).toBeNull();
    const { har } = readFixture('cut-mid-event');
    expect((await importedView('recorded.har', har)).view.notices).toEqual([]);
  });
});

describe('the worker wire: the streams that are not MCP', () => {
  const view = viewsOf(aiChatCapture()).at(-1)!;

  it('carries each other stream of the page, and the decoder takes them as they are', () => {
    expect(view.view.otherStreams.map((s) => [s.method, s.kind, s.status, s.events])).toEqual([
      ['POST', 'openai-chat', 200, 6],
      ['POST', 'anthropic-messages', 200, 8],
    ]);
    expect(view.view.otherStreamsLeftOff).toBe(0);
    expect(asWorkerToUi(view)).toEqual(view);
  });

  it('checks every field of an other stream, and keeps absent ones absent', () => {
    const [first] = view.view.otherStreams;
    const withStream = (stream: object, leftOff: unknown = 0) =>
      asWorkerToUi({ ...view, view: { ...view.view, otherStreams: [stream], otherStreamsLeftOff: leftOff } });
    const { status: _status, kind: _kind, ...bare } = first!;
    expect(withStream({ ...bare, extra: 1 })).toEqual({ ...view, view: { ...view.view, otherStreams: [bare] } });
    for (const bad of [
      { kind: 'gemini' },
      { status: '200' },
      { events: -1 },
      { bytes: 1.5 },
      { url: 7 },
      { method: undefined },
      { connectionId: null },
      { reason: {} },
    ])
      expect(withStream({ ...first, ...bad }), JSON.stringify(bad)).toBeNull();
    expect(withStream(first!, -1)).toBeNull();
    expect(asWorkerToUi({ ...view, view: { ...view.view, otherStreams: 'none' } })).toBeNull();
  });
});

describe('the worker wire, UI thread -> worker', () => {
  const chunk = new Uint8Array([100, 97, 116, 97]);
  const commands: UiToWorker[] = [
    {
      type: 'transport',
      seq: 1,
      message: {
        type: 'deltas',
        tabId: 3,
        deltas: [
          {
            kind: 'start',
            conn: {
              id: 'c1',
              source: 'fetch',
              method: 'GET',
              url: 'http://127.0.0.1/mcp',
              requestHeaders: [],
              startTime: 1,
            },
          },
          { kind: 'chunk', id: 'c1', t: 2, bytes: chunk },
        ],
      },
    },
    { type: 'recording', seq: 2, on: false },
    { type: 'clear', seq: 3 },
    { type: 'import', seq: 4, name: 'x.har', file: new Blob(['{}']) },
    { type: 'choices', seq: 5, choices: CHOICES },
    { type: 'rows', version: 2, from: 10, to: 60 },
    { type: 'payload', id: 1, event: { connectionId: 'c1', start: 0 } },
    { type: 'export', id: 2, kind: 'har', toolVersion: '0.1.0', createdAt: 1, revealSecrets: false },
  ];

  it('takes each command as it was sent, chunk bytes kept as the same bytes', () => {
    for (const command of commands) expect(asUiToWorker(command)).toEqual(command);
    const transport = asUiToWorker(commands[0]);
    if (transport?.type !== 'transport' || transport.message.type !== 'deltas' || !('deltas' in transport.message))
      throw new Error('no transport');
    const kept = transport.message.deltas[1];
    expect(kept?.kind === 'chunk' && kept.bytes).toBe(chunk);
  });

  it('refuses commands it cannot trust', () => {
    expect(
      asUiToWorker({ type: 'transport', seq: 1, message: { type: 'deltas', tabId: 1, deltas: [{ kind: 'x' }] } }),
    ).toBeNull();
    expect(asUiToWorker({ type: 'clear' })).toBeNull();
    expect(asUiToWorker({ type: 'import', seq: 1, name: 'x', file: 'bytes' })).toBeNull();
    expect(asUiToWorker({ type: 'choices', seq: 1, choices: { ...CHOICES, severities: { error: true } } })).toBeNull();
    expect(
      asUiToWorker({
        type: 'choices',
        seq: 1,
        choices: { ...CHOICES, selection: { kind: 'event', connectionId: 'c' } },
      }),
    ).toBeNull();
    expect(asUiToWorker({ type: 'rows', version: 1, from: -1, to: 3 })).toBeNull();
    expect(asUiToWorker({ type: 'export', id: 1, kind: 'pdf', toolVersion: '1', createdAt: 0 })).toBeNull();
  });
});
