// Runs anywhere (pure core): rule stateless-session-headers.
import { headerValue } from '../../mcp/headers';
import { at, factsOf } from '../facts';
import type { Report, Rule } from '../types';

export const statelessSessionHeaders: Rule = {
  id: 'stateless-session-headers',
  severity: 'warning',
  title: 'Session or resumption headers in a stateless era',
  summary:
    'Protocol 2026-07-28 is stateless: no Mcp-Session-Id, no Last-Event-ID resumption. Using them means one side still assumes the old transport.',
  eras: ['2026-07-28'],
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const { connections } of facts.sessions) {
      const offenders = connections.filter(
        (c) =>
          headerValue(c.record.requestHeaders, 'mcp-session-id') !== undefined ||
          headerValue(c.record.requestHeaders, 'last-event-id') !== undefined ||
          headerValue(c.record.responseHeaders, 'mcp-session-id') !== undefined,
      );
      const first = offenders[0];
      if (!first) continue;
      const used = [
        offenders.some((c) => headerValue(c.record.requestHeaders, 'last-event-id') !== undefined)
          ? 'Last-Event-ID'
          : '',
        offenders.some(
          (c) =>
            headerValue(c.record.requestHeaders, 'mcp-session-id') !== undefined ||
            headerValue(c.record.responseHeaders, 'mcp-session-id') !== undefined,
        )
          ? 'Mcp-Session-Id'
          : '',
      ].filter(Boolean);
      reports.push({
        message: `${offenders.length} exchange(s) of a 2026-07-28 session use ${used.join(' and ')} (first ${first.id}).`,
        ...at(first),
      });
    }
    return reports;
  },
};
