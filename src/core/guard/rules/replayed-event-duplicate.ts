// Runs anywhere (pure core): rule replayed-event-duplicate.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, isResumeAttempt } from '../facts';
import { isPrimingReplay } from '../priming';
import type { Report, Rule } from '../types';

export const replayedEventDuplicate: Rule = {
  id: 'replayed-event-duplicate',
  severity: 'error',
  severities: ['error', 'warning'],
  title: 'Resume re-delivered an event',
  summary:
    'A resumed connection delivered an event id its stream had already received: a client that appends instead of de-duplicating by id processes it twice.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { ids } of facts.sessions) {
      for (const { event, earlier } of ids.repeats) {
        if (isPrimingReplay(event, ids)) continue;
        const conn = facts.connection.get(event.connectionId);
        // Same-stream replays only (also twice within one resumed connection); other streams are cross-stream-replay.
        if (!conn || !isResumeAttempt(conn) || earlier.streamId !== event.streamId) continue;
        // Lengths first: the data is read from the bytes only when it may be the same.
        const identical = earlier.dataLength === event.dataLength && earlier.data === event.data;
        reports.push({
          severity: identical ? 'warning' : 'error',
          message: identical
            ? `event ${event.lastEventId} was delivered again on ${conn.id} (identical payload; first on ${earlier.connectionId}).`
            : `event ${event.lastEventId} was delivered again on ${conn.id} with a DIFFERENT payload (first on ${earlier.connectionId}): the id was reused.`,
          ...at(conn, { eventId: event.lastEventId, byteOffset: event.start, time: event.time }),
        });
      }
    }
    return reports;
  },
};
