// Runs anywhere (pure core): rule incomplete-json.
import { factsOf } from '../facts';
import type { Finding, Rule } from '../types';

export const incompleteJson: Rule = {
  id: 'incomplete-json',
  severity: 'error',
  title: 'Event data is not one JSON-RPC message',
  summary: 'A dispatched message event carried data that is not one complete JSON-RPC message (torn, glued or truncated); empty priming events are fine.',
  check(model) {
    const facts = factsOf(model);
    const findings: Finding[] = [];
    for (const event of model.events) {
      if (event.parseError === undefined) continue;
      const conn = facts.connection.get(event.connectionId);
      const finding: Finding = {
        rule: this.id,
        severity: this.severity,
        message: `event${event.hasId ? ` ${event.lastEventId}` : ''} on ${event.connectionId}: data (${event.data.length} chars) is ${event.parseError}.`,
        sessionKey: event.sessionKey,
        streamId: event.streamId,
        connectionId: event.connectionId,
        byteOffset: event.start,
        time: event.time,
      };
      if (event.hasId) finding.eventId = event.lastEventId;
      if (conn) findings.push(finding);
    }
    return findings;
  },
};
