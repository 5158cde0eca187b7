// Runs anywhere (pure core): rule epoch-mismatch.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { parseId } from '../../ids/scheme';
import { at, factsOf, isResumeAttempt, ok } from '../facts';
import type { Report, Rule } from '../types';

export const epochMismatch: Rule = {
  id: 'epoch-mismatch',
  severity: 'error',
  title: 'Resumed on another server epoch',
  summary:
    'The Last-Event-ID belongs to one server epoch and the 200 response serves events of another: the cursor meant nothing to that server, so this is not a continuation.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { session, connections } of facts.sessions) {
      if (session.idScheme !== 'epoch-seq') continue;
      for (const conn of connections) {
        if (!isResumeAttempt(conn) || !ok(conn)) continue;
        const cursor = parseId('epoch-seq', conn.lastEventIdSent);
        if (cursor.epoch === undefined) continue;
        const foreign = facts.epochsOf(conn).firstOutside(cursor.epoch);
        if (!foreign) continue;
        const served = parseId('epoch-seq', foreign.lastEventId).epoch ?? '(unparsable)';
        reports.push({
          message: `resumed ${conn.lastEventIdSent} (epoch ${cursor.epoch}) but the server answered with events of epoch ${served}, starting at ${foreign.lastEventId}: the server restarted; the client must re-initialize and fail its pending requests.`,
          ...at(conn, { eventId: foreign.lastEventId, byteOffset: foreign.start, time: foreign.time }),
        });
      }
    }
    return reports;
  },
};
