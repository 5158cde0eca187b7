// Runs anywhere (pure): the decoder of what the analysis worker answers the UI thread (messages.ts, WorkerToUi).
// The worker is the panel's own code, but a bug there must not become a crash or a wrong figure here: each
// message is rebuilt from checked fields. Texts are checked to be strings (they become text children); a JSON value
// for the tree stays unknown (JsonTree renders any value); the timeline's arrays must be the typed arrays it draws.
import type { OtherStreamKind } from '../../core/model/types';
import { decoding, fail, flag, integer, record } from '../../protocol/decode-fields';
import type { QuietStretch } from '../view/quiet';
import type { TimelineWire } from '../view/tick-wire';
import type { LinkKind, TimelineLayout } from '../view/timeline';
import type { WireSignature } from '../view/wireSignature';
import { detail, json, segments } from './decode-detail';
import {
  END_REASONS,
  MAX,
  count,
  eventRef,
  items,
  maybe,
  num,
  optional,
  seq,
  severity,
  severityRecord,
  str,
  strs,
  target,
  type Fields,
} from './decode-shared';
import type {
  ChipData,
  EventRowData,
  FaultLinkData,
  FindingItem,
  HeldSummary,
  OtherStreamRowData,
  RowsWindow,
  SessionRowData,
  ViewWire,
  WorkerToUi,
} from './messages';

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
    gapBytes: gapBytes(o.gapBytes),
    budget: budget(o.budget),
  };
}

function budget(v: unknown): HeldSummary['budget'] {
  const o = record(v, 'budget');
  return {
    heldBytes: count(o.heldBytes, 'heldBytes'),
    limitBytes: count(o.limitBytes, 'limitBytes'),
    limitConnections: count(o.limitConnections, 'limitConnections'),
    droppedConnections: count(o.droppedConnections, 'droppedConnections'),
    droppedBytes: count(o.droppedBytes, 'droppedBytes'),
    gappedConnections: count(o.gappedConnections, 'gappedConnections'),
  };
}

function gapBytes(v: unknown): HeldSummary['gapBytes'] {
  const o = record(v, 'gapBytes');
  return {
    evicted: count(o.evicted, 'evicted'),
    unacknowledged: count(o.unacknowledged, 'unacknowledged'),
    'panel-budget': count(o['panel-budget'], 'panel-budget'),
  };
}

function statelessFlag(v: unknown): true {
  if (v !== true) fail('stateless');
  return true;
}

const sessionRow = (o: Fields): SessionRowData => ({
  key: str(o.key, 'key'),
  ...maybe(
    'sessionId',
    optional(o.sessionId, (s) => str(s, 'sessionId')),
  ),
  ...(o.stateless === undefined ? {} : { stateless: statelessFlag(o.stateless) }),
  ...maybe(
    'relayed',
    optional(o.relayed, (s) => str(s, 'relayed')),
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
  ...maybe(
    'reconnect',
    optional(o.reconnect, (s) => str(s, 'reconnect')),
  ),
});

const OTHER_KINDS = new Set<unknown>([
  'openai-chat',
  'anthropic-messages',
  'mcp-inspector',
] satisfies OtherStreamKind[]);

const LINK_KINDS: ReadonlySet<unknown> = new Set<LinkKind>(['retry', 'reissue', 'task']);

function linkKind(v: unknown): LinkKind {
  if (!LINK_KINDS.has(v)) fail('kind');
  return v as LinkKind;
}

function otherKind(v: unknown): OtherStreamKind {
  if (!OTHER_KINDS.has(v)) fail('kind');
  return v as OtherStreamKind;
}

const otherStream = (o: Fields): OtherStreamRowData => ({
  connectionId: str(o.connectionId, 'connectionId'),
  method: str(o.method, 'method'),
  url: str(o.url, 'url'),
  ...maybe(
    'status',
    optional(o.status, (s) => count(s, 'status')),
  ),
  events: count(o.events, 'events'),
  bytes: count(o.bytes, 'bytes'),
  ...maybe('kind', optional(o.kind, otherKind)),
  reason: str(o.reason, 'reason'),
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
  ...maybe('fault', optional(o.fault, faultLink)),
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

/** The layout is drawn as given; its numbers are checked to be numbers and its rows to hold typed arrays. */
function timeline(v: unknown): TimelineWire {
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
        ...maybe(
          'quiet',
          optional(r.quiet, (q) => items(q, 'quiet', quietStretch)),
        ),
        ticks: typed(r.ticks, Float64Array, 'ticks'),
        tickEvents: typed(r.tickEvents, Int32Array, 'tickEvents'),
        tickStarts: typed(r.tickStarts, Float64Array, 'tickStarts'),
        tickSeries: num(r.tickSeries, 'tickSeries'),
        ticksFrom: count(r.ticksFrom, 'ticksFrom'),
      };
    }),
    links: items(o.links, 'links', (l) => ({
      fromRow: count(l.fromRow, 'fromRow'),
      toRow: count(l.toRow, 'toRow'),
      ...maybe('kind', optional(l.kind, linkKind)),
      fromTime: num(l.fromTime, 'fromTime'),
      toTime: num(l.toTime, 'toTime'),
      ...maybe(
        'lastEventId',
        optional(l.lastEventId, (s) => str(s, 'lastEventId')),
      ),
    })),
    faults: items(o.faults, 'faults', (f) => ({
      rowIndex: count(f.rowIndex, 'rowIndex'),
      time: num(f.time, 'time'),
      fault: str(f.fault, 'fault'),
      note: str(f.note, 'note'),
    })),
    gaps: items(o.gaps, 'gaps', (g) => ({
      rowIndex: count(g.rowIndex, 'rowIndex'),
      from: num(g.from, 'from'),
      to: num(g.to, 'to'),
      bytes: count(g.bytes, 'bytes'),
      offset: count(g.offset, 'offset'),
      cause: str(g.cause, 'cause'),
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

function quietStretch(q: Record<string, unknown>): QuietStretch {
  if (q.waiting !== undefined && q.waiting !== true) fail('waiting');
  return { from: num(q.from, 'from'), to: num(q.to, 'to'), ...(q.waiting === true ? { waiting: true as const } : {}) };
}

function faultLink(value: unknown): FaultLinkData {
  const f = record(value, 'fault');
  return { fault: str(f.fault, 'fault'), note: str(f.note, 'note'), connectionId: str(f.connectionId, 'connectionId') };
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
    waiting: items(o.waiting, 'waiting', (w) => ({
      connectionId: str(w.connectionId, 'connectionId'),
      label: str(w.label, 'label'),
      waitedMs: num(w.waitedMs, 'waitedMs'),
      quietMs: num(w.quietMs, 'quietMs'),
      silentMs: num(w.silentMs, 'silentMs'),
    })),
    multipleSessions: flag(o.multipleSessions, 'multipleSessions'),
    faults: items(o.faults, 'faults', (f) => ({
      ...faultLink(f),
      arm: str(f.arm, 'arm'),
      action: str(f.action, 'action'),
      time: str(f.time, 'time'),
    })),
    otherStreams: items(o.otherStreams, 'otherStreams', otherStream),
    otherStreamsLeftOff: count(o.otherStreamsLeftOff, 'otherStreamsLeftOff'),
    notices: items(o.notices, 'notices', (n) => ({ kind: str(n.kind, 'kind'), message: str(n.message, 'message') })),
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
      case 'import-progress':
        return {
          type: 'import-progress',
          seq: seq(m.seq),
          name: str(m.name, 'name'),
          bytes: count(m.bytes, 'bytes'),
          total: count(m.total, 'total'),
        };
      case 'import-cancelled':
        return { type: 'import-cancelled', seq: seq(m.seq), name: str(m.name, 'name') };
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
