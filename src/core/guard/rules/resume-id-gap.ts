// Runs anywhere (pure core): rule resume-id-gap.
import { hasSequence, parseId } from '../../ids/scheme';
import { RESUMABLE_ERAS } from '../../mcp/era';
import type { ConnectionView, EventView } from '../../model/types';
import type { IdScheme } from '../../ids/scheme';
import { at, factsOf, isResumeAttempt, ok, type Facts } from '../facts';
import type { SeenNumbers } from '../seen-numbers';
import type { Report, Rule } from '../types';
import { describeRange, missingBetween } from './sequence';

/** EventSource records are rebuilt from dispatched events only: their ids say nothing about what was sent. */
function checkable(conn: ConnectionView): boolean {
  return conn.record.source !== 'eventsource';
}

/**
 * Ids only have to be unique; a gap means loss only where the server numbers each session's events one by one.
 * That holds when every connection that is not a resume steps by one (numbers seen on other streams count).
 */
function stepsByOne(conns: readonly ConnectionView[], facts: Facts, scheme: IdScheme, seen: SeenNumbers): boolean {
  return conns.every(
    (conn) =>
      isResumeAttempt(conn) ||
      !checkable(conn) ||
      facts.jumpsOf(conn, scheme).every(({ from, to }) => missingBetween(from.id, to.id, seen) === undefined),
  );
}

export const resumeIdGap: Rule = {
  id: 'resume-id-gap',
  severity: 'error',
  title: 'Events skipped',
  summary:
    'Sequence numbers were skipped: after a resume the first event is not the successor of Last-Event-ID, or a connection jumped over ids no stream ever delivered.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { session, connections, seen: seenIn } of facts.sessions) {
      const scheme = session.idScheme;
      if (!hasSequence(scheme)) continue;
      // A per-session counter first; a counter shared by the sessions of this capture next.
      const perSession = seenIn(scheme);
      const seen = stepsByOne(connections, facts, scheme, perSession)
        ? perSession
        : [facts.seenInModel(scheme)].find((shared) => stepsByOne(connections, facts, scheme, shared));
      if (!seen) continue;
      const report = (conn: ConnectionView, event: EventView, message: string) =>
        reports.push({
          message,
          ...at(conn, { eventId: event.lastEventId, byteOffset: event.start, time: event.time }),
        });
      for (const conn of connections) {
        if (!checkable(conn)) continue;
        if (isResumeAttempt(conn) && ok(conn)) {
          const first = facts.summaryOf(conn).firstId;
          const missing =
            first && missingBetween(parseId(scheme, conn.lastEventIdSent), parseId(scheme, first.lastEventId), seen);
          if (first && missing)
            report(
              conn,
              first,
              `resumed after ${conn.lastEventIdSent} but the first event is ${first.lastEventId}: ${describeRange(missing)} never delivered.`,
            );
        }
        // Only a jump can leave numbers undelivered: every other consecutive pair steps by one or goes back.
        for (const { from, to } of facts.jumpsOf(conn, scheme)) {
          const missing = missingBetween(from.id, to.id, seen);
          if (missing)
            report(
              conn,
              to.event,
              `${conn.id} jumped from event ${from.event.lastEventId} to ${to.event.lastEventId}: ${describeRange(missing)} never delivered on any stream.`,
            );
        }
      }
    }
    return reports;
  },
};
