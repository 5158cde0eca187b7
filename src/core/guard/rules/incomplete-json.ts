// Runs anywhere (pure core): rule incomplete-json.
import { factsOf } from '../facts';
import { isPrimingReplay, primingIds } from '../priming';
import type { Finding, Rule } from '../types';

export const incompleteJson: Rule = {
  id: 'incomplete-json',
  severity: 'error',
  title: 'Event data is not one JSON-RPC message',
  summary: 'A dispatched message event carried data that is not one complete JSON-RPC message (torn, glued or truncated); empty priming events are fine.',
  check(model) {
    const facts = factsOf(model);
    const findings: Finding[] = [];
    const priming = new Map(facts.sessions.map((s) => [s.session.key, primingIds(s.events)]));
    for (const event of model.events) {
      if (event.parseError === undefined) continue;
      const conn = facts.connection.get(event.connectionId);
      const replayedPriming = isPrimingReplay(event, priming.get(event.sessionKey) ?? new Map());
      const finding: Finding = {
        rule: this.id,
        severity: replayedPriming ? 'warning' : this.severity,
        message: replayedPriming
          ? `priming event ${event.lastEventId} was replayed on ${event.connectionId} as \`${event.data.trim()}\` instead of empty data: clients that parse it see a message that is not JSON-RPC.`
          : `event${event.hasId ? ` ${event.lastEventId}` : ''} on ${event.connectionId}: data (${event.data.length} chars) is ${event.parseError}.`,
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
