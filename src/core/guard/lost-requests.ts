// Runs anywhere (pure core): 2026-07-28 requests lost with a broken response stream, and what the client sent later
// that repeats them (the same method and params).
import { idKey } from '../mcp/jsonrpc';
import type { JsonRpcId, JsonRpcMessage } from '../mcp/types';
import { sameCall } from '../model/reissues';
import type { ConnectionView } from '../model/types';
import type { SessionFacts } from './facts';

export interface LostRequest {
  conn: ConnectionView;
  request: JsonRpcMessage & { id: JsonRpcId };
  /** Epoch ms when its stream broke. */
  until: number;
  /** Later requests of the session with the same method and params (`_meta` aside), in order. */
  repeats: JsonRpcMessage[];
}

/** True when a repeat reuses the lost request's id. */
export function reusesId(lost: LostRequest, repeat: JsonRpcMessage): boolean {
  return repeat.id !== undefined && idKey(repeat.id) === idKey(lost.request.id);
}

/** The session's requests whose SSE response stream broke before their answer. */
export function lostRequests(session: SessionFacts): LostRequest[] {
  const lost: LostRequest[] = [];
  for (const [index, conn] of session.connections.entries()) {
    // In 2026-07-28 closing a response stream is how a client cancels: only a network failure breaks one.
    const broken =
      conn.isSse &&
      (conn.record.end === 'network-error' || (conn.tail !== undefined && conn.record.end === 'complete'));
    if (!broken) continue;
    const until = conn.record.endTime ?? conn.record.startTime;
    for (const request of conn.requestMessages) {
      if (request.kind !== 'request' || request.id === undefined) continue;
      if ((session.answeredAt.get(idKey(request.id)) ?? Number.POSITIVE_INFINITY) <= until) continue;
      const key = sameCall(request);
      const repeats = session.connections
        .slice(index + 1)
        .flatMap((c) => c.requestMessages)
        .filter((m) => m.kind === 'request' && sameCall(m) === key);
      lost.push({ conn, request: request as LostRequest['request'], until, repeats });
    }
  }
  return lost;
}
