// Runs anywhere (pure core): rule client-posted-response.
import { at, describeId } from '../facts';
import { statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

export const clientPostedResponse: Rule = {
  id: 'client-posted-response',
  severity: 'error',
  title: 'Client POSTed a JSON-RPC response',
  summary:
    'In protocol 2026-07-28 a POST body is one request or notification; the client must not send JSON-RPC responses (there are no server requests to answer).',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const conn of session.connections) {
        const answer = conn.requestMessages.find((m) => m.kind === 'response' || m.kind === 'error');
        if (!answer) continue;
        const id = answer.id === undefined ? 'without an id' : `to id ${describeId(answer.id)}`;
        reports.push({
          message: `${conn.id} POSTs a JSON-RPC ${answer.kind === 'error' ? 'error' : 'result'} ${id} (answered ${conn.record.status ?? 'nothing'}).`,
          ...at(conn, { time: conn.record.startTime }),
        });
      }
    }
    return reports;
  },
};
