// Panel worker (pure logic, no worker API): the analysis worker's state and behaviour, commands in, messages out.
// worker.ts wires it to the worker's scope; tests drive it directly. It holds the records (each chunk's bytes once,
// as they arrived), runs the incremental analyzer in throttled, coalesced passes, and answers the UI thread with
// the view, the rows of the table's window, the selection's detail, whole payloads on demand, and exports.
import { createAnalyzer, type Analyzer } from '../../core/analyze';
import { serializeCapture } from '../../core/capture/format';
import { exportHar } from '../../core/capture/har-export';
import { blobPieces, readCaptureStream } from '../../core/capture/read-stream';
import { recordsToCapture } from '../state/capture';
import { initialHeld, reduceHeld, type HeldCommand, type HeldState } from '../state/held';
import { gappedConnections, heldBytes } from '../state/budget';
import type { RecordsState } from '../state/records';
import { createIdSearch } from '../view/id-search';
import { buildPanelView } from '../view/model';
import { createTickSender, wireBuffers } from '../view/tick-wire';
import { captureEnd, type TimelineLayout } from '../view/timeline';
import { gapBytes, pendingBodies, wireSignature } from '../view/wireSignature';
import { detailData, findEvent, payloadData } from './detail-data';
import { createDeriver, type Analysed, type Derived } from './derive';
import { DEFAULT_TRUNCATE_BYTES, type Choices, type HeldSummary, type HostCommand, type WorkerToUi } from './messages';
import { rowsWindow } from './rows';
import { createPassScheduler, type PassClock, type PassPolicy } from './schedule';

export interface HostDeps {
  /** `transfer`: buffers that go with the message (the timeline's arrays, copied for it). */
  post(message: WorkerToUi, transfer?: Transferable[]): void;
  clock: PassClock;
  /** Defaults to the core's incremental analyzer with every rule. */
  analyzer?: Analyzer;
  policy?: PassPolicy;
  /** An imported file's pieces; defaults to 1 MiB slices, each read when the last is parsed (blobPieces). */
  read?: (file: Blob) => AsyncIterable<Uint8Array>;
  /** Epoch ms now, as the records' times are (a live capture is watched until now); defaults to Date.now. */
  wallClock?: () => number;
}

/** While a live connection is open, the records are judged again this often: silence is news (request-hang). */
const WATCH_MS = 1000;

export interface AnalysisHost {
  receive(message: HostCommand): void;
  stop(): void;
}

const INITIAL_CHOICES: Choices = {
  filterText: '',
  severities: { error: true, warning: true, info: true },
  truncateBytes: DEFAULT_TRUNCATE_BYTES,
};

/** An imported file is read and parsed this much at a time: the worker holds one slice of it beyond its records. */
const IMPORT_SLICE_BYTES = 1 << 20;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Commands that change what the view shows, in the order they must apply. */
type Ordered = Extract<HostCommand, { seq: number }>;

export function createAnalysisHost(deps: HostDeps): AnalysisHost {
  let analyze = deps.analyzer ?? createAnalyzer();
  const read = deps.read ?? ((file: Blob) => blobPieces(file, IMPORT_SLICE_BYTES));
  const derive = createDeriver();
  const ids = createIdSearch();
  const sendTicks = createTickSender();
  let held: HeldState = initialHeld;
  let choices = INITIAL_CHOICES;
  let window = { from: 0, to: 0 };
  /** The last ordered command applied, the first records change no pass has covered, an import being read. */
  let applied = 0;
  let unanalysedFrom: number | undefined;
  let importing: number | undefined;
  let importAbort: AbortController | undefined;
  const waiting: Ordered[] = [];
  let analysed: Analysed | undefined;
  let analysedRecords: RecordsState | undefined;
  let derived: Derived | undefined;
  let publishTimer: unknown;
  let sentHeld = '';
  let sentDetail = '';
  let sentTimeline: TimelineLayout | undefined;
  const wallClock = deps.wallClock ?? (() => Date.now());
  let watchTimer: unknown;

  /** Every command up to this one is reflected in what is published. */
  const reflected = () =>
    Math.min(applied, (importing ?? Infinity) - 1, (unanalysedFrom ?? Infinity) - 1, (waiting[0]?.seq ?? Infinity) - 1);

  let summaryOf: { records: RecordsState; budget: unknown; dropped: unknown; summary: HeldSummary } | undefined;
  const summary = (): HeldSummary => {
    const records = held.records;
    if (summaryOf?.records !== records || summaryOf.budget !== held.budget || summaryOf.dropped !== held.dropped) {
      summaryOf = {
        records,
        budget: held.budget,
        dropped: held.dropped,
        summary: {
          connections: records.connections.length,
          orphanDeltas: records.orphanDeltas,
          wire: wireSignature(records.connections),
          pendingBodies: pendingBodies(records.connections),
          gapBytes: gapBytes(records.connections),
          budget: {
            heldBytes: heldBytes(records),
            limitBytes: held.budget.bytes,
            limitConnections: held.budget.connections,
            droppedConnections: held.dropped.connections,
            droppedBytes: held.dropped.bytes,
            gappedConnections: gappedConnections(records),
          },
        },
      };
    }
    return summaryOf.summary;
  };

  const postHeld = () => {
    const s = summary();
    const key = JSON.stringify(s);
    if (key === sentHeld) return;
    sentHeld = key;
    deps.post({ type: 'held', held: s });
  };

  const publish = () => {
    if (publishTimer !== undefined) deps.clock.clearTimer(publishTimer);
    publishTimer = undefined;
    if (!analysed) return;
    derived = derive(analysed, choices, window, summary(), reflected());
    sentHeld = JSON.stringify(derived.data.held);
    const { timeline, ...rest } = derived.data;
    if (timeline === sentTimeline) deps.post({ type: 'view', view: rest });
    else {
      // Only the ticks the UI lacks, copied and transferred: the remembered layout stays whole for the next view.
      const wire = sendTicks(timeline);
      sentTimeline = timeline;
      deps.post({ type: 'view', view: { ...rest, timeline: wire } }, wireBuffers(wire));
    }
    const detail = detailData(analysed.view, choices.selection, derived.resolved, choices.truncateBytes);
    const key = JSON.stringify(detail);
    if (key !== sentDetail) {
      sentDetail = key;
      deps.post({ type: 'detail', detail });
    }
  };

  /** A choice changed: the view follows at once (no analysis needed), coalescing a burst of keystrokes. */
  const publishSoon = () => {
    if (publishTimer === undefined) publishTimer = deps.clock.setTimer(publish, 0);
  };

  /** Another pass soon, with nothing new, while a live connection is open: how long it has been silent is news. */
  const watch = () => {
    if (watchTimer !== undefined || held.source !== 'live') return;
    if (!held.records.connections.some((record) => record.end === 'open')) return;
    // Never more than a quarter of the worker's time: a big capture's pass is not run every second.
    watchTimer = deps.clock.setTimer(
      () => {
        watchTimer = undefined;
        if (held.source === 'live') pass(true);
      },
      Math.max(WATCH_MS, 4 * (analysed?.costMs ?? 0)),
    );
  };

  const pass = (watching = false) => {
    const records = held.records;
    if (analysed && records === analysedRecords && !watching) {
      // Commands arrived that changed no record (live deltas while a file is on screen): just say so.
      unanalysedFrom = undefined;
      publish();
      return;
    }
    postHeld();
    const begun = deps.clock.now();
    try {
      // Live records are watched until now; an imported file until what it says (or its last record).
      const live = held.source === 'live';
      const now = live ? wallClock() : undefined;
      const capture = recordsToCapture(records, {
        toolVersion: 'panel',
        createdAt: 0,
        observedUntil: now ?? held.fileObservedUntil,
      });
      const analysis = analyze(capture);
      const end = captureEnd(records.connections);
      analysed = { view: buildPanelView(analysis, ids), end: now === undefined ? end : Math.max(end, now), costMs: 0 };
      analysed.costMs = deps.clock.now() - begun;
      analysedRecords = records;
      unanalysedFrom = undefined;
    } catch (error) {
      deps.post({ type: 'failed', message: `Analysis failed: ${describe(error)}` });
      return;
    }
    publish();
    watch();
  };
  const scheduler = createPassScheduler(pass, deps.clock, deps.policy);

  const change = (command: HeldCommand, seq: number) => {
    const before = held.records;
    held = reduceHeld(held, command);
    applied = seq;
    if (held.records !== before) {
      unanalysedFrom ??= seq;
      readAhead(command);
    }
    scheduler.input();
  };

  /**
   * A stream's new chunks are parsed as they come, between passes: a pass then only judges. Parsed at pass time,
   * the chunks of a fast stream piled up for each pass, and the last pass after the last byte parsed a third of it.
   */
  const readAhead = (command: HeldCommand) => {
    if (command.type !== 'transport' || command.message.type !== 'deltas') return;
    const { connections, indexById } = held.records;
    const grown = new Set<string>();
    for (const delta of command.message.deltas) if (delta.kind === 'chunk') grown.add(delta.id);
    for (const id of grown) {
      const index = indexById.get(id);
      const record = index === undefined ? undefined : connections[index];
      if (record) analyze.readAhead(record);
    }
  };

  /**
   * Reads and parses an imported file slice by slice (never the whole file, nor its text, at once), telling how far
   * it is; ordered commands that arrive meanwhile wait and apply after it. A cancel keeps what was shown.
   */
  const importFile = async (seq: number, name: string, file: Blob) => {
    importing = seq;
    const abort = (importAbort = new AbortController());
    const total = file.size;
    let told = -1;
    const onProgress = (bytes: number) => {
      const percent = Math.floor((bytes / Math.max(total, 1)) * 100);
      if (percent === told) return;
      told = percent;
      deps.post({ type: 'import-progress', seq, name, bytes, total });
    };
    try {
      const capture = await readCaptureStream(read(file), name, { onProgress, signal: abort.signal });
      held = reduceHeld(held, { type: 'imported', capture });
      unanalysedFrom ??= seq;
      deps.post({ type: 'imported', seq, name, connections: capture.connections.length });
    } catch (error) {
      // A file that cannot be read is the user's to know about: it becomes the panel's notice.
      if (abort.signal.aborted) deps.post({ type: 'import-cancelled', seq, name });
      else deps.post({ type: 'import-failed', seq, name, message: describe(error) });
    }
    importing = undefined;
    importAbort = undefined;
    applied = seq;
    scheduler.input();
    while (waiting.length > 0 && importing === undefined) apply(waiting.shift() as Ordered);
  };

  function apply(command: Ordered): void {
    if (importing !== undefined) {
      waiting.push(command); // applied in order once the file is in
      return;
    }
    switch (command.type) {
      case 'transport':
        change({ type: 'transport', message: command.message }, command.seq);
        return;
      case 'recording':
        change({ type: 'recording', on: command.on }, command.seq);
        return;
      case 'budget':
        change({ type: 'budget', budget: command.budget }, command.seq);
        return;
      case 'silence':
        // New thresholds: a fresh analyzer (its memory was of the old ones), and a pass over everything held.
        analyze = createAnalyzer(undefined, { silence: command.silence });
        analysedRecords = undefined;
        applied = command.seq;
        unanalysedFrom ??= command.seq;
        scheduler.input();
        return;
      case 'clear':
        change({ type: 'clear' }, command.seq);
        return;
      case 'import':
        void importFile(command.seq, command.name, command.file);
        return;
      case 'choices':
        choices = command.choices;
        applied = command.seq;
        publishSoon();
        return;
    }
  }

  const exportCapture = (command: Extract<HostCommand, { type: 'export' }>) => {
    const { id, kind, toolVersion, createdAt, revealSecrets } = command;
    scheduler.flush(); // the findings written along are those of every record exported
    try {
      // Live records were watched until this export (silent open streams stay silent in the file: request-hang).
      const capture = recordsToCapture(held.records, {
        toolVersion,
        createdAt,
        observedUntil:
          held.source === 'live' ? Math.max(createdAt, captureEnd(held.records.connections)) : held.fileObservedUntil,
        ...(held.pageUrl ? { pageUrl: held.pageUrl } : {}),
      });
      // A capture carries the findings the panel showed; HAR has no place for them.
      const findings = analysed?.view.analysis.findings ?? [];
      // Redacted unless the user opted in to credentials (docs/redaction.md); the findings' session ids follow.
      const text =
        kind === 'capture'
          ? serializeCapture(capture, { findings, revealSecrets })
          : exportHar(capture, { revealSecrets });
      deps.post({ type: 'exported', id, blob: new Blob([text], { type: 'application/json' }) });
    } catch (error) {
      deps.post({ type: 'failed', id, message: `Export failed: ${describe(error)}` });
    }
  };

  // The first pass (of nothing, or of what arrived meanwhile) tells the UI the panel is empty and current.
  scheduler.input();

  return {
    receive(message) {
      switch (message.type) {
        case 'rows':
          window = { from: message.from, to: message.to };
          if (derived) {
            const { analysed: a, rows, choices: c } = derived;
            deps.post({
              type: 'rows',
              rows: rowsWindow(a.view, rows, window, c.severities, c.truncateBytes, derived.data.version),
            });
          }
          return;
        case 'payload': {
          const event = derived ? findEvent(derived.analysed.view, message.event) : undefined;
          if (!derived || !event) {
            deps.post({ type: 'failed', id: message.id, message: 'That event is not in the analysis any more.' });
            return;
          }
          const whole = payloadData(derived.analysed.view, event, Infinity);
          deps.post({
            type: 'payload',
            id: message.id,
            event: { connectionId: event.connectionId, start: event.start },
            segments: whole.segments,
            ...(whole.json ? { json: whole.json } : {}),
          });
          return;
        }
        case 'export':
          exportCapture(message);
          return;
        case 'import-cancel':
          if (importing === message.importSeq) importAbort?.abort();
          return;
        default:
          apply(message);
      }
    },
    stop() {
      scheduler.stop();
      if (publishTimer !== undefined) deps.clock.clearTimer(publishTimer);
      if (watchTimer !== undefined) deps.clock.clearTimer(watchTimer);
    },
  };
}
