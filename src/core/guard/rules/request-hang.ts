// Runs anywhere (pure core): rule request-hang.
import { idKey } from '../../mcp/jsonrpc';
import type { JsonRpcId } from '../../mcp/types';
import { lastActivity } from '../../model/silence';
import type { ConnectionView } from '../../model/types';
import { cancelledRequests } from '../cancelled';
import { at, describeId, factsOf, type Facts } from '../facts';
import { lastMessageTime, span } from '../silence-facts';
import type { Report, Rule } from '../types';

/** The connection that carries the request's stream now: the stream's latest connection (a resume), else its own. */
function currentConnection(facts: Facts, conn: ConnectionView): ConnectionView {
  const stream = conn.streamId === undefined ? undefined : facts.stream.get(conn.streamId);
  const last = stream?.connectionIds.at(-1);
  return (last === undefined ? undefined : facts.connection.get(last)) ?? conn;
}

export const requestHang: Rule = {
  id: 'request-hang',
  severity: 'warning',
  title: 'Request hangs',
  summary:
    'A request is still unanswered while its stream stays open and has sent no message for longer than the hang threshold.',
  check(model) {
    const facts = factsOf(model);
    const until = model.observedUntil;
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      if (session.bodiesMissing) continue;
      const cancelled = cancelledRequests(session.connections);
      for (const conn of session.connections) {
        if (conn.record.method !== 'POST') continue;
        const waiting = conn.requestMessages
          .filter((m) => m.kind === 'request' && m.id !== undefined)
          .filter((m) => !session.answeredAt.has(idKey(m.id as JsonRpcId)) && !cancelled.has(idKey(m.id as JsonRpcId)));
        if (waiting.length === 0) continue;
        const current = currentConnection(facts, conn);
        if (current.record.end !== 'open') continue;
        // Keep-alive comments and priming events keep a connection alive, not the request: only a message counts.
        const lastMessage = lastMessageTime(model, current) ?? current.record.responseTime ?? current.record.startTime;
        const quiet = until - lastMessage;
        if (quiet < model.silence.hangMs) continue;
        const ids = waiting.map((m) => `${describeId(m.id as JsonRpcId)} (${m.method ?? '?'})`).join(', ');
        const head = current.record.status === undefined ? 'has had no response yet' : `${current.id} is open`;
        const lastByte = until - lastActivity(current.record);
        reports.push({
          message: `request ${ids} has waited ${span(until - conn.record.startTime)} unanswered: ${head} and sent no message for ${span(quiet)} (its last byte ${span(lastByte)} ago).`,
          ...at(current, { time: until }),
        });
      }
    }
    return reports;
  },
};
