// Runs anywhere (pure core): 2026-07-28 re-issues. A broken response stream loses its request (no resumption in this
// era); the client may send the same call again. Each such request is linked to the connection that lost it.
import type { JsonRpcMessage } from '../mcp/types';
import type { ParsedConnection } from './connection';
import { answerTo } from './sessions';

/** A call's identity: method and params without `_meta` (the SDK gives a re-issued request a new progress token). */
export function sameCall(message: JsonRpcMessage): string {
  const params = (message.value as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return JSON.stringify(params ?? null);
  const { _meta: _ignored, ...rest } = params as Record<string, unknown>;
  return `${message.method ?? ''} ${JSON.stringify(rest)}`;
}

/** In 2026-07-28 closing a response stream is how a client cancels: only a network failure or a torn end breaks one. */
function brokenRequest(conn: ParsedConnection): JsonRpcMessage | undefined {
  const broken =
    conn.isSse && (conn.record.end === 'network-error' || (conn.tail !== undefined && conn.record.end === 'complete'));
  const [message] = conn.requestMessages;
  if (!broken || conn.requestMessages.length !== 1 || message?.kind !== 'request') return undefined;
  return answerTo(conn, message) === undefined ? message : undefined;
}

/** For each connection (in time order) whose request re-issues a lost one, the index of the connection that lost it. */
export function reissuedRequests(connections: readonly ParsedConnection[]): Map<number, number> {
  const links = new Map<number, number>();
  const lost = new Map<string, number>();
  for (const [index, conn] of connections.entries()) {
    const [message] = conn.requestMessages;
    if (conn.requestMessages.length === 1 && message?.kind === 'request') {
      const key = sameCall(message);
      const from = lost.get(key);
      if (from !== undefined) {
        links.set(index, from);
        lost.delete(key);
      }
    }
    const broken = brokenRequest(conn);
    if (broken) lost.set(sameCall(broken), index);
  }
  return links;
}
