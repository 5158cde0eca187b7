// Runs anywhere (pure core): rule post-stream-not-resumed.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { at, describeId, factsOf } from '../facts';
import { leftUnresumed, allStreamEnds } from '../reconnects';
import type { Report, Rule } from '../types';

export const postStreamNotResumed: Rule = {
  id: 'post-stream-not-resumed',
  severity: 'error',
  title: 'Closed POST stream never resumed',
  summary:
    'The server closed a POST response stream after an event id, before the answer, and the client neither resumed it (GET with Last-Event-ID) nor cancelled the request: the answer is lost.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const reports: Report[] = [];
    const blind = new Set(factsOf(model).sessions.flatMap((s) => (s.bodiesMissing ? [s.session.key] : [])));
    for (const end of allStreamEnds(model)) {
      if (!leftUnresumed(end) || blind.has(end.conn.sessionKey)) continue;
      const retry = end.retryMs !== undefined ? ` (retry: ${end.retryMs} ms)` : '';
      reports.push({
        message: `the server closed ${end.conn.id} (stream ${end.stream.id}, request ${end.waiting.map(describeId).join(', ')}) after event id ${end.lastId ?? ''}${retry} without the answer; the client neither resumed it with Last-Event-ID nor cancelled the request.`,
        ...at(end.conn, { time: end.endedAt }),
      });
    }
    return reports;
  },
};
