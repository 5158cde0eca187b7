// Runs anywhere (pure core): indexes over a model that several rules share (computed once per model).
import { idKey } from '../mcp/jsonrpc';
import type { ConnectionView, EventView, Model, SessionView, StreamView } from '../model/types';
import type { JsonRpcId } from '../mcp/types';

export interface SessionFacts {
  session: SessionView;
  /** Connections in start order. */
  connections: ConnectionView[];
  /** Dispatched events in time order. */
  events: EventView[];
  /** Client request ids (POST bodies) -> the connection that sent them. */
  clientRequests: Map<string, ConnectionView>;
  /** Ids of responses the client POSTed (answers to server-to-client requests). */
  clientAnswers: Set<string>;
  /** Client request id -> epoch ms of the first response the server delivered for it. */
  answeredAt: Map<string, number>;
}

export interface Facts {
  sessions: SessionFacts[];
  connection: Map<string, ConnectionView>;
  stream: Map<string, StreamView>;
  /** Events of one connection, in order. */
  eventsOf(conn: ConnectionView): EventView[];
}

const cache = new WeakMap<Model, Facts>();

export function factsOf(model: Model): Facts {
  const cached = cache.get(model);
  if (cached) return cached;
  const connection = new Map(model.connections.map((c) => [c.id, c]));
  const stream = new Map(model.streams.map((s) => [s.id, s]));
  // One pass over the events, not one per session.
  const eventsBySession = new Map<string, EventView[]>();
  for (const session of model.sessions) eventsBySession.set(session.key, []);
  for (const event of model.events) eventsBySession.get(event.sessionKey)?.push(event);
  const sessions = model.sessions.map((session) => {
    const connections: ConnectionView[] = [];
    for (const id of session.connectionIds) {
      const conn = connection.get(id);
      if (conn) connections.push(conn);
    }
    const clientRequests = new Map<string, ConnectionView>();
    const clientAnswers = new Set<string>();
    for (const conn of connections) {
      // An answer POSTed into a refused session never reached the server.
      const delivered = conn.record.status === undefined || conn.record.status < 400;
      for (const message of conn.requestMessages) {
        if (message.id === undefined) continue;
        if (message.kind === 'request') clientRequests.set(idKey(message.id), conn);
        else if (delivered) clientAnswers.add(idKey(message.id));
      }
    }
    // Sessions sharing a key share one list (as filtering by key gave), each its own copy.
    const events = (eventsBySession.get(session.key) ?? []).slice();
    const answeredAt = new Map<string, number>();
    const answer = (id: JsonRpcId | undefined, time: number) => {
      if (id === undefined) return;
      const key = idKey(id);
      const earlier = answeredAt.get(key);
      if (earlier === undefined || earlier > time) answeredAt.set(key, time);
    };
    for (const event of events) {
      for (const message of event.messages)
        if (message.kind === 'response' || message.kind === 'error') answer(message.id, event.time);
    }
    for (const conn of connections) {
      const time = conn.record.endTime ?? conn.record.responseTime ?? conn.record.startTime;
      for (const message of conn.responseMessages)
        if (message.kind === 'response' || message.kind === 'error') answer(message.id, time);
    }
    return { session, connections, events, clientRequests, clientAnswers, answeredAt };
  });
  // Several rules ask for the same connection's events: collect them once per connection.
  const eventsOfConnection = new Map<ConnectionView, EventView[]>();
  const facts: Facts = {
    sessions,
    connection,
    stream,
    eventsOf: (conn) => {
      let events = eventsOfConnection.get(conn);
      if (!events) {
        events = [];
        for (const index of conn.eventIndexes) {
          const event = model.events[index];
          if (event) events.push(event);
        }
        eventsOfConnection.set(conn, events);
      }
      return events;
    },
  };
  cache.set(model, facts);
  return facts;
}

/** The first event of a connection that carried its own id. */
export function firstIdEvent(events: readonly EventView[]): EventView | undefined {
  return events.find((e) => e.hasId);
}

/** Where a finding about a connection points. */
export function at(conn: ConnectionView, extra: { eventId?: string; byteOffset?: number; time?: number } = {}) {
  const where: { sessionKey: string; connectionId: string; streamId?: string; time?: number } = {
    sessionKey: conn.sessionKey,
    connectionId: conn.id,
    time: extra.time ?? conn.record.responseTime ?? conn.record.startTime,
  };
  if (conn.streamId !== undefined) where.streamId = conn.streamId;
  return { ...where, ...extra };
}

export function describeId(id: JsonRpcId): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}

/** A resumption attempt: a GET that sent Last-Event-ID. */
export function isResumeAttempt(conn: ConnectionView): conn is ConnectionView & { lastEventIdSent: string } {
  return conn.lastEventIdSent !== undefined;
}

export function ok(conn: ConnectionView): boolean {
  const status = conn.record.status;
  return status !== undefined && status >= 200 && status < 300;
}

/** Each event whose id the session already delivered, with that first delivery (time order). */
export function* repeatedIds(events: readonly EventView[]): Generator<{ event: EventView; earlier: EventView }> {
  yield* idIndexOf(events).repeats;
}

/**
 * The first delivery of each event id in these events (time order). Memoized per list like repeatedIds: rules
 * that need "was this id seen before, and where first?" can share one map instead of building their own.
 */
export function firstDeliveries(events: readonly EventView[]): ReadonlyMap<string, EventView> {
  return idIndexOf(events).first;
}

interface IdIndex {
  /** The list length it was built for: a list that grew is indexed again. */
  length: number;
  first: Map<string, EventView>;
  repeats: { event: EventView; earlier: EventView }[];
}

/** Several rules walk the same session's ids: index them once per events list (a model's lists never change). */
const idIndexes = new WeakMap<readonly EventView[], IdIndex>();

function idIndexOf(events: readonly EventView[]): IdIndex {
  const cached = idIndexes.get(events);
  if (cached && cached.length === events.length) return cached;
  const first = new Map<string, EventView>();
  const repeats: IdIndex['repeats'] = [];
  for (const event of events) {
    if (!event.hasId) continue;
    const earlier = first.get(event.lastEventId);
    if (earlier) repeats.push({ event, earlier });
    else first.set(event.lastEventId, event);
  }
  const index = { length: events.length, first, repeats };
  idIndexes.set(events, index);
  return index;
}
