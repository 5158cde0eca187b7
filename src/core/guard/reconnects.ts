// Runs anywhere (pure core): each end of an SSE connection that asked the client to reconnect, and what the client
// did next. The reconnect rules and the client's reconnect behaviour (the panel's session header) read it.
import { idKey } from '../mcp/jsonrpc';
import type { JsonRpcId } from '../mcp/types';
import type { ConnectionView, Model, StreamView } from '../model/types';
import { cancelledRequests } from './cancelled';
import { factsOf, ok, type Facts, type SessionFacts } from './facts';

/** A connection end after which a client that follows the spec reconnects (resumes, or reopens its GET stream). */
export interface StreamEnd {
  conn: ConnectionView;
  stream: StreamView;
  /** Epoch ms when the body ended. */
  endedAt: number;
  /** The server closed it cleanly (no torn event); otherwise it broke. */
  closed: boolean;
  /** The last event id the connection delivered: what a resume would send. */
  lastId?: string;
  /** Requests of a POST stream still unanswered when it ended. */
  waiting: JsonRpcId[];
  /** The client cancelled a waiting request, at any time (notifications/cancelled). */
  cancelled: boolean;
  /** The `retry:` in effect: the latest of this stream up to the end, else the session's. */
  retryMs?: number;
  /** The connection that reconnected: the stream's next one, or for a GET stream the session's next GET. */
  next?: ConnectionView;
  /** The capture goes on well after the end (later traffic): "the client never reconnected" can be told. */
  wentOn: boolean;
}

/** What a session's client does when its streams end, as its traffic shows it. */
export interface ReconnectBehaviour {
  sessionKey: string;
  /** Resumes a POST stream that ended with an event id before its answer (GET + Last-Event-ID). */
  resumesPostStreams: 'yes' | 'no' | 'unknown';
  /** Waits at least the server's `retry:` before reconnecting, and does reconnect. */
  honoursRetry: 'yes' | 'no' | 'unknown';
  /** Replaces rather than appends a re-delivered event: the wire cannot show it. */
  deduplicates: 'unknown';
}

/**
 * How much earlier than `retry` a reconnect may start and still count as waiting: the capture's clocks are not the
 * client's (a proxy records a cut when its socket is done, a tap when the page reads the end), which was 12 ms on the
 * real SDK client behind the CLI proxy. A client that ignores `retry:` comes back at once or on its own backoff.
 */
function retrySlack(retryMs: number): number {
  return Math.max(50, retryMs / 4);
}

const endTime = (c: ConnectionView) => c.record.endTime ?? c.record.responseTime ?? c.record.startTime;

function lastIdOf(model: Model, conn: ConnectionView): string | undefined {
  for (let k = conn.eventIndexes.length - 1; k >= 0; k--) {
    const event = model.events.at(conn.eventIndexes.at(k) as number);
    if (event && event.lastEventId !== '') return event.lastEventId;
  }
  return conn.tail?.id;
}

function retryBefore(conns: readonly ConnectionView[], until: number): number | undefined {
  let retry: number | undefined;
  for (const c of conns) if (c.retryMs !== undefined && c.record.startTime <= until) retry = c.retryMs;
  return retry;
}

/** The session's stream ends that asked for a reconnect, in time order. */
export function streamEnds(model: Model, session: SessionFacts, facts: Facts): StreamEnd[] {
  const ends: StreamEnd[] = [];
  const cancelled = cancelledRequests(session.connections);
  let latest = 0;
  for (const c of model.connections) latest = Math.max(latest, endTime(c));
  const gets = session.connections.filter((c) => c.role === 'get' && c.record.method.toUpperCase() === 'GET');
  for (const streamId of session.session.streamIds) {
    const stream = facts.stream.get(streamId);
    if (!stream || stream.kind === 'legacy') continue;
    const conns = stream.connectionIds.flatMap((id) => facts.connection.get(id) ?? []);
    for (const [i, conn] of conns.entries()) {
      const end = conn.record.end;
      // The client's own abort, a body still open, or a refused resume ask for nothing.
      if (!conn.isSse || !ok(conn) || end === 'open' || end === 'aborted') continue;
      const endedAt = endTime(conn);
      const waiting =
        stream.kind === 'post'
          ? stream.requestIds.filter((id) => (session.answeredAt.get(idKey(id)) ?? Infinity) > endedAt)
          : [];
      if (stream.kind === 'post' && waiting.length === 0) continue;
      const closed = end === 'complete' && conn.tail === undefined;
      const retryMs = retryBefore(conns.slice(0, i + 1), endedAt) ?? retryBefore(session.connections, endedAt);
      const next =
        conns[i + 1] ?? (stream.kind === 'get' ? gets.find((g) => g.record.startTime >= endedAt) : undefined);
      const item: StreamEnd = {
        conn,
        stream,
        endedAt,
        closed,
        waiting,
        cancelled: waiting.some((id) => cancelled.has(idKey(id))),
        wentOn: latest > endedAt + Math.max(retryMs ?? 0, 1000),
      };
      const lastId = lastIdOf(model, conn);
      if (lastId !== undefined) item.lastId = lastId;
      if (retryMs !== undefined) item.retryMs = retryMs;
      if (next) item.next = next;
      ends.push(item);
    }
  }
  return ends.sort((a, b) => a.endedAt - b.endedAt);
}

/** Every session's stream ends that asked for a reconnect (see streamEnds), session by session. */
export function allStreamEnds(model: Model): StreamEnd[] {
  const facts = factsOf(model);
  return facts.sessions.flatMap((session) => streamEnds(model, session, facts));
}

/** A POST stream end a client resumes by GET with Last-Event-ID: it had an id and its request was waiting. */
export function resumable(end: StreamEnd): boolean {
  return end.stream.kind === 'post' && end.lastId !== undefined && end.waiting.length > 0;
}

/** How long the client waited before reconnecting, when it did. */
export function delayOf(end: StreamEnd): number | undefined {
  return end.next ? end.next.record.startTime - end.endedAt : undefined;
}

/** The client reconnected sooner than the server's `retry:` asked. */
export function tooSoon(end: StreamEnd): boolean {
  const delay = delayOf(end);
  return end.retryMs !== undefined && delay !== undefined && delay + retrySlack(end.retryMs) < end.retryMs;
}

/** An end that asks the client to reconnect: a GET stream's, or a POST stream's that is resumable. */
export function invitesReconnect(end: StreamEnd): boolean {
  return end.stream.kind === 'get' || resumable(end);
}

/** post-stream-not-resumed's case: the server closed a POST stream after an id, the client neither resumed nor cancelled. */
export function leftUnresumed(end: StreamEnd): boolean {
  return resumable(end) && end.closed && !end.next && !end.cancelled && end.wentOn;
}

/** The client never reconnected although the capture went on. */
export function neverReconnected(end: StreamEnd): boolean {
  return !end.next && end.wentOn;
}

/** Each session's client reconnect behaviour, as far as the capture shows it. */
export function reconnectBehaviours(model: Model): ReconnectBehaviour[] {
  const facts = factsOf(model);
  return facts.sessions
    .filter((s) => s.session.era !== '2026-07-28' && s.session.era !== '2024-11-05')
    .map((session) => {
      const ends = streamEnds(model, session, facts);
      const asked = ends.filter((e) => resumable(e) && (e.next || e.wentOn));
      const paced = ends.filter((e) => invitesReconnect(e) && e.retryMs !== undefined && (e.next || e.wentOn));
      return {
        sessionKey: session.session.key,
        resumesPostStreams:
          asked.length === 0 ? 'unknown' : asked.some((e) => e.next?.lastEventIdSent !== undefined) ? 'yes' : 'no',
        honoursRetry:
          paced.length === 0 ? 'unknown' : paced.some((e) => tooSoon(e) || neverReconnected(e)) ? 'no' : 'yes',
        deduplicates: 'unknown',
      };
    });
}

/** One line for a session header: `resumes POST streams: yes · honours retry: no · de-duplicates: unknown`. */
export function reconnectSummary(b: ReconnectBehaviour): string {
  return `resumes POST streams: ${b.resumesPostStreams} · honours retry: ${b.honoursRetry} · de-duplicates: ${b.deduplicates}`;
}
