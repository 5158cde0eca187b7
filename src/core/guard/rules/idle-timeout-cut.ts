// Runs anywhere (pure core): rule idle-timeout-cut.
import { lastActivity } from '../../model/silence';
import type { ConnectionView } from '../../model/types';
import { at, factsOf } from '../facts';
import { span } from '../silence-facts';
import type { Report, Rule } from '../types';

interface Cut {
  conn: ConnectionView;
  /** From the connection's last byte (or its response head) to its end. */
  silence: number;
}

/** Two silences are the same timeout when they differ by at most a tenth of the shorter, or 200 ms. */
const same = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(0.1 * Math.min(a, b), 200);

/** An event stream that ended without the client asking, after `idleCutMs` or more of silence. */
function cutAfterSilence(conn: ConnectionView, idleCutMs: number): Cut | undefined {
  const { record } = conn;
  if (!conn.isSse || record.endTime === undefined || record.end === 'aborted' || record.end === 'open')
    return undefined;
  // A server that ends a stream on purpose says when to come back (`retry:`); a cut says nothing.
  if (record.end === 'complete' && conn.retryMs !== undefined) return undefined;
  const silence = record.endTime - lastActivity(record);
  return silence >= idleCutMs ? { conn, silence } : undefined;
}

/** The cuts grouped by silence: each group's silences are the same timeout as its first (shortest). */
function bySilence(cuts: Cut[]): Cut[][] {
  const groups: Cut[][] = [];
  for (const cut of [...cuts].sort((a, b) => a.silence - b.silence)) {
    const group = groups.at(-1);
    if (group && same(group[0]?.silence ?? 0, cut.silence)) group.push(cut);
    else groups.push([cut]);
  }
  return groups;
}

export const idleTimeoutCut: Rule = {
  id: 'idle-timeout-cut',
  severity: 'warning',
  title: 'Cut after the same silence',
  summary:
    'Event streams ended, again and again, after the same stretch of silence with no byte in it: an idle timeout between client and server.',
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      const cuts = session.connections.flatMap((conn) => cutAfterSilence(conn, model.silence.idleCutMs) ?? []);
      for (const group of bySilence(cuts)) {
        if (group.length < 2) continue;
        const inOrder = [...group].sort((a, b) => a.conn.record.startTime - b.conn.record.startTime);
        const silences = inOrder.map((c) => `${Math.round(c.silence)} ms`).join(' / ');
        const shortest = span(group[0]?.silence ?? 0);
        const last = inOrder.at(-1) as Cut;
        reports.push({
          message: `${group.length} event streams ended after the same silence, about ${shortest} without a byte (${silences}: ${inOrder.map((c) => c.conn.id).join(', ')}): an idle timeout between client and server. Send keep-alive comments more often than every ${shortest}, or raise that timeout (nginx proxy_read_timeout, a load balancer's idle timeout).`,
          ...at(last.conn, { time: last.conn.record.endTime }),
        });
      }
    }
    return reports;
  },
};
