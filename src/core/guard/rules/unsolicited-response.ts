// Runs anywhere (pure core): rule unsolicited-response.
import { idKey } from '../../mcp/jsonrpc';
import type { ConnectionView, EventView } from '../../model/types';
import type { JsonRpcEnvelope, JsonRpcId } from '../../mcp/types';
import { at, describeId, factsOf, isResumeAttempt, type Facts, type SessionFacts } from '../facts';
import type { Report, Rule } from '../types';

type Step =
  | { time: number; kind: 'sent'; id: JsonRpcId }
  | { time: number; kind: 'answer'; id: JsonRpcId; conn: ConnectionView; event?: EventView };

function answers(messages: readonly JsonRpcEnvelope[]): JsonRpcId[] {
  return messages.flatMap((m) => ((m.kind === 'response' || m.kind === 'error') && m.id !== undefined ? [m.id] : []));
}

/**
 * A stream whose original POST is not in the capture (capture started mid-session): its answers cannot be matched.
 * Not when the capture holds the session's initialize: it saw the session from its start, so a resume of a stream
 * it never saw opened (a cursor of another session or epoch) replays answers to requests this session never sent.
 */
function originMissing(facts: Facts, session: SessionFacts, streamId: string): boolean {
  if (session.initialized) return false;
  const first = facts.stream.get(streamId)?.connectionIds[0];
  const conn = first !== undefined ? facts.connection.get(first) : undefined;
  return conn !== undefined && isResumeAttempt(conn);
}

/** Client requests and server answers of one session in time order; replayed event ids are left to other rules. */
function timeline(session: SessionFacts, facts: Facts): Step[] {
  const steps: Step[] = [];
  for (const conn of session.connections) {
    for (const message of conn.requestMessages) {
      if (message.kind === 'request' && message.id !== undefined)
        steps.push({ time: conn.record.startTime, kind: 'sent', id: message.id });
    }
    const time = conn.record.responseTime ?? conn.record.startTime;
    for (const id of answers(conn.responseMessages)) steps.push({ time, kind: 'answer', id, conn });
  }
  for (const event of session.messages.answers) {
    const replay = event.hasId && session.ids.firstIndex(event.lastEventId) !== event.index;
    const conn = facts.connection.get(event.connectionId);
    if (replay || !conn || originMissing(facts, session, event.streamId)) continue;
    for (const id of answers(event.envelopes)) steps.push({ time: event.time, kind: 'answer', id, conn, event });
  }
  // Stable: a request and its answer at the same instant keep request-first order.
  return steps
    .map((step, order) => ({ step, order }))
    .sort((a, b) => a.step.time - b.step.time || a.order - b.order)
    .map(({ step }) => step);
}

export const unsolicitedResponse: Rule = {
  id: 'unsolicited-response',
  severity: 'error',
  title: 'Response to no outstanding request',
  summary:
    'A response arrived whose id matches no outstanding client request of the session: an answer from another epoch or session, or a second answer to one request.',
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      // Without the client's requests (capture started mid-session) every answer would look unsolicited.
      if (session.clientRequests.size === 0) continue;
      const outstanding = new Map<string, number>();
      const everSent = new Set<string>();
      for (const step of timeline(session, facts)) {
        const key = idKey(step.id);
        if (step.kind === 'sent') {
          outstanding.set(key, (outstanding.get(key) ?? 0) + 1);
          everSent.add(key);
          continue;
        }
        const open = outstanding.get(key) ?? 0;
        if (open > 0) {
          outstanding.set(key, open - 1);
          continue;
        }
        const event = step.event;
        reports.push({
          message: everSent.has(key)
            ? `a second answer to request ${describeId(step.id)} arrived on ${step.conn.id}.`
            : `response id ${describeId(step.id)} on ${step.conn.id} matches no request this session sent.`,
          ...at(
            step.conn,
            event
              ? { byteOffset: event.start, time: event.time, ...(event.hasId ? { eventId: event.lastEventId } : {}) }
              : {},
          ),
        });
      }
    }
    return reports;
  },
};
