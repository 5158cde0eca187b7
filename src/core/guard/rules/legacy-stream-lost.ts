// Runs anywhere (pure core): rule legacy-stream-lost.
import { idKey } from '../../mcp/jsonrpc';
import type { ConnectionView } from '../../model/types';
import { cancelledRequests } from '../cancelled';
import { at, describeId, factsOf } from '../facts';
import type { Report, Rule } from '../types';

/** How the session's `/sse` stream ended, when it ended in a way the client did not choose. */
function howEnded(conn: ConnectionView): string | undefined {
  const { end } = conn.record;
  if (end === 'network-error') return `broke (network error)${conn.tail ? ' in the middle of an event' : ''}`;
  if (end === 'complete') return conn.tail ? 'closed in the middle of an event' : 'was closed by the server';
  return undefined; // open, or aborted by the client itself
}

export const legacyStreamLost: Rule = {
  id: 'legacy-stream-lost',
  severity: 'error',
  title: 'Requests lost with the HTTP+SSE stream',
  summary:
    "A 2024-11-05 session's one GET event stream ended before the answers to requests POSTed to its endpoint: that transport has no resumption, so they are lost.",
  eras: ['2024-11-05'],
  check(model) {
    const reports: Report[] = [];
    for (const session of factsOf(model).sessions) {
      if (session.bodiesMissing) continue;
      const stream = session.connections.find((c) => c.role === 'legacy-sse');
      const how = stream && howEnded(stream);
      if (!stream || how === undefined) continue;
      const endedAt = stream.record.endTime ?? stream.record.startTime;
      const cancelled = cancelledRequests(session.connections);
      const lost: string[] = [];
      for (const conn of session.connections) {
        if (conn.role !== 'legacy-post') continue;
        for (const m of conn.requestMessages) {
          if (m.kind !== 'request' || m.id === undefined || session.answeredAt.has(idKey(m.id))) continue;
          // Cancelled while the stream was alive: the client's choice. Cancelled after: a timeout on the loss.
          if ((cancelled.get(idKey(m.id)) ?? Infinity) <= endedAt) continue;
          lost.push(`${describeId(m.id)} (${m.method ?? 'request'})`);
        }
      }
      if (lost.length === 0) continue;
      const what = lost.join(', ');
      reports.push({
        message: `request ${what} was never answered: the session's /sse stream ${stream.id} ${how}, and the 2024-11-05 HTTP+SSE transport cannot resume it.`,
        ...at(stream, { time: endedAt }),
      });
    }
    return reports;
  },
};
