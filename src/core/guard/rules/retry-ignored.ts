// Runs anywhere (pure core): rule retry-ignored.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at } from '../facts';
import { delayOf, invitesReconnect, leftUnresumed, neverReconnected, allStreamEnds, tooSoon } from '../reconnects';
import type { Report, Rule } from '../types';

export const retryIgnored: Rule = {
  id: 'retry-ignored',
  severity: 'warning',
  title: "Server's retry: not honoured",
  summary:
    'The server set a reconnection time with `retry:` and the client reconnected sooner than it asked, or never reconnected although the capture went on.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const reports: Report[] = [];
    for (const end of allStreamEnds(model)) {
      if (end.retryMs === undefined || !invitesReconnect(end)) continue;
      const how = end.closed ? 'closed' : 'broke';
      if (tooSoon(end)) {
        reports.push({
          message: `${end.conn.id} (stream ${end.stream.id}) ${how} and the client reconnected on ${end.next?.id ?? ''} after ${Math.round(delayOf(end) ?? 0)} ms, sooner than the server's retry: ${end.retryMs} ms.`,
          ...at(end.conn, { time: end.endedAt }),
        });
      } else if (neverReconnected(end) && !leftUnresumed(end)) {
        // A POST stream left unresumed and uncancelled is post-stream-not-resumed's (one finding per loss).
        reports.push({
          message: `${end.conn.id} (stream ${end.stream.id}) ${how} with retry: ${end.retryMs} ms and the client never reconnected${end.cancelled ? ' (it cancelled the request instead)' : ''}.`,
          ...at(end.conn, { time: end.endedAt }),
        });
      }
    }
    return reports;
  },
};
