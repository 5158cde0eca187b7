// Runs anywhere (pure core): rule orphaned-server-request.
import { idKey } from '../../mcp/jsonrpc';
import { at, describeId, factsOf, isResumeAttempt } from '../facts';
import type { Report, Rule } from '../types';

export const orphanedServerRequest: Rule = {
  id: 'orphaned-server-request',
  severity: 'error',
  title: 'Server request never answered',
  summary:
    'The server asked the client something (sampling, elicitation, roots) and the answer never came because the stream or session carrying it was lost.',
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      if (session.bodiesMissing) continue;
      // The session is gone (404, DELETE); a refused resume loses only the stream it tried to resume.
      const sessionGone = session.connections.filter((c) => c.record.status === 404 || c.role === 'delete');
      const refusedResumes = session.connections.filter((c) => isResumeAttempt(c) && (c.record.status ?? 0) >= 400);
      const { cancelledByServer } = session.messages;
      for (const event of session.messages.requests) {
        for (const message of event.envelopes) {
          if (message.kind !== 'request' || message.id === undefined) continue;
          if (session.clientAnswers.has(idKey(message.id)) || cancelledByServer.has(idKey(message.id))) continue;
          const carrier = facts.connection.get(event.connectionId);
          if (!carrier) continue;
          const cut =
            carrier.record.end === 'network-error' ||
            carrier.record.end === 'aborted' ||
            (carrier.tail !== undefined && carrier.record.end !== 'open');
          const lostLater =
            sessionGone.some((c) => c.record.startTime >= event.time) ||
            refusedResumes.some((c) => c.streamId === event.streamId && c.record.startTime >= event.time);
          if (!cut && !lostLater) continue;
          reports.push({
            message: `server request ${message.method ?? '?'} (id ${describeId(message.id)}) was never answered: ${cut ? `its connection ${carrier.id} was lost` : 'the session was refused or ended'} before the client replied.`,
            ...at(carrier, {
              byteOffset: event.start,
              time: event.time,
              ...(event.hasId ? { eventId: event.lastEventId } : {}),
            }),
          });
        }
      }
    }
    return reports;
  },
};
