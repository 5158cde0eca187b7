// Runs anywhere (pure core): rule duplicate-id-across-streams.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, isResumeAttempt } from '../facts';
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
      for (const { event, earlier } of ids.repeats) {
        const conn = facts.connection.get(event.connectionId);
        // A resume that re-sends another stream's id is cross-stream-replay instead.
        if (!conn || isResumeAttempt(conn) || earlier.streamId === event.streamId) continue;
        reports.push({
          message: `event id ${event.lastEventId} appears on stream ${earlier.streamId} and again on stream ${event.streamId} (${conn.id}).`,
          ...at(conn, { eventId: event.lastEventId, byteOffset: event.start, time: event.time }),
        });
      }
    }
    return reports;
  },
};
