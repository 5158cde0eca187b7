// Runs anywhere (pure core): rule session-not-reinitialized.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, ok } from '../facts';
import type { Report, Rule } from '../types';

export const sessionNotReinitialized: Rule = {
  id: 'session-not-reinitialized',
  severity: 'error',
  title: 'Dead session kept in use',
  summary:
    'The server answered 404 for the session and the client kept sending that Mcp-Session-Id instead of initializing a new session.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { session, connections } of facts.sessions) {
      if (session.sessionId === undefined) continue;
      const gone = connections.find((c) => c.record.status === 404);
      if (!gone) continue;
      const goneAt = gone.record.responseTime ?? gone.record.startTime;
      const after = connections.filter((c) => c !== gone && c.record.startTime >= goneAt && c.role !== 'delete');
      const firstAfter = after[0];
      // A later success on the same session proves the 404 was about a route (say GET), not the session.
      if (!firstAfter || after.some((c) => ok(c))) continue;
      reports.push({
        message: `session ${session.sessionId} got 404 on ${gone.id}; the client sent ${after.length} more request(s) on it (first ${firstAfter.id} ${firstAfter.record.method}) instead of initializing anew.`,
        ...at(firstAfter),
      });
    }
    return reports;
  },
};
