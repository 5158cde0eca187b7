// Runs anywhere (pure core): rule reissued-with-same-id.
import { idKey } from '../../mcp/jsonrpc';
import { at, describeId } from '../facts';
import { lostRequests, reusesId } from '../lost-requests';
import { statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

export const reissuedWithSameId: Rule = {
  id: 'reissued-with-same-id',
  severity: 'error',
  title: 'Lost request re-issued under its old id',
  summary:
    'In protocol 2026-07-28 a request lost with its response stream must be re-issued as a new request with a new id; this re-issue reused the old one.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const lost of lostRequests(session)) {
        const again = lost.repeats.find((m) => reusesId(lost, m));
        if (!again) continue;
        // The session's last request under that id: the re-issue.
        const where = session.clientRequests.get(idKey(lost.request.id));
        const on = where && where !== lost.conn ? ` on ${where.id}` : '';
        reports.push({
          message: `${lost.request.method ?? 'request'} (id ${describeId(lost.request.id)}) lost on ${lost.conn.id} was re-issued${on} with the SAME id; 2026-07-28 requires a new id.`,
          ...at(where ?? lost.conn),
        });
      }
    }
    return reports;
  },
};
