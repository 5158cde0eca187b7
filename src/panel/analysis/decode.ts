// Runs anywhere (pure): the decoders of the UI thread <-> analysis worker wire (messages.ts), one per direction.
// Both ends are the panel's own code, but a bug on one side must not become a crash or a wrong figure on the
// other: each message is rebuilt from checked fields. Row, finding and session texts are checked to be strings
// (they become text children); a JSON value for the tree stays unknown (JsonTree renders any value).
import type { Severity } from '../../core/guard/types';
import { asBackgroundToPanel } from '../../protocol/decode-panel';
import { decoding, fail, flag, integer, list, optionalText, record, text } from '../../protocol/decode-fields';
import type { TimelineLayout } from '../view/timeline';
import type { WireSignature } from '../view/wireSignature';
import type {
  ChipData,
  Choices,
  DetailData,
  EventRef,
  EventRowData,
  FindingItem,
  FindingTargetData,
  HeldSummary,
  RowsWindow,
  Selection,
  SessionRowData,
  TextSegment,
  UiToWorker,
  ViewWire,
  WorkerToUi,
} from './messages';

type Fields = Record<string, unknown>;

const MAX = Number.MAX_SAFE_INTEGER;
const TEXT = 16 * 1024 * 1024;
const LIST = 10_000_000;
const SEVERITY = new Set<unknown>(['error', 'warning', 'info']);

const count = (v: unknown, what: string) => integer(v, 0, MAX, what);
const seq = (v: unknown) => integer(v, 0, MAX, 'seq');
const str = (v: unknown, what: string) => text(v, TEXT, what);
const strs = (v: unknown, what: string) => list(v, LIST, what).map((s) => str(s, what));
const items = <T>(v: unknown, what: string, each: (o: Fields) => T) =>
  list(v, LIST, what).map((o) => each(record(o, what)));

function num(v: unknown, what: string): number {
  if (typeof v !== 'number' || Number.isNaN(v)) fail(what);
  return v;
}

function optional<T>(v: unknown, decode: (v: unknown) => T): T | undefined {
  return v === undefined ? undefined : decode(v);
}

/** `{ key: value }` when present, `{}` when not: keeps optional fields absent rather than undefined. */
function maybe<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

function severity(v: unknown): Severity {
  if (!SEVERITY.has(v)) fail('severity');
  return v as Severity;
}

function severityRecord<T>(v: unknown, each: (v: unknown) => T): Record<Severity, T> {
  const o = record(v, 'severities');
  return { error: each(o.error), warning: each(o.warning), info: each(o.info) };
}

function eventRef(v: unknown): EventRef {
  const o = record(v, 'event');
  return { connectionId: str(o.connectionId, 'connectionId'), start: count(o.start, 'start') };
}

function selection(v: unknown): Selection {
  const o = record(v, 'selection');
  switch (o.kind) {
    case 'event':
      return { kind: 'event', ...eventRef(o) };
    case 'connection':
      return { kind: 'connection', connectionId: str(o.connectionId, 'connectionId') };
    case 'finding':
      return { kind: 'finding', key: str(o.key, 'key') };
    default:
      return fail('selection');
  }
}

function choices(v: unknown): Choices {
  const o = record(v, 'choices');
  return {
    filterText: text(o.filterText, 4096, 'filterText'),
    severities: severityRecord(o.severities, (s) => flag(s, 'severity')),
    ...maybe('sessionKey', optionalText(o.sessionKey, 4096, 'sessionKey')),
    ...maybe('selection', optional(o.selection, selection)),
    truncateBytes: count(o.truncateBytes, 'truncateBytes'),
  };
}

/** What the UI thread asks of the worker, or null. */
export function asUiToWorker(raw: unknown): UiToWorker | null {
  return decoding((): UiToWorker | null => {
    const m = record(raw, 'message');
    switch (m.type) {
      case 'transport': {
        const message = asBackgroundToPanel(m.message, undefined);
        return message ? { type: 'transport', seq: seq(m.seq), message } : null;
      }
      case 'recording':
        return { type: 'recording', seq: seq(m.seq), on: flag(m.on, 'on') };
      case 'clear':
        return { type: 'clear', seq: seq(m.seq) };
      case 'import':
        if (!(m.file instanceof Blob)) fail('file');
        return { type: 'import', seq: seq(m.seq), name: text(m.name, 4096, 'name'), file: m.file };
      case 'choices':
        return { type: 'choices', seq: seq(m.seq), choices: choices(m.choices) };
      case 'rows':
        return {
          type: 'rows',
          version: count(m.version, 'version'),
          from: count(m.from, 'from'),
          to: count(m.to, 'to'),
        };
      case 'payload':
        return { type: 'payload', id: count(m.id, 'id'), event: eventRef(m.event) };
      case 'export':
        if (m.kind !== 'capture' && m.kind !== 'har') fail('kind');
        return {
          type: 'export',
          id: count(m.id, 'id'),
          kind: m.kind,
          toolVersion: text(m.toolVersion, 256, 'toolVersion'),
          createdAt: num(m.createdAt, 'createdAt'),
        };
      default:
        return null;
    }
  });
}

function wire(v: unknown): WireSignature {
  const o = record(v, 'wire');
  return {
    connections: count(o.connections, 'connections'),
    answered: count(o.answered, 'answered'),
    streamBytes: count(o.streamBytes, 'streamBytes'),
    streamsEnded: count(o.streamsEnded, 'streamsEnded'),
  };
}

function held(v: unknown): HeldSummary {
  const o = record(v, 'held');
  return {
    connections: count(o.connections, 'connections'),
    orphanDeltas: count(o.orphanDeltas, 'orphanDeltas'),
    wire: wire(o.wire),
    pendingBodies: count(o.pendingBodies, 'pendingBodies'),
  };
}

function target(v: unknown): FindingTargetData {
  const o = record(v, 'target');
  return {
    ...maybe(
      'sessionKey',
      optional(o.sessionKey, (s) => str(s, 'sessionKey')),
    ),
    ...maybe(
      'connectionId',
      optional(o.connectionId, (s) => str(s, 'connectionId')),
    ),
    ...maybe('event', optional(o.event, eventRef)),
    ...maybe(
      'time',
      optional(o.time, (t) => num(t, 'time')),
    ),
  };
}

const sessionRow = (o: Fields): SessionRowData => ({
  key: str(o.key, 'key'),
  ...maybe(
    'sessionId',
    optional(o.sessionId, (s) => str(s, 'sessionId')),
  ),
  era: str(o.era, 'era'),
  origin: str(o.origin, 'origin'),
  endpoint: str(o.endpoint, 'endpoint'),
  startTime: num(o.startTime, 'startTime'),
  streams: count(o.streams, 'streams'),
  connections: count(o.connections, 'connections'),
  events: count(o.events, 'events'),
  counts: severityRecord(o.counts, (c) => count(c, 'count')),
  ...maybe('worst', optional(o.worst, severity)),
});

const findingItem = (o: Fields): FindingItem => ({
  index: count(o.index, 'index'),
  key: str(o.key, 'key'),
  rule: str(o.rule, 'rule'),
  severity: severity(o.severity),
  message: str(o.message, 'message'),
  ...maybe(
    'session',
    optional(o.session, (s) => str(s, 'session')),
  ),
  time: str(o.time, 'time'),
  target: target(o.target),
});

const chip = (o: Fields): ChipData => ({
  severity: severity(o.severity),
  count: count(o.count, 'count'),
  rules: strs(o.rules, 'rules'),
  title: str(o.title, 'title'),
  first: str(o.first, 'first'),
});

const METHOD_KINDS = new Set<unknown>(['', 'priming', 'bad']);

const eventRow = (o: Fields): EventRowData => {
  if (!METHOD_KINDS.has(o.methodKind)) fail('methodKind');
  return {
    eventIndex: count(o.eventIndex, 'eventIndex'),
    connectionId: str(o.connectionId, 'connectionId'),
    start: count(o.start, 'start'),
    time: str(o.time, 'time'),
    stream: str(o.stream, 'stream'),
    resumption: count(o.resumption, 'resumption'),
    id: str(o.id, 'id'),
    type: str(o.type, 'type'),
    size: str(o.size, 'size'),
    method: str(o.method, 'method'),
    methodKind: o.methodKind as EventRowData['methodKind'],
    ...maybe(
      'problem',
      optional(o.problem, (s) => str(s, 'problem')),
    ),
    chips: items(o.chips, 'chips', chip),
    data: str(o.data, 'data'),
    bytes: count(o.bytes, 'bytes'),
    truncated: flag(o.truncated, 'truncated'),
  };
};

function rowsWindow(v: unknown): RowsWindow {
  const o = record(v, 'rows');
  return { version: count(o.version, 'version'), from: count(o.from, 'from'), rows: items(o.rows, 'rows', eventRow) };
}

function typed<T extends Float64Array | Int32Array>(v: unknown, type: new (n: number) => T, what: string): T {
  if (!(v instanceof type)) fail(what);
  return v;
}

const END_REASONS = new Set<unknown>(['complete', 'aborted', 'network-error', 'open']);

/** The layout is drawn as given; its numbers are checked to be numbers and its rows to hold typed arrays. */
function timeline(v: unknown): TimelineLayout {
  const o = record(v, 'timeline');
  return {
    start: num(o.start, 'start'),
    end: num(o.end, 'end'),
    height: num(o.height, 'height'),
    groups: items(o.groups, 'groups', (g) => ({
      sessionKey: str(g.sessionKey, 'sessionKey'),
      label: str(g.label, 'label'),
      y: num(g.y, 'y'),
    })),
    lanes: items(o.lanes, 'lanes', (l) => ({
      key: str(l.key, 'key'),
      sessionKey: str(l.sessionKey, 'sessionKey'),
      label: str(l.label, 'label'),
      y: num(l.y, 'y'),
      height: num(l.height, 'height'),
    })),
    rows: items(o.rows, 'rows', (r) => {
      if (!END_REASONS.has(r.endReason)) fail('endReason');
      const torn = optional(r.torn, (t) => {
        const x = record(t, 'torn');
        return { from: num(x.from, 'from'), bytes: count(x.bytes, 'bytes') };
      });
      return {
        connectionId: str(r.connectionId, 'connectionId'),
        laneIndex: count(r.laneIndex, 'laneIndex'),
        y: num(r.y, 'y'),
        height: num(r.height, 'height'),
        label: str(r.label, 'label'),
        start: num(r.start, 'start'),
        end: num(r.end, 'end'),
        endReason: r.endReason as TimelineLayout['rows'][number]['endReason'],
        ...maybe(
          'status',
          optional(r.status, (s) => count(s, 'status')),
        ),
        ...maybe(
          'responseTime',
          optional(r.responseTime, (t) => num(t, 'responseTime')),
        ),
        ...maybe('torn', torn),
        ticks: typed(r.ticks, Float64Array, 'ticks'),
        tickEvents: typed(r.tickEvents, Int32Array, 'tickEvents'),
        tickStarts: typed(r.tickStarts, Float64Array, 'tickStarts'),
      };
    }),
    links: items(o.links, 'links', (l) => ({
      fromRow: count(l.fromRow, 'fromRow'),
      toRow: count(l.toRow, 'toRow'),
      fromTime: num(l.fromTime, 'fromTime'),
      toTime: num(l.toTime, 'toTime'),
      ...maybe(
        'lastEventId',
        optional(l.lastEventId, (s) => str(s, 'lastEventId')),
      ),
    })),
    markers: items(o.markers, 'markers', (m) => ({
      findingIndex: count(m.findingIndex, 'findingIndex'),
      key: str(m.key, 'key'),
      rowIndex: count(m.rowIndex, 'rowIndex'),
      time: num(m.time, 'time'),
      severity: severity(m.severity),
    })),
  };
}

function view(v: unknown): ViewWire {
  const o = record(v, 'view');
  const t = record(o.totals, 'totals');
  const r = record(o.resolved, 'resolved');
  return {
    seq: seq(o.seq),
    version: count(o.version, 'version'),
    costMs: num(o.costMs, 'costMs'),
    held: held(o.held),
    totals: {
      sessions: count(t.sessions, 'sessions'),
      connections: count(t.connections, 'connections'),
      events: count(t.events, 'events'),
      findings: count(t.findings, 'findings'),
    },
    ...maybe(
      'sessionKey',
      optional(o.sessionKey, (s) => str(s, 'sessionKey')),
    ),
    sessionRows: items(o.sessionRows, 'sessionRows', sessionRow),
    shownEvents: count(o.shownEvents, 'shownEvents'),
    counts: severityRecord(o.counts, (c) => count(c, 'count')),
    hiddenBySeverity: count(o.hiddenBySeverity, 'hiddenBySeverity'),
    findings: items(o.findings, 'findings', findingItem),
    findingsLeftOff: count(o.findingsLeftOff, 'findingsLeftOff'),
    multipleSessions: flag(o.multipleSessions, 'multipleSessions'),
    ...maybe('timeline', optional(o.timeline, timeline)),
    origin: num(o.origin, 'origin'),
    resolved: {
      for: str(r.for, 'for'),
      ...maybe(
        'findingKey',
        optional(r.findingKey, (s) => str(s, 'findingKey')),
      ),
      ...maybe('event', optional(r.event, eventRef)),
      ...maybe(
        'eventIndex',
        optional(r.eventIndex, (i) => count(i, 'eventIndex')),
      ),
      ...maybe(
        'connectionId',
        optional(r.connectionId, (s) => str(s, 'connectionId')),
      ),
      ...maybe(
        'time',
        optional(r.time, (x) => num(x, 'time')),
      ),
      position: integer(r.position, -1, MAX, 'position'),
    },
    rows: rowsWindow(o.rows),
  };
}

const segments = (v: unknown): TextSegment[] =>
  items(v, 'segments', (s) => ({ chunk: count(s.chunk, 'chunk'), text: str(s.text, 'text') }));

const json = (v: unknown): { value: unknown } | undefined => optional(v, (j) => ({ value: record(j, 'json').value }));

const headerList = (v: unknown) =>
  items(v, 'headers', (h) => ({ name: str(h.name, 'header name'), value: str(h.value, 'header value') }));

const ROLES = new Set<unknown>(['post', 'get', 'delete', 'legacy-sse', 'legacy-post', 'other']);
const TABS = new Set<unknown>(['headers', 'payload', 'tail']);

function detail(v: unknown): DetailData {
  const o = record(v, 'detail');
  const f = optional(o.finding, (x) => {
    const d = record(x, 'finding');
    return {
      key: str(d.key, 'key'),
      rule: str(d.rule, 'rule'),
      severity: severity(d.severity),
      message: str(d.message, 'message'),
      ...maybe(
        'byteOffset',
        optional(d.byteOffset, (b) => count(b, 'byteOffset')),
      ),
      target: target(d.target),
    };
  });
  const e = optional(o.event, (x) => {
    const d = record(x, 'event');
    const p = record(d.payload, 'payload');
    return {
      ref: eventRef(d.ref),
      type: str(d.type, 'type'),
      hasId: flag(d.hasId, 'hasId'),
      lastEventId: str(d.lastEventId, 'lastEventId'),
      streamId: str(d.streamId, 'streamId'),
      time: str(d.time, 'time'),
      ...maybe(
        'retry',
        optional(d.retry, (r) => count(r, 'retry')),
      ),
      ...maybe(
        'problem',
        optional(d.problem, (s) => str(s, 'problem')),
      ),
      empty: flag(d.empty, 'empty'),
      answers: items(d.answers, 'answers', (a) => ({
        text: str(a.text, 'text'),
        connectionId: str(a.connectionId, 'connectionId'),
      })),
      end: count(d.end, 'end'),
      payload: {
        bytes: count(p.bytes, 'bytes'),
        truncated: flag(p.truncated, 'truncated'),
        segments: segments(p.segments),
        ...maybe('json', json(p.json)),
      },
      spans: items(d.spans, 'spans', (s) => ({
        chunk: count(s.chunk, 'chunk'),
        start: count(s.start, 'start'),
        end: count(s.end, 'end'),
        t: num(s.t, 't'),
      })),
      spansLeftOff: count(d.spansLeftOff, 'spansLeftOff'),
      t0: num(d.t0, 't0'),
    };
  });
  const c = optional(o.connection, (x) => {
    const d = record(x, 'connection');
    if (!ROLES.has(d.role)) fail('role');
    if (!END_REASONS.has(d.end)) fail('end');
    const request = optional(d.request, (q) => {
      const r = record(q, 'request');
      return {
        ...maybe('json', json(r.json)),
        text: str(r.text, 'text'),
        truncated: flag(r.truncated, 'truncated'),
        bytes: count(r.bytes, 'bytes'),
      };
    });
    const tail = optional(d.tail, (q) => {
      const t = record(q, 'tail');
      return {
        bytes: count(t.bytes, 'bytes'),
        start: count(t.start, 'start'),
        hasData: flag(t.hasData, 'hasData'),
        ...maybe(
          'id',
          optional(t.id, (s) => str(s, 'id')),
        ),
        text: str(t.text, 'text'),
        truncated: flag(t.truncated, 'truncated'),
      };
    });
    return {
      id: str(d.id, 'id'),
      method: str(d.method, 'method'),
      url: str(d.url, 'url'),
      ...maybe(
        'status',
        optional(d.status, (s) => count(s, 'status')),
      ),
      ...maybe(
        'statusText',
        optional(d.statusText, (s) => str(s, 'statusText')),
      ),
      role: d.role as NonNullable<DetailData['connection']>['role'],
      ...maybe(
        'streamId',
        optional(d.streamId, (s) => str(s, 'streamId')),
      ),
      ...maybe(
        'lastEventIdSent',
        optional(d.lastEventIdSent, (s) => str(s, 'lastEventIdSent')),
      ),
      ...maybe(
        'resumes',
        optional(d.resumes, (s) => str(s, 'resumes')),
      ),
      started: str(d.started, 'started'),
      ...maybe(
        'lasted',
        optional(d.lasted, (s) => str(s, 'lasted')),
      ),
      end: d.end as NonNullable<DetailData['connection']>['end'],
      ...maybe(
        'error',
        optional(d.error, (s) => str(s, 'error')),
      ),
      bytes: count(d.bytes, 'bytes'),
      chunks: count(d.chunks, 'chunks'),
      events: count(d.events, 'events'),
      requestHeaders: headerList(d.requestHeaders),
      ...maybe('responseHeaders', optional(d.responseHeaders, headerList)),
      ...maybe('request', request),
      ...maybe('tail', tail),
      tabs: list(d.tabs, 3, 'tabs').map((t) => {
        if (!TABS.has(t)) fail('tab');
        return t as NonNullable<DetailData['connection']>['tabs'][number];
      }),
    };
  });
  return { for: str(o.for, 'for'), ...maybe('finding', f), ...maybe('event', e), ...maybe('connection', c) };
}

/** What the worker answers, or null. */
export function asWorkerToUi(raw: unknown): WorkerToUi | null {
  return decoding((): WorkerToUi | null => {
    const m = record(raw, 'message');
    switch (m.type) {
      case 'view':
        return { type: 'view', view: view(m.view) };
      case 'held':
        return { type: 'held', held: held(m.held) };
      case 'rows':
        return { type: 'rows', rows: rowsWindow(m.rows) };
      case 'detail':
        return { type: 'detail', detail: detail(m.detail) };
      case 'payload':
        return {
          type: 'payload',
          id: count(m.id, 'id'),
          event: eventRef(m.event),
          segments: segments(m.segments),
          ...maybe('json', json(m.json)),
        };
      case 'imported':
        return { type: 'imported', seq: seq(m.seq), name: str(m.name, 'name'), connections: count(m.connections, 'n') };
      case 'import-failed':
        return { type: 'import-failed', seq: seq(m.seq), name: str(m.name, 'name'), message: str(m.message, 'm') };
      case 'exported':
        if (!(m.blob instanceof Blob)) fail('blob');
        return { type: 'exported', id: count(m.id, 'id'), blob: m.blob };
      case 'failed':
        return {
          type: 'failed',
          ...maybe(
            'id',
            optional(m.id, (i) => count(i, 'id')),
          ),
          message: str(m.message, 'message'),
        };
      default:
        return null;
    }
  });
}
