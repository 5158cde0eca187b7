// Runs anywhere (pure core): what the 2026-07-28 (stateless) rules share: the sessions of that era, the one message
// each POST carries, and every message its response brought back, in order.
import { STATELESS_ERA } from '../mcp/era';
import type { JsonRpcMessage } from '../mcp/types';
import type { ConnectionView, EventView, Model } from '../model/types';
import { factsOf, type SessionFacts } from './facts';

/** The sessions whose era is 2026-07-28 (the rules of that era read only these: their events are parsed again). */
export function statelessSessions(model: Model): SessionFacts[] {
  return factsOf(model).sessions.filter((s) => s.session.era === STATELESS_ERA);
}

/** The one JSON-RPC message a POST carries (2026-07-28 has no batches); undefined for none or a batch. */
export function bodyMessage(conn: ConnectionView): JsonRpcMessage | undefined {
  return conn.record.method.toUpperCase() === 'POST' && conn.requestMessages.length === 1
    ? conn.requestMessages[0]
    : undefined;
}

/** A POST of a 2026-07-28 session with the one message its body carries. */
export interface StatelessPost {
  conn: ConnectionView;
  message: JsonRpcMessage;
}

/** Every POST of the 2026-07-28 sessions that carries one message, session by session, in start order. */
export function statelessPosts(model: Model): StatelessPost[] {
  return statelessSessions(model).flatMap((session) =>
    session.connections.flatMap((conn) => {
      const message = bodyMessage(conn);
      return message ? [{ conn, message }] : [];
    }),
  );
}

/** The request a POST carries, with its id (a notification or a response is none). */
export type StatelessRequest = StatelessPost & { message: JsonRpcMessage & { id: NonNullable<JsonRpcMessage['id']> } };

/** The POSTs of statelessPosts that carry a request with an id. */
export function statelessRequests(model: Model): StatelessRequest[] {
  return statelessPosts(model).filter(
    (post): post is StatelessRequest => post.message.kind === 'request' && post.message.id !== undefined,
  );
}

/** A message a response delivered: in its JSON body (no event) or in one of its SSE events. */
export interface Delivered {
  message: JsonRpcMessage;
  event?: EventView;
}

/** Every message the connection's response delivered, in order: its JSON body's, then its events'. */
export function deliveredOn(model: Model, conn: ConnectionView): Delivered[] {
  const out: Delivered[] = conn.responseMessages.map((message) => ({ message }));
  for (const index of conn.eventIndexes) {
    const event = model.events.at(index);
    if (!event || event.envelopes.length === 0) continue;
    for (const message of event.messages) out.push({ message, event });
  }
  return out;
}

/** A message's `params` object, when it has one. */
export function paramsOf(message: JsonRpcMessage): Record<string, unknown> | undefined {
  const params = (message.value as { params?: unknown }).params;
  return typeof params === 'object' && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/** A response's `result` object, when it has one. */
export function resultOf(message: JsonRpcMessage): Record<string, unknown> | undefined {
  const result = (message.value as { result?: unknown }).result;
  return typeof result === 'object' && result !== null && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : undefined;
}
