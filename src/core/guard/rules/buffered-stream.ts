// Runs anywhere (pure core): rule buffered-stream.
import { headerValue } from '../../mcp/headers';
import type { ConnectionView, EventView, Model } from '../../model/types';
import { at, factsOf } from '../facts';
import { span } from '../silence-facts';
import type { Report, Rule } from '../types';

/** Events that arrive within this much of each other came in one burst (a flush at the end may take a few chunks). */
const BURST_MS = 100;

interface Burst {
  progress: number;
  answered: boolean;
  priming: boolean;
  first: number;
  last: number;
}

/** What a connection's events were and when they came. */
function burstOf(model: Model, conn: ConnectionView): Burst {
  const burst: Burst = { progress: 0, answered: false, priming: false, first: Infinity, last: -Infinity };
  for (const index of conn.eventIndexes) {
    const event = model.events.at(index) as EventView;
    const envelopes = event.envelopes;
    const primingEvent = event.hasId && event.dataLength === 0;
    if (envelopes.length === 0 && !primingEvent) continue;
    burst.priming ||= primingEvent;
    burst.progress += envelopes.filter((e) => e.method === 'notifications/progress').length;
    burst.answered ||= envelopes.some((e) => e.kind === 'response' || e.kind === 'error');
    burst.first = Math.min(burst.first, event.time);
    burst.last = Math.max(burst.last, event.time);
  }
  return burst;
}

/** Why the stream was held, as far as its response head tells. */
function likelyCause(conn: ConnectionView): string {
  const encoding = headerValue(conn.record.responseHeaders, 'content-encoding');
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
    return `the response is ${encoding}-encoded: a compression step holds the stream until it flushes or ends`;
  return 'a buffering reverse proxy, or a compression step, held the stream until it ended';
}

export const bufferedStream: Rule = {
  id: 'buffered-stream',
  severity: 'warning',
  title: 'Stream held back, then delivered at once',
  summary:
    'Events the server wrote over time (progress, a priming event) reached the client in one burst with the answer, after a long wait: something in between buffered the stream.',
  check(model) {
    const facts = factsOf(model);
    const reports: Report[] = [];
    for (const session of facts.sessions) {
      for (const conn of session.connections) {
        const firstChunk = conn.record.chunks[0];
        // A plain HAR's body is one chunk at the end: that says nothing about when its events came.
        if (!conn.isSse || conn.role !== 'post' || !firstChunk || conn.record.chunkTimesUnknown) continue;
        const wait = firstChunk.t - conn.record.startTime;
        if (wait < model.silence.bufferedWaitMs) continue;
        const burst = burstOf(model, conn);
        // Only what the server must have written before its answer tells: progress over time, a priming event first.
        const written =
          burst.progress >= 2 ? `${burst.progress} progress notifications` : burst.priming ? 'priming event' : '';
        if (!burst.answered || written === '' || burst.last - burst.first > BURST_MS) continue;
        reports.push({
          message: `${conn.id}'s ${written} and its answer arrived together, ${span(wait)} after the request (within ${span(burst.last - burst.first)} of each other): ${likelyCause(conn)}. Send X-Accel-Buffering: no and Cache-Control: no-transform with text/event-stream, turn proxy buffering off (nginx proxy_buffering off), and keep compression off event streams.`,
          ...at(conn, { time: firstChunk.t }),
        });
      }
    }
    return reports;
  },
};
