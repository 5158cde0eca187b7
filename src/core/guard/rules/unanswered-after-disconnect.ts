// Runs anywhere (pure core): rule unanswered-after-disconnect.
import { isResumableEra, RESUMABLE_ERAS } from '../../mcp/era';
import { idKey } from '../../mcp/jsonrpc';
import { cancelledRequests } from '../cancelled';
import { at, describeId, factsOf } from '../facts';
import type { Finding, Rule } from '../types';

export const unansweredAfterDisconnect: Rule = {
  id: 'unanswered-after-disconnect',
  severity: 'error',
  title: 'Request lost with its stream',
  summary: "A POST's response stream broke before the answer and the client never resumed it: the in-flight request is lost silently.",
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const findings: Finding[] = [];
    for (const session of facts.sessions) {
      if (!isResumableEra(session.session.era)) continue;
      const cancelled = cancelledRequests(session.connections);
      for (const stream of model.streams) {
        if (stream.sessionKey !== session.session.key || stream.kind !== 'post' || stream.connectionIds.length !== 1) continue;
        const conn = facts.connection.get(stream.connectionIds[0] ?? '');
        // An abort is the client's own doing (often a cancellation); a network error is not.
        if (!conn || conn.record.end !== 'network-error') continue;
        const lost = stream.requestIds.filter((id) => !session.answeredAt.has(idKey(id)) && !cancelled.has(idKey(id)));
        if (lost.length === 0) continue;
        findings.push({
          rule: this.id,
          severity: this.severity,
          message: `${conn.id} broke (network error) before answering request ${lost.map(describeId).join(', ')} and no resume of its stream followed.`,
          ...at(conn, { time: conn.record.endTime ?? conn.record.startTime }),
        });
      }
    }
    return findings;
  },
};
