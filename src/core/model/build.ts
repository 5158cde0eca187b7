// Runs anywhere (pure core): capture -> model (sessions, streams, connections, events). Deterministic, no clock.
import { DEFAULT_SILENCE, observedUntil, type SilenceThresholds } from './silence';
import type { Capture, ConnectionRecord } from '../capture/model';
import { parseId } from '../ids/scheme';
import { combineSchemes, parseConnection, type ParsedConnection } from './connection';
import { placeEvents, type Delivery, type PlacementMemory } from './events';
import { NO_EVENT_INDEXES } from './index-list';
import { noticesOf } from './notices';
import { otherStreamView } from './other-streams';
import { relayedRecords } from './relay-inspector';
import { retriedRounds } from './retries';
import { taskFollowUps } from './tasks';
import { reissuedRequests } from './reissues';
import { detectEra, groupSessions, type SessionGroup } from './sessions';
import type { ConnectionView, Model, SessionView, StreamView } from './types';
import type { IdScheme } from '../ids/scheme';

/** Parses records (given in start order) one to one; an analyzer passes one that remembers earlier results. */
export type ParseConnections = (records: readonly ConnectionRecord[]) => ParsedConnection[];

const parseEach: ParseConnections = (records) => records.map((record) => parseConnection(record));

/**
 * @param parse an analyzer's parse cache; parses every record when omitted.
 * @param placement an analyzer's memory of the last model's event order, continued where events were only appended.
 */
export function buildModel(
  capture: Capture,
  parse: ParseConnections = parseEach,
  placement?: PlacementMemory,
  silence: SilenceThresholds = DEFAULT_SILENCE,
): Model {
  // The exchanges a relay reported join the capture's own records; the relay's stream itself stays an other stream.
  const relay = relayedRecords(capture.connections);
  const records = relay.records.length > 0 ? [...capture.connections, ...relay.records] : capture.connections;
  const ordered = records
    .map((record, order) => ({ record, order }))
    .sort((a, b) => a.record.startTime - b.record.startTime || a.order - b.order)
    .map(({ record }) => record);
  // Shallow copies: grouping settles legacy roles on them, and parse results may be shared with other analyses.
  const parsed = parse(ordered).map((conn) => ({ ...conn }));
  const sessions: SessionView[] = [];
  const streams: StreamView[] = [];
  const connections: ConnectionView[] = [];
  const deliveries: Delivery[] = [];
  const { groups, others } = groupSessions(parsed);
  for (const group of groups) {
    let scheme: IdScheme = 'none';
    for (const conn of group.connections) scheme = combineSchemes(scheme, conn.idScheme);
    const session = buildSession(group, scheme, streams, connections, deliveries, relay.resumed);
    for (const view of connections.slice(connections.length - group.connections.length)) {
      const origin = relay.origins.get(view.id);
      if (origin === undefined) continue;
      view.relayed = origin;
      session.relayed = origin;
    }
    sessions.push(session);
  }
  const events = placeEvents(deliveries, connections, placement);
  let startTime = Number.POSITIVE_INFINITY;
  for (const record of capture.connections) startTime = Math.min(startTime, record.startTime);
  const otherStreams = others.map(otherStreamView);
  return {
    sessions,
    streams,
    connections,
    events,
    otherStreams,
    notices: noticesOf(connections),
    startTime: Number.isFinite(startTime) ? startTime : 0,
    observedUntil: observedUntil(capture),
    silence,
  };
}

function buildSession(
  group: SessionGroup,
  scheme: IdScheme,
  streams: StreamView[],
  connections: ConnectionView[],
  deliveries: Delivery[],
  /** Relayed resumption GETs and the POST each continues (see RelayedRecords.resumed), by record id. */
  relayResumes: ReadonlyMap<string, string> = new Map(),
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
  if (group.stateless) session.stateless = true;
  const probed = [...(group.probes ?? [])].find((c) => c.requestEra !== undefined && c.requestEra !== session.era);
  if (probed?.requestEra !== undefined) session.probedEra = probed.requestEra;
  /** The stream of each connection so far (group order), for resumptions to find the stream they resume. */
  const delivered: { conn: ParsedConnection; stream: StreamView }[] = [];
  const views: ConnectionView[] = [];
  for (const conn of group.connections) {
    const resumed = isResumptionGet(conn)
      ? (resumedStream(conn.lastEventIdSent as string, scheme, delivered) ??
        relayResumed(conn, delivered, relayResumes))
      : undefined;
    const stream = resumed ?? (conn.isSse ? newStream(conn, group, session, streams) : undefined);
    const view = connectionView(conn, group.key, stream);
    if (group.probes?.has(conn)) view.probe = true;
    views.push(view);
    connections.push(view);
    session.connectionIds.push(view.id);
    if (!stream) continue;
    stream.connectionIds.push(view.id);
    delivered.push({ conn, stream });
    deliveries.push({ conn, view, streamId: stream.id });
  }
  if (group.stateless)
    for (const [retry, round] of retriedRounds(group.connections)) {
      const [view, retried] = [views[retry], views[round]];
      if (view && retried) view.retryOf = retried.id;
    }
  if (group.stateless)
    for (const [reissue, lost] of reissuedRequests(group.connections)) {
      const [view, lostView] = [views[reissue], views[lost]];
      if (view && lostView) view.reissueOf = lostView.id;
    }
  for (const [followUp, creator] of taskFollowUps(group.connections)) {
    const [view, created] = [views[followUp], views[creator]];
    if (view && created) view.taskOf = created.id;
  }
  return session;
}

/**
 * The stream whose latest earlier connection delivered the cursor id, else (SDK-style ids) the stream whose
 * latest earlier connection delivered an id of the cursor's stream key. Scans back from the newest connection:
 * its last ids first, then all of its id column (numbers compared, no strings made: a set of 100k ids kept per
 * connection would cost more than its events' columns); a connection's stream keys are kept once per parse.
 */
function resumedStream(
  cursor: string,
  scheme: IdScheme,
  delivered: readonly { conn: ParsedConnection; stream: StreamView }[],
): StreamView | undefined {
  for (let i = delivered.length - 1; i >= 0; i--) {
    const { conn, stream } = delivered[i] as (typeof delivered)[number];
    if (deliveredLately(conn, cursor) || conn.finalLastEventId === cursor || conn.table.hasOwnId(cursor)) return stream;
  }
  const key = parseId(scheme, cursor).streamKey;
  if (key === undefined) return undefined;
  for (let i = delivered.length - 1; i >= 0; i--) {
    const { conn, stream } = delivered[i] as (typeof delivered)[number];
    if (sdkKeysOf(conn).has(key)) return stream;
  }
  return undefined;
}

/** A relayed resumption GET's stream: the one of the POST the relay decoder placed the rest of its answer after. */
function relayResumed(
  conn: ParsedConnection,
  delivered: readonly { conn: ParsedConnection; stream: StreamView }[],
  relayResumes: ReadonlyMap<string, string>,
): StreamView | undefined {
  const post = relayResumes.get(conn.record.id);
  return post === undefined ? undefined : delivered.find((d) => d.conn.record.id === post)?.stream;
}

/** A cursor is usually one of the last ids its connection delivered: look there before indexing them all. */
function deliveredLately(conn: ParsedConnection, cursor: string): boolean {
  const { table } = conn;
  for (let row = table.count - 1; row >= Math.max(0, table.count - 64); row--)
    if (table.hasId(row) && table.lastEventId(row) === cursor) return true;
  return false;
}

/** Only asked in an 'sdk-stream' session, where every id parses as one. */
function sdkKeysOf(conn: ParsedConnection): ReadonlySet<string> {
  if (!conn.lookup.sdkKeys) {
    const keys = new Set<string>();
    const { table } = conn;
    for (let row = 0; row < table.count; row++) {
      const key = table.hasId(row) ? parseId('sdk-stream', table.lastEventId(row)).streamKey : undefined;
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
    eventIndexes: NO_EVENT_INDEXES,
    bytes: conn.bytes,
    mcpEvidence: conn.evidence ?? '',
  };
  if (stream) {
    view.streamId = stream.id;
    const previous = stream.connectionIds.at(-1);
    if (previous !== undefined && conn.lastEventIdSent !== undefined) view.resumes = previous;
  }
  if (conn.requestEra !== undefined) view.requestEra = conn.requestEra;
  if (conn.lastEventIdSent !== undefined) view.lastEventIdSent = conn.lastEventIdSent;
  if (conn.tail) view.tail = conn.tail;
  const retryMs = lastRetry(conn);
  if (retryMs !== undefined) view.retryMs = retryMs;
  return view;
}

/** Retry values are rare rows of the event table: found without walking every event. */
function lastRetry(conn: ParsedConnection): number | undefined {
  if (conn.tail?.retry !== undefined) return conn.tail.retry;
  const { table } = conn;
  for (let k = table.rareRows.length - 1; k >= 0; k--) {
    const retry = table.rare[k]?.retry;
    if (retry !== undefined) return retry;
  }
  return undefined;
}
