// Runs anywhere (pure core): rule torn-event-reconnect.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, factsOf } from '../facts';
import type { Report, Rule } from '../types';

export const tornEventReconnect: Rule = {
  id: 'torn-event-reconnect',
  severity: 'warning',
  title: 'Torn event, then a reconnect',
  summary:
    'A connection ended in the middle of an SSE event and the client resumed that stream: the partial event must be discarded, never appended to.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const stream of model.streams) {
      const conns = stream.connectionIds.flatMap((id) => facts.connection.get(id) ?? []);
      for (const next of conns) {
        const cut = next.resumes !== undefined ? facts.connection.get(next.resumes) : undefined;
        const tail = cut?.tail;
        if (!cut || !tail || cut.record.end === 'open') continue;
        const held = tail.hasData
          ? `${tail.bytes.byteLength} bytes of an undispatched event with partial data`
          : `${tail.bytes.byteLength} bytes of an undispatched event (cut in its header lines, before any data)`;
        const id = tail.id !== undefined ? ` (id ${tail.id})` : '';
        const where: Report = {
          message: `${cut.id} ended holding ${held}${id}; the client resumed the stream on ${next.id} with Last-Event-ID ${next.lastEventIdSent ?? '(none)'}.`,
          ...at(cut, { byteOffset: tail.start, time: cut.record.endTime ?? cut.record.startTime }),
        };
        if (tail.id !== undefined) where.eventId = tail.id;
        reports.push(where);
      }
    }
    return reports;
  },
};
