// Runs anywhere (pure core): requests the client itself gave up on (notifications/cancelled) are not lost.
import { idKey } from '../mcp/jsonrpc';
import type { ConnectionView } from '../model/types';

/** Keys (idKey) of the request ids the client cancelled in these connections. */
export function cancelledRequests(connections: readonly ConnectionView[]): Set<string> {
  const cancelled = new Set<string>();
  for (const conn of connections) {
    for (const message of conn.requestMessages) {
      if (message.kind !== 'notification' || message.method !== 'notifications/cancelled') continue;
      const requestId = (message.value as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') cancelled.add(idKey(requestId));
    }
  }
  return cancelled;
}
