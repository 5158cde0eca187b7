// Runs anywhere (pure core): rule cross-stream-replay.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, isResumeAttempt } from '../facts';
import type { Report, Rule } from '../types';

export const crossStreamReplay: Rule = {
  id: 'cross-stream-replay',
  severity: 'error',
  title: 'Resume replayed another stream',
  summary:
    'A resumed connection replayed events that first arrived on a different stream of the session: the server mapped the cursor to the wrong stream (and the client gets them twice).',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { ids } of facts.sessions) {
      for (const { event, earlier } of ids.repeats) {
        const conn = facts.connection.get(event.connectionId);
        if (!conn || !isResumeAttempt(conn) || earlier.streamId === event.streamId) continue;
        // Lengths first: the data is read from the bytes only when it may be the same.
        const identical = earlier.dataLength === event.dataLength && earlier.data === event.data;
        const payload = identical ? 'identical payload' : 'a DIFFERENT payload';
        reports.push({
          message: `resume on ${conn.id} (stream ${event.streamId}) replayed event ${event.lastEventId} (${payload}), first delivered on stream ${earlier.streamId}: a client that does not de-duplicate by id processes it twice.`,
          ...at(conn, { eventId: event.lastEventId, byteOffset: event.start, time: event.time }),
        });
      }
    }
    return reports;
  },
};
