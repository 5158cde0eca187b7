// Panel (pure): timeline layout. Lanes are streams, rows inside a lane are its connections (the original, then
// each resumption), reconnect links join a cut connection to the one that resumed it. Times stay in epoch ms;
// the Timeline component maps them to pixels with a TimeWindow.
import type { BodyChunk, ConnectionRecord, EndReason } from '../../core/capture/model';
import type { ConnectionView, SessionView, StreamView } from '../../core/model/types';
import type { Severity } from '../../core/guard/types';
import { describeMessages, shortId } from './format';
import { findingKey, type PanelView } from './model';
import { quietStretches, type QuietStretch } from './quiet';
import { createTickMemory, type TickMemory } from './ticks';

export const ROW_HEIGHT = 20;
export const GROUP_HEADER_HEIGHT = 18;
export const LANE_GAP = 5;
/** A row resumed from another carries a band under its bar for the reconnect link's Last-Event-ID label, so the
 * label never shares pixels with bars or finding markers (which sit above the bar). */
export const LINK_LABEL_BAND = 12;

export interface TimelineRow {
  connectionId: string;
  laneIndex: number;
  /** Top of the row in px, and its height: ROW_HEIGHT, plus LINK_LABEL_BAND on a row a reconnect link points to. */
  y: number;
  height: number;
  label: string;
  /** Epoch ms. `end` is the capture's end for a connection still open. */
  start: number;
  end: number;
  endReason: EndReason;
  status?: number;
  /** When the response head arrived (the bar is lighter before it, as the Network panel's waiting time). */
  responseTime?: number;
  /** A connection that ended holding an undispatched event: when those bytes began arriving, and how many. */
  torn?: { from: number; bytes: number };
  /** A stream's spans with no byte, long enough to draw (quiet.ts); absent on rows that carry no stream. */
  quiet?: QuietStretch[];
  /**
   * Event times (epoch ms, ascending), their event indexes and byte offsets (an event's identity with the
   * connection id). Typed arrays: a 100k-event lane crosses from the worker as three buffers, not 300k numbers.
   */
  ticks: Float64Array;
  tickEvents: Int32Array;
  tickStarts: Float64Array;
  /** The ticks' series (see ticks.ts): a row of the same series later holds these ticks and more. */
  tickSeries: number;
}

export interface TimelineLane {
  key: string;
  sessionKey: string;
  label: string;
  y: number;
  height: number;
}

export interface TimelineGroup {
  sessionKey: string;
  label: string;
  y: number;
}

/**
 * What a link says: a resumption by Last-Event-ID (absent), or one logical request across connections
 * (2026-07-28): a multi round-trip retry with requestState, a lost request re-issued, a task follow-up.
 */
export type LinkKind = 'retry' | 'reissue' | 'task';

export interface ReconnectLink {
  fromRow: number;
  toRow: number;
  kind?: LinkKind;
  /** When the resumed connection ended and when the resuming one started (epoch ms). */
  fromTime: number;
  toTime: number;
  lastEventId?: string;
}

export interface FindingMarker {
  findingIndex: number;
  /** The finding's identity (findingKey), what a click selects. */
  key: string;
  rowIndex: number;
  time: number;
  severity: Severity;
}

/** Where a fault of the Break menu struck a connection: on its row, at the moment it did. */
export interface FaultMarker {
  rowIndex: number;
  time: number;
  fault: string;
  note: string;
}

/** A hole in a connection's recording (a capture gap): on its row, from the first missing byte to the next kept. */
export interface GapMarker {
  rowIndex: number;
  from: number;
  to: number;
  bytes: number;
  offset: number;
  cause: string;
}

export interface TimelineLayout {
  /** Extent of everything shown (epoch ms). */
  start: number;
  end: number;
  groups: TimelineGroup[];
  lanes: TimelineLane[];
  rows: TimelineRow[];
  links: ReconnectLink[];
  markers: FindingMarker[];
  faults: FaultMarker[];
  gaps: GapMarker[];
  height: number;
}

/** The latest moment any record of the capture reached: the right edge for connections still open. */
export function captureEnd(connections: readonly ConnectionRecord[]): number {
  let end = -Infinity;
  for (const c of connections) {
    end = Math.max(end, c.startTime, c.responseTime ?? -Infinity, c.endTime ?? -Infinity);
    const last = c.chunks[c.chunks.length - 1];
    if (last) end = Math.max(end, last.t);
  }
  return end;
}

/** Arrival time of the chunk holding body byte `offset` (the last chunk's time past the end). */
export function chunkTimeAt(record: ConnectionRecord, offset: number): number | undefined {
  let position = 0;
  for (const chunk of record.chunks) {
    position += chunk.bytes.length;
    if (offset < position) return chunk.t;
  }
  return record.chunks[record.chunks.length - 1]?.t;
}

export function laneLabel(stream: StreamView, first: ConnectionView | undefined): string {
  if (stream.kind === 'get') return 'GET stream';
  if (stream.kind === 'legacy') return 'GET /sse (2024-11-05)';
  const requests = first ? first.requestMessages.filter((m) => m.kind === 'request') : [];
  const what = describeMessages(requests);
  // A 2026-07-28 listen stream stays open for the client's whole life: say so, it is no request left hanging.
  if (requests.length === 1 && requests[0]?.method === 'subscriptions/listen') return `listen (long-lived) ${what}`;
  return what ? `POST ${what}` : 'POST';
}

/** A group header: the session id, or "stateless" for a 2026-07-28 group (no session id is expected there). */
export function sessionLabel(session: SessionView): string {
  const name = session.stateless ? 'stateless' : shortId(session.sessionId ?? session.key, 8);
  return `${name}  ${session.era}`;
}

/** The connection this one continues, and how: a resumption first, then the 2026-07-28 links. */
function linkedFrom(connection: ConnectionView): { from: string; kind?: LinkKind } | undefined {
  if (connection.resumes !== undefined) return { from: connection.resumes };
  if (connection.retryOf !== undefined) return { from: connection.retryOf, kind: 'retry' };
  if (connection.reissueOf !== undefined) return { from: connection.reissueOf, kind: 'reissue' };
  if (connection.taskOf !== undefined) return { from: connection.taskOf, kind: 'task' };
  return undefined;
}

function rowLabel(connection: ConnectionView, isFirstInLane: boolean, laneName: string): string {
  if (isFirstInLane) return laneName;
  if (connection.resumes !== undefined || connection.lastEventIdSent !== undefined)
    return `${connection.record.method} resume`;
  return `${connection.record.method} ${describeMessages(connection.requestMessages)}`.trim();
}

export function layoutTimeline(
  view: PanelView,
  sessionKey: string | undefined,
  findingIndexes: readonly number[],
  end: number,
  /** Ticks kept from the last layout (the worker's deriver keeps one); without it every row's are read anew. */
  memory: TickMemory = createTickMemory(),
  /** Connections a request still waits on (their silence runs to now): drawn as a hang in the making. */
  waitingOn: ReadonlySet<string> = new Set(),
): TimelineLayout {
  const { analysis, connectionsById } = view;
  const sessions = analysis.sessions.filter((s) => sessionKey === undefined || s.key === sessionKey);
  const showGroups = sessionKey === undefined && sessions.length > 1;
  const groups: TimelineGroup[] = [];
  const lanes: TimelineLane[] = [];
  const rows: TimelineRow[] = [];
  const rowByConnection = new Map<string, number>();
  const shown = new Set(sessions.flatMap((s) => s.connectionIds));
  let y = 0;
  let start = Infinity;

  const addRow = (connection: ConnectionView, laneIndex: number, label: string) => {
    const record = connection.record;
    const linked = linkedFrom(connection);
    const resumed = linked !== undefined && shown.has(linked.from);
    const height = ROW_HEIGHT + (resumed ? LINK_LABEL_BAND : 0);
    const rowEnd = record.endTime ?? end;
    const { ticks, tickEvents, tickStarts, tickSeries } = memory.of(analysis.events, connection);
    const tail = connection.tail;
    const tornFrom =
      tail && record.end !== 'open' && tail.bytes.length > 0 ? chunkTimeAt(record, tail.start) : undefined;
    const quiet = connection.streamId !== undefined ? quietStretches(record, end, waitingOn.has(connection.id)) : [];
    rowByConnection.set(connection.id, rows.length);
    rows.push({
      connectionId: connection.id,
      laneIndex,
      y,
      height,
      label,
      start: record.startTime,
      end: Math.max(rowEnd, record.startTime),
      endReason: record.end,
      ...(record.status !== undefined ? { status: record.status } : {}),
      ...(record.responseTime !== undefined ? { responseTime: record.responseTime } : {}),
      ...(tail && tornFrom !== undefined ? { torn: { from: tornFrom, bytes: tail.bytes.length } } : {}),
      ...(quiet.length > 0 ? { quiet } : {}),
      ticks,
      tickEvents,
      tickStarts,
      tickSeries,
    });
    start = Math.min(start, record.startTime);
    y += height;
  };

  for (const session of sessions) {
    if (showGroups) {
      groups.push({
        sessionKey: session.key,
        label: sessionLabel(session),
        y,
      });
      y += GROUP_HEADER_HEIGHT;
    }
    // A connection that carries no stream but resumed one (a refused resume) sits in the lane it tried to resume.
    const extraByStream = new Map<string, ConnectionView[]>();
    const loose: ConnectionView[] = [];
    for (const id of session.connectionIds) {
      const c = connectionsById.get(id);
      if (!c || c.streamId !== undefined) continue;
      const resumedStream = c.resumes !== undefined ? connectionsById.get(c.resumes)?.streamId : undefined;
      if (resumedStream !== undefined)
        extraByStream.set(resumedStream, [...(extraByStream.get(resumedStream) ?? []), c]);
      else loose.push(c);
    }
    for (const streamId of session.streamIds) {
      const stream = view.streamsById.get(streamId);
      if (!stream) continue;
      const members = [
        ...stream.connectionIds.map((id) => connectionsById.get(id)),
        ...(extraByStream.get(streamId) ?? []),
      ]
        .filter((c): c is ConnectionView => c !== undefined)
        .sort((a, b) => a.record.startTime - b.record.startTime);
      const name = laneLabel(stream, members[0]);
      const laneIndex = lanes.length;
      const laneY = y;
      members.forEach((c, i) => addRow(c, laneIndex, rowLabel(c, i === 0, name)));
      lanes.push({ key: stream.id, sessionKey: session.key, label: name, y: laneY, height: y - laneY });
      y += LANE_GAP;
    }
    if (loose.length > 0) {
      const laneIndex = lanes.length;
      const laneY = y;
      for (const c of loose.sort((a, b) => a.record.startTime - b.record.startTime)) {
        addRow(c, laneIndex, `${c.record.method} ${describeMessages(c.requestMessages)}`.trim());
      }
      lanes.push({ key: `${session.key}#http`, sessionKey: session.key, label: 'HTTP', y: laneY, height: y - laneY });
      y += LANE_GAP;
    }
  }

  const links: ReconnectLink[] = [];
  rows.forEach((row, toRow) => {
    const connection = connectionsById.get(row.connectionId);
    const linked = connection ? linkedFrom(connection) : undefined;
    if (!connection || !linked) return;
    const fromRow = rowByConnection.get(linked.from);
    const from = fromRow !== undefined ? rows[fromRow] : undefined;
    if (fromRow === undefined || !from) return;
    links.push({
      fromRow,
      toRow,
      ...(linked.kind !== undefined ? { kind: linked.kind } : {}),
      fromTime: from.end,
      toTime: row.start,
      ...(linked.kind === undefined && connection.lastEventIdSent !== undefined
        ? { lastEventId: connection.lastEventIdSent }
        : {}),
    });
  });

  const markers: FindingMarker[] = [];
  for (const findingIndex of findingIndexes) {
    const target = view.findingTargets[findingIndex];
    const finding = analysis.findings[findingIndex];
    if (!target || !finding || target.connectionId === undefined || target.time === undefined) continue;
    const rowIndex = rowByConnection.get(target.connectionId);
    if (rowIndex === undefined) continue;
    markers.push({ findingIndex, key: findingKey(finding), rowIndex, time: target.time, severity: finding.severity });
  }

  const faults: FaultMarker[] = [];
  rows.forEach((row, rowIndex) => {
    for (const mark of connectionsById.get(row.connectionId)?.record.faults ?? [])
      faults.push({ rowIndex, time: mark.t, fault: mark.fault, note: mark.note });
  });

  const gaps: GapMarker[] = [];
  rows.forEach((row, rowIndex) => {
    const record = connectionsById.get(row.connectionId)?.record;
    if (record?.gaps) gaps.push(...gapMarkers(record, rowIndex));
  });

  if (!Number.isFinite(start)) start = end;
  return { start, end: Math.max(end, start), groups, lanes, rows, links, markers, faults, gaps, height: y };
}

/** The identity of the event behind tick `eventIndex`, from the row that draws it. */
export function tickEvent(
  layout: TimelineLayout,
  eventIndex: number,
): { connectionId: string; start: number } | undefined {
  for (const row of layout.rows) {
    const i = row.tickEvents.indexOf(eventIndex);
    if (i >= 0) return { connectionId: row.connectionId, start: row.tickStarts[i] as number };
  }
  return undefined;
}

/** Each gap of a record from its first missing byte's time to the next chunk kept after it (or the record's end). */
function gapMarkers(record: ConnectionRecord, rowIndex: number): GapMarker[] {
  const out: GapMarker[] = [];
  let k = 0;
  let recorded = 0;
  let missing = 0;
  for (const gap of record.gaps ?? []) {
    const at = gap.offset - missing;
    while (k < record.chunks.length && recorded < at) recorded += (record.chunks[k++] as BodyChunk).bytes.byteLength;
    const after = record.chunks[k]?.t ?? record.endTime ?? gap.t;
    out.push({
      rowIndex,
      from: gap.t,
      to: Math.max(after, gap.t),
      bytes: gap.bytes,
      offset: gap.offset,
      cause: gap.cause,
    });
    missing += gap.bytes;
  }
  return out;
}
