// Runs anywhere (pure core): rule resume-after-answer.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { idKey } from '../../mcp/jsonrpc';
import type { ConnectionView, EventView } from '../../model/types';
import { at, describeId, factsOf, isResumeAttempt, type Facts } from '../facts';
import type { Report, Rule } from '../types';

/** The event of the stream's earlier connections that carried the answer to one of its requests. */
function answerEvent(
  facts: Facts,
  earlier: readonly ConnectionView[],
  ids: ReadonlySet<string>,
): EventView | undefined {
  for (const conn of earlier) {
    const found = facts.findEvent(conn, (e) =>
      e.envelopes.some(
        (m) => (m.kind === 'response' || m.kind === 'error') && m.id !== undefined && ids.has(idKey(m.id)),
      ),
    );
    if (found) return found;
  }
  return undefined;
}

/** What the answer was: a result, or a JSON-RPC error with its code. */
function answerKind(event: EventView | undefined): string {
  const message = event?.messages.find((m) => m.kind === 'response' || m.kind === 'error');
  if (!message) return 'its answer';
  if (message.kind === 'response') return `its result (event ${event?.lastEventId || 'without id'})`;
  const code = (message.value as { error?: { code?: unknown } }).error?.code;
  return `a JSON-RPC error${typeof code === 'number' ? ` ${code}` : ''} (event ${event?.lastEventId || 'without id'})`;
}

function outcome(conn: ConnectionView): string {
  const status = conn.record.status;
  if (status === undefined) return 'it got no response';
  if (status >= 400) return `the server answered ${status}`;
  const open = conn.record.end === 'open' ? ', and the GET stayed open' : '';
  return conn.eventIndexes.length === 0
    ? `the server answered ${status} with no event${open}`
    : `the server answered ${status}${open}`;
}

export const resumeAfterAnswer: Rule = {
  id: 'resume-after-answer',
  severity: 'warning',
  title: 'Resumed a stream that had answered',
  summary:
    'A client resumed (GET with Last-Event-ID) a POST stream that had already delivered the answer to its request, a result or a JSON-RPC error: a connection held open for nothing.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      for (const streamId of session.session.streamIds) {
        const stream = facts.stream.get(streamId);
        if (!stream || stream.kind !== 'post' || stream.requestIds.length === 0) continue;
        const conns = stream.connectionIds.flatMap((id) => facts.connection.get(id) ?? []);
        const answeredBy = (conn: ConnectionView) =>
          stream.requestIds.every((id) => (session.answeredAt.get(idKey(id)) ?? Infinity) <= conn.record.startTime);
        // One finding per stream, at its first needless resume; the others are counted.
        const needless = conns.filter((c) => isResumeAttempt(c) && answeredBy(c));
        const conn = needless[0];
        if (!conn) continue;
        const earlier = conns.slice(0, conns.indexOf(conn));
        const answer = answerEvent(facts, earlier, new Set(stream.requestIds.map(idKey)));
        const requests = stream.requestIds.map(describeId).join(', ');
        const more = needless.length > 1 ? ` It resumed it ${needless.length} times in all.` : '';
        reports.push({
          message: `${conn.id} resumed stream ${stream.id} (request ${requests}) with Last-Event-ID ${conn.lastEventIdSent} after the stream had delivered ${answerKind(answer)}; ${outcome(conn)}.${more}`,
          ...at(conn),
        });
      }
    }
    return reports;
  },
};
