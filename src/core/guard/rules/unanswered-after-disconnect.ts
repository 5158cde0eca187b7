// Runs anywhere (pure core): rule unanswered-after-disconnect.
import { RESUMABLE_ERAS } from '../../mcp/era';
import { idKey } from '../../mcp/jsonrpc';
import { sameCall } from '../../model/reissues';
import type { ConnectionView } from '../../model/types';
import { cancelledRequests } from '../cancelled';
import { at, describeId, factsOf, type Facts, type SessionFacts } from '../facts';
import { leftUnresumed, streamEnds } from '../reconnects';
import type { Report, Rule } from '../types';

/** How the stream's last connection left the request unanswered. */
function howLost(conns: readonly ConnectionView[], last: ConnectionView): string {
  const status = last.record.status;
  if (conns.length === 1) {
    if (last.record.end === 'network-error')
      return `${last.id} broke (network error) before the answer and no resume followed`;
    if (last.tail) return `${last.id} closed in the middle of an event and no resume followed`;
    return `${last.id} closed without the answer and the client never resumed or polled it`;
  }
  if (status !== undefined && status >= 400)
    return `the resume on ${last.id} was refused (${status}) and the request was never sent again`;
  return `the last resume, ${last.id}, ended without the answer and nothing followed`;
}

/**
 * Whether every lost request was made again in a session that began after the loss: the client re-initialized and
 * called again, as the field reports prescribe after a refused resume (what the client guard's `recover` does).
 */
function sentAgainAfterReinitialize(
  facts: Facts,
  lostIn: SessionFacts,
  conns: readonly ConnectionView[],
  lost: readonly string[],
  endedAt: number,
): boolean {
  const calls = conns
    .flatMap((c) => c.requestMessages)
    .filter((m) => m.id !== undefined && lost.includes(idKey(m.id)))
    .map(sameCall);
  const later = new Set(
    facts.sessions
      .filter((other) => other !== lostIn && (other.connections[0]?.record.startTime ?? -Infinity) >= endedAt)
      .flatMap((other) => other.connections.flatMap((c) => c.requestMessages))
      .filter((m) => m.kind === 'request')
      .map(sameCall),
  );
  return calls.length > 0 && calls.every((call) => later.has(call));
}

export const unansweredAfterDisconnect: Rule = {
  id: 'unanswered-after-disconnect',
  severity: 'error',
  title: 'Request lost with its stream',
  summary:
    "A POST's response stream ended (broken, closed early, or its resume refused) before the answer to its request, and nothing after it delivered the answer.",
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      if (session.bodiesMissing) continue;
      const cancelled = cancelledRequests(session.connections);
      const deletes = session.connections.filter((c) => c.role === 'delete');
      // A POST stream the server closed after an id, neither resumed nor cancelled: post-stream-not-resumed says so.
      const unresumed = new Set(
        streamEnds(model, session, facts)
          .filter(leftUnresumed)
          .map((e) => e.stream.id),
      );
      for (const streamId of session.session.streamIds) {
        const stream = facts.stream.get(streamId);
        if (!stream || stream.kind !== 'post' || unresumed.has(stream.id)) continue;
        const conns = stream.connectionIds.flatMap((id) => facts.connection.get(id) ?? []);
        const last = conns.at(-1);
        if (!last || last.record.end === 'open') continue;
        const endedAt = last.record.endTime ?? last.record.responseTime ?? last.record.startTime;
        // Cancelled while its stream was alive: the client's choice. Cancelled after it ended: a timeout on a loss.
        const lost = stream.requestIds.filter(
          (id) => !session.answeredAt.has(idKey(id)) && !((cancelled.get(idKey(id)) ?? Infinity) <= endedAt),
        );
        if (lost.length === 0) continue;
        // The client's own choices: it aborted a stream (an error body it dropped does not count), or closed the session while the stream was alive
        // (a DELETE after the stream ended is cleanup after the loss, not a choice).
        if (
          conns.some((c) => c.isSse && c.record.end === 'aborted') ||
          deletes.some((d) => d.record.startTime <= endedAt) ||
          sentAgainAfterReinitialize(facts, session, conns, lost.map(idKey), endedAt)
        )
          continue;
        reports.push({
          message: `request ${lost.map(describeId).join(', ')} was never answered: ${howLost(conns, last)}.`,
          ...at(last, { time: endedAt }),
        });
      }
    }
    return reports;
  },
};
