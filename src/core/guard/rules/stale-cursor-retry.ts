// Runs anywhere (pure core): rule stale-cursor-retry.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { stripQuery } from '../../model/connection';
import { at, isResumeAttempt } from '../facts';
import type { Finding, Rule } from '../types';
import { wasRefused } from './resumption-rejected';

export const staleCursorRetry: Rule = {
  id: 'stale-cursor-retry',
  severity: 'warning',
  title: 'Refused cursor retried',
  summary: 'After the server refused a Last-Event-ID, the client sent the same cursor again instead of re-initializing: it will fail the same way every time.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const findings: Finding[] = [];
    const byStart = [...model.connections].sort((a, b) => a.record.startTime - b.record.startTime);
    const reported = new Set<string>();
    for (const [index, refused] of byStart.entries()) {
      if (!isResumeAttempt(refused) || !wasRefused(refused.record.status)) continue;
      const key = `${stripQuery(refused.record.url)} ${refused.lastEventIdSent}`;
      if (reported.has(key)) continue;
      const retries = byStart
        .slice(index + 1)
        .filter((c) => c.lastEventIdSent === refused.lastEventIdSent && stripQuery(c.record.url) === stripQuery(refused.record.url));
      const firstRetry = retries[0];
      if (!firstRetry) continue;
      reported.add(key);
      findings.push({
        rule: this.id,
        severity: this.severity,
        message: `cursor ${refused.lastEventIdSent} was refused on ${refused.id} (${refused.record.status}) and sent again ${retries.length} time(s), first on ${firstRetry.id}.`,
        ...at(firstRetry),
      });
    }
    return findings;
  },
};
