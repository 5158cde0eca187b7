// Runs anywhere (pure core): rule resumption-rejected.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { headerValue } from '../../mcp/headers';
import { at, factsOf, isResumeAttempt } from '../facts';
import type { Report, Rule } from '../types';

export const resumptionRejected: Rule = {
  id: 'resumption-rejected',
  severity: 'info',
  title: 'Server refused a resume',
  summary:
    'The server refused a Last-Event-ID resume (a 4xx status or an SSE error event): correct and safe, but the client must now re-initialize and fail its pending requests.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const conn of model.connections) {
      if (!isResumeAttempt(conn)) continue;
      const status = conn.record.status;
      if (status !== undefined && status >= 400 && status < 500) {
        const retryAfter = headerValue(conn.record.responseHeaders, 'retry-after');
        reports.push({
          message: `resume of ${conn.lastEventIdSent} refused with ${status}${conn.record.statusText ? ` ${conn.record.statusText}` : ''}${retryAfter !== undefined ? ` (Retry-After: ${retryAfter})` : ''}.`,
          ...at(conn),
        });
        continue;
      }
      const refusal = facts.summaryOf(conn).firstError;
      if (refusal) {
        reports.push({
          message: `resume of ${conn.lastEventIdSent} refused by an SSE error event: ${refusal.data.slice(0, 200)}`,
          ...at(conn, { byteOffset: refusal.start, time: refusal.time }),
        });
      }
    }
    return reports;
  },
};
