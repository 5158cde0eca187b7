// Runs anywhere (pure core): rule cross-stream-replay.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, isResumeAttempt } from '../facts';
import type { Report, Rule } from '../types';

export const crossStreamReplay: Rule = {
  id: 'cross-stream-replay',
  severity: 'error',
  title: 'Resume replayed another stream',
  summary:
    'A resumed connection replayed events that first arrived on a different stream of the session: the server mapped the cursor to the wrong stream.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { ids } of facts.sessions) {
      for (const { event, earlier } of ids.repeats) {
        const conn = facts.connection.get(event.connectionId);
        if (!conn || !isResumeAttempt(conn) || earlier.streamId === event.streamId) continue;
        reports.push({
          message: `resume on ${conn.id} (stream ${event.streamId}) replayed event ${event.lastEventId}, first delivered on stream ${earlier.streamId}.`,
          ...at(conn, { eventId: event.lastEventId, byteOffset: event.start, time: event.time }),
        });
      }
    }
    return reports;
  },
};
