// Runs anywhere (pure core): rule duplicate-id-across-streams.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, isResumeAttempt } from '../facts';
import type { Repeat } from '../id-index';
import type { ConnectionView } from '../../model/types';
import type { Report, Rule } from '../types';

export const duplicateIdAcrossStreams: Rule = {
  id: 'duplicate-id-across-streams',
  severity: 'warning',
  title: 'One event id on two streams',
  summary:
    'The same event id appeared on two streams of one session: ids must be unique per session, or a later Last-Event-ID cannot say which stream to resume.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { ids } of facts.sessions) {
      // One report per connection and stream it repeats, at its first repeated id: a server numbering every stream
      // from 1 repeats each id, and 150k findings of one fault buried the rest (and cost each pass their weight).
      const groups = new Map<string, { first: Repeat; conn: ConnectionView; count: number; last: string }>();
      for (const repeat of ids.repeats) {
        const { event, earlier } = repeat;
        const conn = facts.connection.get(event.connectionId);
        // A resume that re-sends another stream's id is cross-stream-replay instead.
        if (!conn || isResumeAttempt(conn) || earlier.streamId === event.streamId) continue;
        const key = `${event.connectionId}\n${earlier.streamId}`;
        const group = groups.get(key);
        if (group) {
          group.count++;
          group.last = event.lastEventId;
        } else groups.set(key, { first: repeat, conn, count: 1, last: event.lastEventId });
      }
      for (const { first, conn, count, last } of groups.values()) {
        const { event, earlier } = first;
        const more = count > 1 ? `; ${count} of its ids repeat ids of that stream, the last ${last}` : '';
        reports.push({
          message: `event id ${event.lastEventId} appears on stream ${earlier.streamId} and again on stream ${event.streamId} (${conn.id})${more}.`,
          ...at(conn, { eventId: event.lastEventId, byteOffset: event.start, time: event.time }),
        });
      }
    }
    return reports;
  },
};
