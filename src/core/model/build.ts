// Runs anywhere (pure core): capture -> model (sessions, streams, connections, events). Deterministic, no clock.
import type { Capture } from '../capture/model';
import { detectScheme, parseId } from '../ids/scheme';
import { parseMessages } from '../mcp/jsonrpc';
import { parseConnection, type ParsedConnection } from './connection';
import { detectEra, groupSessions, type SessionGroup } from './sessions';
import type { ConnectionView, EventView, IdScheme, Model, SessionView, StreamView } from './types';

interface PendingEvent {
  view: Omit<EventView, 'index'>;
  order: number;
}

export function buildModel(capture: Capture): Model {
  const parsed = capture.connections
    .map((record, order) => ({ record, order }))
    .sort((a, b) => a.record.startTime - b.record.startTime || a.order - b.order)
    .map(({ record }) => parseConnection(record));
  const groups = groupSessions(parsed);
  const sessions: SessionView[] = [];
  const streams: StreamView[] = [];
  const connections: ConnectionView[] = [];
  const pending: PendingEvent[] = [];
  for (const group of groups) {
    const scheme = detectScheme(group.connections.flatMap((c) => c.events.filter((e) => e.event.hasId).map((e) => e.event.lastEventId)));
    const session = buildSession(group, scheme, streams, connections, pending);
    sessions.push(session);
  }
  pending.sort((a, b) => a.view.time - b.view.time || a.order - b.order);
  const events: EventView[] = pending.map(({ view }, index) => ({ ...view, index }));
  const byId = new Map(connections.map((c) => [c.id, c]));
  for (const event of events) byId.get(event.connectionId)?.eventIndexes.push(event.index);
  const startTime = Math.min(...capture.connections.map((c) => c.startTime), Number.POSITIVE_INFINITY);
  return { sessions, streams, connections, events, startTime: Number.isFinite(startTime) ? startTime : 0 };
}

function buildSession(
  group: SessionGroup,
  scheme: IdScheme,
  streams: StreamView[],
  connections: ConnectionView[],
  pending: PendingEvent[],
): SessionView {
  const session: SessionView = {
    key: group.key,
    origin: group.origin,
    endpoint: group.endpoint,
    era: detectEra(group),
    idScheme: scheme,
    streamIds: [],
    connectionIds: [],
    startTime: Math.min(...group.connections.map((c) => c.record.startTime)),
    endTime: Math.max(...group.connections.map((c) => c.record.endTime ?? c.record.responseTime ?? c.record.startTime)),
  };
  if (group.sessionId !== undefined) session.sessionId = group.sessionId;
  const streamOfEventId = new Map<string, StreamView>();
  const streamOfSdkKey = new Map<string, StreamView>();
  for (const conn of group.connections) {
    const stream = streamFor(conn, group, session, scheme, streams, streamOfEventId, streamOfSdkKey);
    const view = connectionView(conn, group.key, stream);
    connections.push(view);
    session.connectionIds.push(view.id);
    if (stream) {
      stream.connectionIds.push(view.id);
      for (const { event, time } of conn.events) {
        if (event.hasId) {
          streamOfEventId.set(event.lastEventId, stream);
          const key = parseId(scheme, event.lastEventId).streamKey;
          if (key !== undefined) streamOfSdkKey.set(key, stream);
        }
        pending.push({ view: eventView(event, time, conn, stream, group.key), order: pending.length });
      }
    }
  }
  return session;
}

function streamFor(
  conn: ParsedConnection,
  group: SessionGroup,
  session: SessionView,
  scheme: IdScheme,
  streams: StreamView[],
  byEventId: ReadonlyMap<string, StreamView>,
  bySdkKey: ReadonlyMap<string, StreamView>,
): StreamView | undefined {
  if (conn.lastEventIdSent !== undefined && conn.role === 'get') {
    const cursor = conn.lastEventIdSent;
    const key = parseId(scheme, cursor).streamKey;
    const resumed = byEventId.get(cursor) ?? (key !== undefined ? bySdkKey.get(key) : undefined);
    if (resumed) return resumed;
  }
  if (!conn.isSse) return undefined;
  const kind: StreamView['kind'] = conn.role === 'legacy-sse' ? 'legacy' : conn.role === 'post' || conn.role === 'legacy-post' ? 'post' : 'get';
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

function eventView(
  event: ParsedConnection['events'][number]['event'],
  time: number,
  conn: ParsedConnection,
  stream: StreamView,
  sessionKey: string,
): Omit<EventView, 'index'> {
  const view: Omit<EventView, 'index'> = {
    ...event,
    connectionId: conn.record.id,
    streamId: stream.id,
    sessionKey,
    time,
    messages: [],
  };
  if (event.data === '') return view;
  const parsed = parseMessages(event.data);
  if (parsed.ok) view.messages = parsed.messages;
  else if (event.type === 'message') view.parseError = parsed.error;
  return view;
}
