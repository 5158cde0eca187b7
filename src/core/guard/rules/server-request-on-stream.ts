// Runs anywhere (pure core): rule server-request-on-stream.
import { at, describeId } from '../facts';
import { statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

export const serverRequestOnStream: Rule = {
  id: 'server-request-on-stream',
  severity: 'error',
  title: 'Server request on a 2026-07-28 response',
  summary:
    'In protocol 2026-07-28 a server asks the client for input (sampling, elicitation, roots) inside an input_required result, never as a JSON-RPC request of its own on a response stream.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const conn of session.connections) {
        const inBody = conn.responseMessages.find((m) => m.kind === 'request');
        const event = inBody
          ? undefined
          : [...conn.eventIndexes]
              .map((i) => model.events.at(i))
              .find((e) => e?.envelopes.some((m) => m.kind === 'request'));
        const request = inBody ?? event?.envelopes.find((m) => m.kind === 'request');
        if (!request) continue;
        const asked = conn.requestMessages[0]?.method ?? conn.record.method;
        const where = event ? 'on the SSE response stream' : 'in the JSON response';
        reports.push({
          message: `The server sent ${request.method ?? 'a request'}${request.id === undefined ? '' : ` (id ${describeId(request.id)})`} as a JSON-RPC request ${where} of ${asked} on ${conn.id}.`,
          ...at(conn, event ? { byteOffset: event.start, time: event.time } : {}),
        });
      }
    }
    return reports;
  },
};
