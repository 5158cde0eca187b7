// Panel (pure): the quiet stretches of a stream's row on the timeline: spans with no body byte, long enough to see.
// A user watches a hang happen here before any rule fires (request-hang waits 30 s by default), and sees the silence
// an idle proxy cut a stream after. Not a finding: a long but lively tool call shows no stretch, an idle GET stream
// shows one long one.
import type { ConnectionRecord } from '../../core/capture/model';

/**
 * A span with no byte shorter than this is the rhythm of a stream, not a silence worth drawing: the idle-timeout-cut
 * rule's default too (idle timeouts seen in the field start at 2 s, a tuned nginx's).
 */
export const QUIET_MARK_MS = 1_000;
/** At most this many stretches a row (the longest): a stream with a progress every few seconds stays readable. */
const MAX_QUIET_PER_ROW = 20;

export interface QuietStretch {
  /** Epoch ms of the last byte (or the response head) before the silence, and of the next byte or the row's end. */
  from: number;
  to: number;
  /** The stretch runs to now on an open connection a request still waits on: a hang as it happens. */
  waiting?: true;
}

/**
 * The row's quiet stretches, in time order: from its response head through each body chunk to its end (`end` for a
 * connection still open). Before the head, the bar's own waiting part already shows the wait.
 */
export function quietStretches(record: ConnectionRecord, end: number, waiting: boolean): QuietStretch[] {
  // A plain HAR's body is one chunk at the end: its silence is unknown, not measured.
  if (record.responseTime === undefined || record.chunkTimesUnknown) return [];
  const found: QuietStretch[] = [];
  let last = record.responseTime;
  for (const chunk of record.chunks) {
    if (chunk.t - last >= QUIET_MARK_MS) found.push({ from: last, to: chunk.t });
    last = Math.max(last, chunk.t);
  }
  const open = record.end === 'open';
  const to = open ? end : (record.endTime ?? end);
  if (to - last >= QUIET_MARK_MS)
    found.push({ from: last, to, ...(open && waiting ? { waiting: true as const } : {}) });
  if (found.length <= MAX_QUIET_PER_ROW) return found;
  const longest = new Set(
    found
      .slice()
      .sort((a, b) => b.to - b.from - (a.to - a.from))
      .slice(0, MAX_QUIET_PER_ROW),
  );
  return found.filter((q) => longest.has(q));
}
