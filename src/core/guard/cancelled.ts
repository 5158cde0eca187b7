// Runs anywhere (pure core): requests the client itself gave up on (notifications/cancelled) are not lost.
import { idKey } from '../mcp/jsonrpc';
import type { ConnectionView } from '../model/types';

/** Request id keys (idKey) the client cancelled in these connections -> when it sent the cancellation. */
export function cancelledRequests(connections: readonly ConnectionView[]): Map<string, number> {
  const cancelled = new Map<string, number>();
  for (const conn of connections) {
    for (const message of conn.requestMessages) {
      if (message.kind !== 'notification' || message.method !== 'notifications/cancelled') continue;
      const requestId = (message.value as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number')
        cancelled.set(idKey(requestId), conn.record.startTime);
    }
  }
  return cancelled;
}
