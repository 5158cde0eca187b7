// Runs anywhere (pure core): the requests still waiting on an open connection, and how long each has waited, as of
// when the capture stopped watching: what request-hang judges and what the panel shows with a running clock.
import { idKey } from '../mcp/jsonrpc';
import type { JsonRpcId } from '../mcp/types';
import { lastActivity } from '../model/silence';
import type { ConnectionView, Model } from '../model/types';
import { cancelledRequests } from './cancelled';
import { factsOf, type Facts } from './facts';
import { lastMessageTime } from './silence-facts';

/** One request that has no answer yet, on a connection that is still open. */
export interface WaitingRequest {
  /** The POST that sent it. */
  request: ConnectionView;
  /** The connection that carries its stream now (a resume, or the POST itself). */
  current: ConnectionView;
  id: JsonRpcId;
  method: string;
  /** Since the request was sent. */
  waitedMs: number;
  /** Since the last JSON-RPC message on `current` (keep-alives and priming events do not count), or its head. */
  quietMs: number;
  /** Since the last byte of any kind on `current`. */
  silentMs: number;
}

/** The connection that carries the request's stream now: the stream's latest connection (a resume), else its own. */
function currentConnection(facts: Facts, conn: ConnectionView): ConnectionView {
  const stream = conn.streamId === undefined ? undefined : facts.stream.get(conn.streamId);
  const last = stream?.connectionIds.at(-1);
  return (last === undefined ? undefined : facts.connection.get(last)) ?? conn;
}

/** Every request waiting on an open connection at `model.observedUntil`, in the order they were sent. */
export function waitingRequests(model: Model): WaitingRequest[] {
  const facts = factsOf(model);
  const until = model.observedUntil;
  const waiting: WaitingRequest[] = [];
  for (const session of facts.sessions) {
    if (session.bodiesMissing) continue;
    const cancelled = cancelledRequests(session.connections);
    for (const conn of session.connections) {
      if (conn.record.method !== 'POST') continue;
      const current = currentConnection(facts, conn);
      if (current.record.end !== 'open') continue;
      for (const message of conn.requestMessages) {
        if (message.kind !== 'request' || message.id === undefined) continue;
        const key = idKey(message.id);
        if (session.answeredAt.has(key) || cancelled.has(key)) continue;
        const lastMessage = lastMessageTime(model, current) ?? current.record.responseTime ?? current.record.startTime;
        waiting.push({
          request: conn,
          current,
          id: message.id,
          method: message.method ?? '?',
          waitedMs: until - conn.record.startTime,
          quietMs: until - lastMessage,
          silentMs: until - lastActivity(current.record),
        });
      }
    }
  }
  return waiting;
}
