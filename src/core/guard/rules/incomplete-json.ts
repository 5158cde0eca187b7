// Runs anywhere (pure core): rule incomplete-json.
import { factsOf } from '../facts';
import { isPrimingReplay } from '../priming';
import type { Report, Rule } from '../types';

export const incompleteJson: Rule = {
  id: 'incomplete-json',
  severity: 'error',
  severities: ['error', 'warning'],
  title: 'Event data is not one JSON-RPC message',
  summary:
    'A dispatched message event carried data that is not one complete JSON-RPC message (torn, glued or truncated); empty priming events are fine.',
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    const idsOf = new Map(facts.sessions.map((s) => [s.session.key, s.ids]));
    for (const event of facts.parseErrors) {
      const conn = facts.connection.get(event.connectionId);
      const ids = idsOf.get(event.sessionKey);
      const replayedPriming = ids !== undefined && isPrimingReplay(event, ids);
      const report: Report = {
        // A replayed priming event is the milder case: the stream itself is fine.
        severity: replayedPriming ? 'warning' : 'error',
        message: replayedPriming
          ? `priming event ${event.lastEventId} was replayed on ${event.connectionId} as \`${event.data.trim()}\` instead of empty data: clients that parse it see a message that is not JSON-RPC.`
          : `event${event.hasId ? ` ${event.lastEventId}` : ''} on ${event.connectionId}: data (${event.dataLength} chars) is ${event.parseError}.`,
        sessionKey: event.sessionKey,
        streamId: event.streamId,
        connectionId: event.connectionId,
        byteOffset: event.start,
        time: event.time,
      };
      if (event.hasId) report.eventId = event.lastEventId;
      if (conn) reports.push(report);
    }
    return reports;
  },
};
