// Runs anywhere (pure core): rule reconnect-storm.
import { RESUMABLE_ERAS } from '../../mcp/era';
import type { ConnectionView } from '../../model/types';
import { at, factsOf, type Facts, type SessionFacts } from '../facts';
import type { Report, Rule } from '../types';

/** Reconnects in a row, each delivering nothing new, before it is a storm (a refused resume is retried 2-3 times). */
export const STORM_RECONNECTS = 10;

/** Steady: the longest gap between two reconnects is at most twice the shortest, plus clock rounding (no backoff). */
function steady(starts: readonly number[]): boolean {
  const gaps = starts.slice(1).map((t, i) => t - (starts[i] as number));
  return Math.max(...gaps) <= 2 * Math.min(...gaps) + 50;
}

/** The connection delivered no message the session had not had before (priming events and keep-alives only). */
function noProgress(facts: Facts, session: SessionFacts, conn: ConnectionView): boolean {
  const news = facts.findEvent(
    conn,
    (e) => e.envelopes.length > 0 && (!e.hasId || session.ids.firstIndex(e.lastEventId) === e.index),
  );
  return news === undefined && conn.responseMessages.length === 0;
}

/** One series of reconnects: what was reconnected (for the message) and the reconnects, in order. */
interface ReconnectSeries {
  what: string;
  conns: ConnectionView[];
}

/**
 * Each series of reconnects of the session: a stream's resumes (its connections after the first); the standalone
 * GET stream opened again and again without a cursor (each opening a stream of its own in the model), as after an
 * idle close; and the standalone GET refused again and again (405, 400: a client that retries a refusal).
 */
function reconnectSeries(facts: Facts, session: SessionFacts): ReconnectSeries[] {
  const series: ReconnectSeries[] = [];
  for (const streamId of session.session.streamIds) {
    const conns = (facts.stream.get(streamId)?.connectionIds ?? []).flatMap((id) => facts.connection.get(id) ?? []);
    if (conns.length > 1) series.push({ what: `stream ${streamId}`, conns: conns.slice(1) });
  }
  const opens = session.connections.filter((c) => c.role === 'get' && c.lastEventIdSent === undefined);
  const reopened = opens.filter((c) => c.streamId !== undefined);
  if (reopened.length > 1) series.push({ what: `stream ${reopened[0]?.streamId ?? ''}`, conns: reopened.slice(1) });
  const refused = opens.filter((c) => c.streamId === undefined && (c.record.status ?? 0) >= 400);
  const statuses = [...new Set(refused.map((c) => c.record.status))].join('/');
  if (refused.length > 1)
    series.push({ what: `the standalone GET stream, refused ${statuses},`, conns: refused.slice(1) });
  return series;
}

export const reconnectStorm: Rule = {
  id: 'reconnect-storm',
  severity: 'warning',
  title: 'Reconnect storm',
  summary:
    'The client reconnected a stream again and again at a steady rate while nothing new arrived: no backoff, as a retry counter that resets on every clean end gives.',
  eras: RESUMABLE_ERAS,
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      for (const { what, conns: chain } of reconnectSeries(facts, session)) {
        // The longest run of reconnects in the chain that brought nothing new.
        let [runStart, bestStart, bestLength] = [0, 0, 0];
        for (const [i, conn] of chain.entries()) {
          if (!noProgress(facts, session, conn)) runStart = i + 1;
          else if (i + 1 - runStart > bestLength) [bestStart, bestLength] = [runStart, i + 1 - runStart];
        }
        const longest = chain.slice(bestStart, bestStart + bestLength);
        const starts = longest.map((c) => c.record.startTime);
        if (longest.length < STORM_RECONNECTS || !steady(starts)) continue;
        const first = longest[0] as ConnectionView;
        const last = longest.at(-1) as ConnectionView;
        const seconds = Math.max((last.record.startTime - first.record.startTime) / 1000, 0.001);
        const rate = ((longest.length - 1) / seconds).toFixed(1);
        reports.push({
          message: `${longest.length} reconnects of ${what} in ${seconds.toFixed(1)} s (${rate}/s), none delivering anything new (first ${first.id}, last ${last.id}): the client reconnects at a steady rate without progress or backoff.`,
          ...at(first),
        });
      }
    }
    return reports;
  },
};
