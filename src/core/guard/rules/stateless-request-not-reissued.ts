// Runs anywhere (pure core): rule stateless-request-not-reissued.
import { at, describeId } from '../facts';
import { lostRequests } from '../lost-requests';
import { statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

export const statelessRequestNotReissued: Rule = {
  id: 'stateless-request-not-reissued',
  severity: 'error',
  title: 'Broken request not re-issued',
  summary:
    'In protocol 2026-07-28 a broken response stream loses its request: the client must send it again with a new request id. This one was never sent again.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      if (session.bodiesMissing) continue;
      for (const lost of lostRequests(session)) {
        if (lost.repeats.length > 0) continue; // re-issued (a reused id is reissued-with-same-id's)
        reports.push({
          message: `${lost.request.method ?? 'request'} (id ${describeId(lost.request.id)}) lost on ${lost.conn.id} was never re-issued.`,
          ...at(lost.conn, { time: lost.until }),
        });
      }
    }
    return reports;
  },
};
