// Runs anywhere (pure core): rule unsolicited-response.
import { idKey } from '../../mcp/jsonrpc';
import { at, describeId, factsOf } from '../facts';
import type { Finding, Rule } from '../types';

export const unsolicitedResponse: Rule = {
  id: 'unsolicited-response',
  severity: 'error',
  title: 'Response to no outstanding request',
  summary: 'A response arrived whose id matches no outstanding client request of the session: an answer from another epoch or session, or a second answer to one request.',
  check(model) {
    const facts = factsOf(model);
    const findings: Finding[] = [];
    for (const session of facts.sessions) {
      // Without the client's requests (capture started mid-session) every answer would look unsolicited.
      if (session.clientRequests.size === 0) continue;
      const answered = new Set<string>();
      const seenEventIds = new Set<string>();
      for (const event of session.events) {
        const replay = event.hasId && seenEventIds.has(event.lastEventId);
        if (event.hasId) seenEventIds.add(event.lastEventId);
        // Re-delivered events are replayed-event-duplicate's business.
        if (replay) continue;
        for (const message of event.messages) {
          if ((message.kind !== 'response' && message.kind !== 'error') || message.id === undefined) continue;
          const key = idKey(message.id);
          const request = session.clientRequests.get(key);
          const sentBefore = request !== undefined && request.record.startTime <= event.time;
          const conn = facts.connection.get(event.connectionId);
          if (sentBefore && !answered.has(key)) {
            answered.add(key);
            continue;
          }
          if (!conn) continue;
          findings.push({
            rule: this.id,
            severity: this.severity,
            message: sentBefore
              ? `a second answer to request ${describeId(message.id)} arrived on ${conn.id}.`
              : `response id ${describeId(message.id)} on ${conn.id} matches no request this session sent.`,
            ...at(conn, { byteOffset: event.start, time: event.time, ...(event.hasId ? { eventId: event.lastEventId } : {}) }),
          });
        }
      }
    }
    return findings;
  },
};
