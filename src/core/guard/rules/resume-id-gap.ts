// Runs anywhere (pure core): rule resume-id-gap.
import { hasSequence, parseId } from '../../ids/scheme';
import { at, factsOf, firstIdEvent, isResumeAttempt, ok } from '../facts';
import type { Finding, Rule } from '../types';
import { describeRange, idsOf, missingBetween, seenSequenceNumbers } from './sequence';

export const resumeIdGap: Rule = {
  id: 'resume-id-gap',
  severity: 'error',
  title: 'Events skipped',
  summary: 'Sequence numbers were skipped: after a resume the first event is not the successor of Last-Event-ID, or a connection jumped over ids no stream ever delivered.',
  check(model) {
    const facts = factsOf(model);
    const findings: Finding[] = [];
    for (const { session, connections } of facts.sessions) {
      const scheme = session.idScheme;
      if (!hasSequence(scheme)) continue;
      const seen = seenSequenceNumbers(model, scheme);
      for (const conn of connections) {
        const events = facts.eventsOf(conn);
        if (isResumeAttempt(conn) && ok(conn)) {
          const first = firstIdEvent(events);
          const cursor = parseId(scheme, conn.lastEventIdSent);
          if (first) {
            const missing = missingBetween(cursor, parseId(scheme, first.lastEventId), seen);
            if (missing.length > 0) {
              findings.push({
                rule: this.id,
                severity: this.severity,
                message: `resumed after ${conn.lastEventIdSent} but the first event is ${first.lastEventId}: ${describeRange(missing)} never delivered.`,
                ...at(conn, { eventId: first.lastEventId, byteOffset: first.start, time: first.time }),
              });
            }
          }
        }
        const ids = idsOf(events, scheme);
        for (let i = 1; i < ids.length; i += 1) {
          const previous = ids[i - 1];
          const current = ids[i];
          if (!previous || !current) continue;
          const missing = missingBetween(previous.id, current.id, seen);
          if (missing.length === 0) continue;
          findings.push({
            rule: this.id,
            severity: this.severity,
            message: `${conn.id} jumped from event ${previous.event.lastEventId} to ${current.event.lastEventId}: ${describeRange(missing)} never delivered on any stream.`,
            ...at(conn, { eventId: current.event.lastEventId, byteOffset: current.event.start, time: current.event.time }),
          });
        }
      }
    }
    return findings;
  },
};
