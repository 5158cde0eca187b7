// Runs anywhere (pure core): capture -> model (sessions, streams, connections, events). Deterministic, no clock.
import type { Capture, ConnectionRecord } from '../capture/model';
import { parseId } from '../ids/scheme';
import { combineSchemes, parseConnection, type ParsedConnection, type ParsedEvent } from './connection';
import { detectEra, groupSessions, type SessionGroup } from './sessions';
import type { ConnectionView, EventView, Model, SessionView, StreamView } from './types';
import type { IdScheme } from '../ids/scheme';

/** Parses records (given in start order) one to one; an analyzer passes one that remembers earlier results. */
export type ParseConnections = (records: readonly ConnectionRecord[]) => ParsedConnection[];

const parseEach: ParseConnections = (records) => records.map(parseConnection);

export function buildModel(capture: Capture, parse: ParseConnections = parseEach): Model {
  const ordered = capture.connections
    .map((record, order) => ({ record, order }))
    .sort((a, b) => a.record.startTime - b.record.startTime || a.order - b.order)
    .map(({ record }) => record);
  // Shallow copies: grouping settles legacy roles on them, and parse results may be shared with other analyses.
  const parsed = parse(ordered).map((conn) => ({ ...conn }));
  const sessions: SessionView[] = [];
  const streams: StreamView[] = [];
  const connections: ConnectionView[] = [];
  const events: EventView[] = [];
  for (const group of groupSessions(parsed)) {
    let scheme: IdScheme = 'none';
    for (const conn of group.connections) scheme = combineSchemes(scheme, conn.idScheme);
    sessions.push(buildSession(group, scheme, streams, connections, events));
  }
  sortByTime(events);
  indexEvents(events, connections);
  let startTime = Number.POSITIVE_INFINITY;
  for (const record of capture.connections) startTime = Math.min(startTime, record.startTime);
  return { sessions, streams, connections, events, startTime: Number.isFinite(startTime) ? startTime : 0 };
}

/** Stable sort by time: events were pushed stream by stream, each already in time order, so this is mostly a check. */
function sortByTime(events: EventView[]): void {
  for (let i = 1; i < events.length; i++) {
    if ((events[i] as EventView).time < (events[i - 1] as EventView).time) {
      events.sort((a, b) => a.time - b.time);
      return;
    }
  }
}

function indexEvents(events: EventView[], connections: readonly ConnectionView[]): void {
  const byId = new Map(connections.map((c) => [c.id, c]));
  let owner: ConnectionView | undefined;
  for (let index = 0; index < events.length; index++) {
    const event = events[index] as EventView;
    event.index = index;
    if (owner?.id !== event.connectionId) owner = byId.get(event.connectionId);
    owner?.eventIndexes.push(index);
  }
}

function buildSession(
  group: SessionGroup,
  scheme: IdScheme,
  streams: StreamView[],
  connections: ConnectionView[],
  events: EventView[],
): SessionView {
  let startTime = Number.POSITIVE_INFINITY;
  let endTime = Number.NEGATIVE_INFINITY;
  for (const { record } of group.connections) {
    startTime = Math.min(startTime, record.startTime);
    endTime = Math.max(endTime, record.endTime ?? record.responseTime ?? record.startTime);
  }
  const session: SessionView = {
    key: group.key,
    origin: group.origin,
    endpoint: group.endpoint,
    era: detectEra(group),
    idScheme: scheme,
    streamIds: [],
    connectionIds: [],
    startTime,
    endTime,
  };
  if (group.sessionId !== undefined) session.sessionId = group.sessionId;
  /** The stream of each connection so far (group order), for resumptions to find the stream they resume. */
  const delivered: { conn: ParsedConnection; stream: StreamView }[] = [];
  for (const conn of group.connections) {
    const resumed = isResumptionGet(conn)
      ? resumedStream(conn.lastEventIdSent as string, scheme, delivered)
      : undefined;
    const stream = resumed ?? (conn.isSse ? newStream(conn, group, session, streams) : undefined);
    const view = connectionView(conn, group.key, stream);
    connections.push(view);
    session.connectionIds.push(view.id);
    if (!stream) continue;
    stream.connectionIds.push(view.id);
    delivered.push({ conn, stream });
    for (const parsed of conn.events) events.push(eventView(parsed, view.id, stream.id, group.key));
  }
  return session;
}

/**
 * The stream whose latest earlier connection delivered the cursor id, else (SDK-style ids) the stream whose
 * latest earlier connection delivered an id of the cursor's stream key. Scans back from the newest connection;
 * a connection's id sets are built once per parse and kept with it, so a live capture re-analysed again and
 * again does not rebuild them.
 */
function resumedStream(
  cursor: string,
  scheme: IdScheme,
  delivered: readonly { conn: ParsedConnection; stream: StreamView }[],
): StreamView | undefined {
  for (let i = delivered.length - 1; i >= 0; i--) {
    const { conn, stream } = delivered[i] as (typeof delivered)[number];
    if (deliveredLately(conn, cursor) || conn.finalLastEventId === cursor || idsOf(conn).has(cursor)) return stream;
  }
  const key = parseId(scheme, cursor).streamKey;
  if (key === undefined) return undefined;
  for (let i = delivered.length - 1; i >= 0; i--) {
    const { conn, stream } = delivered[i] as (typeof delivered)[number];
    if (sdkKeysOf(conn).has(key)) return stream;
  }
  return undefined;
}

/** A cursor is usually one of the last ids its connection delivered: look there before indexing them all. */
function deliveredLately(conn: ParsedConnection, cursor: string): boolean {
  const { events } = conn;
  for (let i = events.length - 1; i >= Math.max(0, events.length - 64); i--) {
    const { event } = events[i] as ParsedEvent;
    if (event.hasId && event.lastEventId === cursor) return true;
  }
  return false;
}

function idsOf(conn: ParsedConnection): ReadonlySet<string> {
  if (!conn.lookup.ids) {
    const ids = new Set<string>();
    for (const { event } of conn.events) if (event.hasId) ids.add(event.lastEventId);
    conn.lookup.ids = ids;
  }
  return conn.lookup.ids;
}

/** Only asked in an 'sdk-stream' session, where every id parses as one. */
function sdkKeysOf(conn: ParsedConnection): ReadonlySet<string> {
  if (!conn.lookup.sdkKeys) {
    const keys = new Set<string>();
    for (const { event } of conn.events) {
      const key = event.hasId ? parseId('sdk-stream', event.lastEventId).streamKey : undefined;
      if (key !== undefined) keys.add(key);
    }
    conn.lookup.sdkKeys = keys;
  }
  return conn.lookup.sdkKeys;
}

function isResumptionGet(conn: ParsedConnection): boolean {
  return conn.lastEventIdSent !== undefined && conn.role === 'get';
}

function newStream(
  conn: ParsedConnection,
  group: SessionGroup,
  session: SessionView,
  streams: StreamView[],
): StreamView {
  const kind: StreamView['kind'] =
    conn.role === 'legacy-sse' ? 'legacy' : conn.role === 'post' || conn.role === 'legacy-post' ? 'post' : 'get';
  const stream: StreamView = {
    id: `s${streams.length + 1}`,
    sessionKey: group.key,
    kind,
    connectionIds: [],
    requestIds: conn.requestMessages.flatMap((m) => (m.kind === 'request' && m.id !== undefined ? [m.id] : [])),
  };
  streams.push(stream);
  session.streamIds.push(stream.id);
  return stream;
}

function connectionView(conn: ParsedConnection, sessionKey: string, stream: StreamView | undefined): ConnectionView {
  const view: ConnectionView = {
    id: conn.record.id,
    record: conn.record,
    role: conn.role,
    sessionKey,
    isSse: conn.isSse,
    requestMessages: conn.requestMessages,
    responseMessages: conn.responseMessages,
    eventIndexes: [],
    bytes: conn.bytes,
  };
  if (stream) {
    view.streamId = stream.id;
    const previous = stream.connectionIds.at(-1);
    if (previous !== undefined && conn.lastEventIdSent !== undefined) view.resumes = previous;
  }
  if (conn.lastEventIdSent !== undefined) view.lastEventIdSent = conn.lastEventIdSent;
  if (conn.tail) view.tail = conn.tail;
  return view;
}

/** One object literal per shape (no spreads): 100k of these are built on every analysis. Index is set after sorting. */
function eventView(
  { event, time, messages, parseError }: ParsedEvent,
  connectionId: string,
  streamId: string,
  sessionKey: string,
): EventView {
  const { type, data, lastEventId, hasId, retry, start, end, firstChunk, lastChunk } = event;
  if (parseError === undefined) {
    return {
      type,
      data,
      lastEventId,
      hasId,
      retry,
      start,
      end,
      firstChunk,
      lastChunk,
      connectionId,
      streamId,
      sessionKey,
      time,
      messages,
      index: 0,
    };
  }
  return {
    type,
    data,
    lastEventId,
    hasId,
    retry,
    start,
    end,
    firstChunk,
    lastChunk,
    connectionId,
    streamId,
    sessionKey,
    time,
    messages,
    parseError,
    index: 0,
  };
}
