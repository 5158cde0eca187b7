// Runs anywhere (pure core): rule stateless-event-ids.
import type { EventView } from '../../model/types';
import { at } from '../facts';
import { statelessSessions } from '../stateless';
import type { Report, Rule } from '../types';

export const statelessEventIds: Rule = {
  id: 'stateless-event-ids',
  severity: 'warning',
  title: 'SSE event ids or retry in a stateless era',
  summary:
    'Protocol 2026-07-28 removed SSE event ids and resumption: an id: or retry: field on its streams invites a Last-Event-ID reconnect that nothing will honor.',
  eras: ['2026-07-28'],
  check(model) {
    const reports: Report[] = [];
    for (const session of statelessSessions(model)) {
      for (const conn of session.connections) {
        let first: EventView | undefined;
        let count = 0;
        for (const index of conn.eventIndexes) {
          const event = model.events.at(index);
          if (!event || (!event.hasId && event.retry === undefined)) continue;
          first ??= event;
          count += 1;
        }
        if (!first) continue;
        const fields = [
          first.hasId ? `id: ${first.lastEventId}` : '',
          first.retry === undefined ? '' : `retry: ${first.retry}`,
        ]
          .filter(Boolean)
          .join(', ');
        reports.push({
          message: `${count} event(s) on ${conn.id} carry SSE id or retry fields (first: ${fields}).`,
          ...at(conn, {
            eventId: first.hasId ? first.lastEventId : undefined,
            byteOffset: first.start,
            time: first.time,
          }),
        });
      }
    }
    return reports;
  },
};
