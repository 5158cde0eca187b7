// Runs anywhere (pure core): rule orphaned-server-request.
import { idKey } from '../../mcp/jsonrpc';
import { at, describeId, factsOf } from '../facts';
import type { Finding, Rule } from '../types';

export const orphanedServerRequest: Rule = {
  id: 'orphaned-server-request',
  severity: 'error',
  title: 'Server request never answered',
  summary: 'The server asked the client something (sampling, elicitation, roots) and the answer never came because the stream or session carrying it was lost.',
  check(model) {
    const facts = factsOf(model);
    const findings: Finding[] = [];
    for (const session of facts.sessions) {
      const refusedOrGone = session.connections.filter((c) => c.record.status === 404 || c.record.status === 409 || c.role === 'delete');
      for (const event of session.events) {
        for (const message of event.messages) {
          if (message.kind !== 'request' || message.id === undefined || session.clientAnswers.has(idKey(message.id))) continue;
          const carrier = facts.connection.get(event.connectionId);
          if (!carrier) continue;
          const cut = carrier.record.end === 'network-error' || carrier.record.end === 'aborted' || (carrier.tail !== undefined && carrier.record.end !== 'open');
          const lostLater = refusedOrGone.some((c) => c.record.startTime >= event.time);
          if (!cut && !lostLater) continue;
          findings.push({
            rule: this.id,
            severity: this.severity,
            message: `server request ${message.method ?? '?'} (id ${describeId(message.id)}) was never answered: ${cut ? `its connection ${carrier.id} was lost` : 'the session was refused or ended'} before the client replied.`,
            ...at(carrier, { byteOffset: event.start, time: event.time, ...(event.hasId ? { eventId: event.lastEventId } : {}) }),
          });
        }
      }
    }
    return findings;
  },
};
