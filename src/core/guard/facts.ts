// Runs anywhere (pure core): indexes over a model that several rules share (computed once per model).
import type { IdScheme } from '../ids/scheme';
import { idKey } from '../mcp/jsonrpc';
import type { ConnectionView, EventView, Model, SessionView, StreamView } from '../model/types';
import type { JsonRpcId } from '../mcp/types';
import { ConnectionSummary, EpochStarts, ParseErrors } from './connection-events';
import { byConnection, ByKey, bySession, EventLog, IndexKind } from './event-log';
import { IdIndex } from './id-index';
import { Sequences, type Jump } from './jumps';
import { MessageIndex } from './message-index';
import { SeenNumbers } from './seen-numbers';

export interface SessionFacts {
  session: SessionView;
  /** Connections in start order. */
  connections: ConnectionView[];
  /** Client request ids (POST bodies) -> the connection that sent them. */
  clientRequests: Map<string, ConnectionView>;
  /** Ids of responses the client POSTed (answers to server-to-client requests). */
  clientAnswers: Set<string>;
  /** The capture holds the session's `initialize` request: it saw the session from its start. */
  initialized: boolean;
  /** Client request id -> epoch ms of the first response the server delivered for it. */
  answeredAt: Map<string, number>;
  /**
   * Some response of the session is missing from the file (a DevTools- or Playwright-style HAR drops the bodies of
   * cut and aborted streams): an answer may have been there, so the rules that judge what never arrived say nothing.
   */
  bodiesMissing: boolean;
  /** The session's event ids: first deliveries, repeats, priming ids. */
  ids: IdIndex;
  /** The session's events that carried answers or server requests, and the server's cancellations. */
  messages: MessageIndex;
  /** Sequence numbers the session's events delivered under `scheme`. */
  seen(scheme: IdScheme): SeenNumbers;
}

export interface Facts {
  sessions: SessionFacts[];
  connection: Map<string, ConnectionView>;
  stream: Map<string, StreamView>;
  /** Events whose data is not one JSON-RPC message, in time order. */
  parseErrors: readonly EventView[];
  /** The first event of a connection (in order) that passes `test`. */
  findEvent(conn: ConnectionView, test: (event: EventView) => boolean): EventView | undefined;
  /** A connection's first event that carried an id, and its first `error` event. */
  summaryOf(conn: ConnectionView): ConnectionSummary;
  /** Where the connection's ids under `scheme` jump over numbers (the only places a gap can show). */
  jumpsOf(conn: ConnectionView, scheme: IdScheme): readonly Jump[];
  /** The connection's first event of each epoch:seq epoch. */
  epochsOf(conn: ConnectionView): EpochStarts;
  /** Sequence numbers all sessions' events delivered under `scheme` (a counter shared by sessions). */
  seenInModel(scheme: IdScheme): SeenNumbers;
}

function perScheme<T>(make: (scheme: IdScheme) => T): Readonly<Record<IdScheme, T>> {
  return {
    integer: make('integer'),
    'epoch-seq': make('epoch-seq'),
    'sdk-stream': make('sdk-stream'),
    opaque: make('opaque'),
    none: make('none'),
  };
}

const SESSION_IDS = new IndexKind((log) => new ByKey(bySession, () => new IdIndex(log)));
const SESSION_MESSAGES = new IndexKind((log) => new ByKey(bySession, () => new MessageIndex(log)));
const MODEL_SEEN = perScheme((s) => new IndexKind(() => new SeenNumbers(s)));
const CONNECTION_SUMMARY = new IndexKind((log) => new ByKey(byConnection, () => new ConnectionSummary(log)));
const SEQUENCES = perScheme((s) => new IndexKind((log) => new Sequences(s, log)));
const CONNECTION_EPOCHS = new IndexKind((log) => new ByKey(byConnection, () => new EpochStarts(log)));
const PARSE_ERRORS = new IndexKind((log) => new ParseErrors(log));

/**
 * An analyzer's event log, kept between analyses of a growing capture: the facts of the next model build their
 * event indexes from the events that arrived since, when the model's events continue the last model's.
 */
export class FactsMemory {
  private log = new EventLog();

  logOf(model: Model): EventLog {
    if (!this.log.continueWith(model.events)) {
      this.log = new EventLog();
      this.log.continueWith(model.events);
    }
    return this.log;
  }
}

const cache = new WeakMap<Model, Facts>();

export function factsOf(model: Model): Facts {
  const cached = cache.get(model);
  if (cached) return cached;
  const log = new EventLog();
  log.continueWith(model.events);
  const facts = buildFacts(model, log);
  cache.set(model, facts);
  return facts;
}

/**
 * Calls `run` while factsOf(model) gives facts built on `memory`'s log. They are forgotten afterwards: the log
 * moves on with the next analysis, and facts asked for this model later must not see its newer events.
 */
export function withFacts<T>(model: Model, memory: FactsMemory, run: () => T): T {
  const before = cache.get(model);
  cache.set(model, buildFacts(model, memory.logOf(model)));
  try {
    return run();
  } finally {
    if (before) cache.set(model, before);
    else cache.delete(model);
  }
}

function buildFacts(model: Model, log: EventLog): Facts {
  const connection = new Map(model.connections.map((c) => [c.id, c]));
  const stream = new Map(model.streams.map((s) => [s.id, s]));
  const sessions = model.sessions.map((session) => sessionFacts(session, connection, log));
  // A connection's events are those of its id; a second view under the same id (a capture that reuses ids)
  // gets none, as the model gives the id's events to the last view.
  const owns = (conn: ConnectionView) => connection.get(conn.id) === conn;
  const none = new ConnectionSummary();
  return {
    sessions,
    connection,
    stream,
    parseErrors: PARSE_ERRORS.of(log).events,
    findEvent: (conn, test) => {
      for (const index of conn.eventIndexes) {
        const event = model.events.at(index);
        if (event && test(event)) return event;
      }
      return undefined;
    },
    summaryOf: (conn) => (owns(conn) ? CONNECTION_SUMMARY.of(log).get(conn.id) : none),
    jumpsOf: (conn, scheme) => (owns(conn) ? SEQUENCES[scheme].of(log).jumpsOf(conn.id) : []),
    epochsOf: (conn) => (owns(conn) ? CONNECTION_EPOCHS.of(log).get(conn.id) : new EpochStarts()),
    seenInModel: (scheme) => MODEL_SEEN[scheme].of(log),
  };
}

function sessionFacts(session: SessionView, connection: ReadonlyMap<string, ConnectionView>, log: EventLog) {
  const connections: ConnectionView[] = [];
  for (const id of session.connectionIds) {
    const conn = connection.get(id);
    if (conn) connections.push(conn);
  }
  const clientRequests = new Map<string, ConnectionView>();
  const clientAnswers = new Set<string>();
  let initialized = false;
  for (const conn of connections) {
    // An answer POSTed into a refused session never reached the server.
    const delivered = conn.record.status === undefined || conn.record.status < 400;
    for (const message of conn.requestMessages) {
      if (message.id === undefined) continue;
      if (message.kind === 'request') {
        clientRequests.set(idKey(message.id), conn);
        if (message.method === 'initialize') initialized = true;
      } else if (delivered) clientAnswers.add(idKey(message.id));
    }
  }
  const messages = SESSION_MESSAGES.of(log).get(session.key);
  // The events' answers, then JSON bodies' (a copy: the index keeps growing with the next analysis).
  const answeredAt = new Map(messages.answeredAt);
  const answer = (id: JsonRpcId | undefined, time: number) => {
    if (id === undefined) return;
    const key = idKey(id);
    const earlier = answeredAt.get(key);
    if (earlier === undefined || earlier > time) answeredAt.set(key, time);
  };
  for (const conn of connections) {
    const time = conn.record.endTime ?? conn.record.responseTime ?? conn.record.startTime;
    for (const message of conn.responseMessages)
      if (message.kind === 'response' || message.kind === 'error') answer(message.id, time);
  }
  const facts: SessionFacts = {
    session,
    connections,
    clientRequests,
    clientAnswers,
    initialized,
    answeredAt,
    // A capture gap hides bytes as a dropped HAR body does: an answer may have been in it.
    bodiesMissing: connections.some((c) => c.record.bodyMissing === true || (c.record.gaps?.length ?? 0) > 0),
    ids: SESSION_IDS.of(log).get(session.key),
    messages,
    seen: (scheme) => SEQUENCES[scheme].of(log).seenIn(session.key),
  };
  return facts;
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
