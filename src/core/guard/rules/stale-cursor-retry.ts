// Runs anywhere (pure core): rule stale-cursor-retry.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf, isResumeAttempt } from '../facts';
import type { Report, Rule } from '../types';

/** Statuses that refuse the cursor itself; auth (401, 407), timeouts (408) and load (429) are other stories. */
function refusesCursor(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && ![401, 407, 408, 429].includes(status);
}

export const staleCursorRetry: Rule = {
  id: 'stale-cursor-retry',
  severity: 'warning',
  title: 'Refused cursor retried',
  summary:
    'After the server refused a Last-Event-ID, the client sent the same cursor again instead of re-initializing: it will fail the same way every time.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { connections } of facts.sessions) {
      const reported = new Set<string>();
      for (const [index, refused] of connections.entries()) {
        if (!isResumeAttempt(refused) || !refusesCursor(refused.record.status) || reported.has(refused.lastEventIdSent))
          continue;
        // Retries that the server refused again: a retry that succeeded (after re-auth, say) was not stale.
        const retries = connections
          .slice(index + 1)
          .filter((c) => c.lastEventIdSent === refused.lastEventIdSent && refusesCursor(c.record.status));
        const firstRetry = retries[0];
        if (!firstRetry) continue;
        reported.add(refused.lastEventIdSent);
        reports.push({
          message: `cursor ${refused.lastEventIdSent} was refused on ${refused.id} (${refused.record.status}) and sent again ${retries.length} time(s), refused again each time (first ${firstRetry.id}).`,
          ...at(firstRetry),
        });
      }
    }
    return reports;
  },
};
