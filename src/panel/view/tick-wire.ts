// Panel (pure, both ends of the worker's messages): the timeline crosses from the worker with only the ticks the UI
// does not have yet. Each pass makes a new layout while events stream in, and sending every row's whole tick arrays
// with each view copied, transferred and freed ~7 MB a view at 300k events (20 views a second: fresh memory that
// costs a page fault per 4 KiB on this VM); a row of the same tick series as the one sent before carries only its
// new ticks, and the UI appends them to arrays it keeps growing.
import type { TimelineLayout, TimelineRow } from './timeline';

/** A row on the wire: its first `ticksFrom` ticks are those of the last row sent for its connection (same series). */
export type TimelineRowWire = TimelineRow & { ticksFrom: number };
export type TimelineWire = Omit<TimelineLayout, 'rows'> & { rows: TimelineRowWire[] };

interface Sent {
  series: number;
  count: number;
}

/** Worker side: what each connection's row holds at the UI, and the rows to send so it gets the rest. */
export function createTickSender(): (layout: TimelineLayout) => TimelineWire {
  const sent = new Map<string, Sent>();
  return (layout) => ({
    ...layout,
    rows: layout.rows.map((row) => {
      const before = sent.get(row.connectionId);
      const from = before && before.series === row.tickSeries && before.count <= row.ticks.length ? before.count : 0;
      sent.set(row.connectionId, { series: row.tickSeries, count: row.ticks.length });
      // Copies of the new ticks (slice): they are transferred, and the worker's own arrays keep growing.
      return {
        ...row,
        ticksFrom: from,
        ticks: row.ticks.slice(from),
        tickEvents: row.tickEvents.slice(from),
        tickStarts: row.tickStarts.slice(from),
      };
    }),
  });
}

/** The typed arrays of a layout on the wire, to transfer them with it (each row's arrays are its own). */
export function wireBuffers(layout: TimelineWire): ArrayBuffer[] {
  const out: ArrayBufferLike[] = [];
  for (const row of layout.rows) out.push(row.ticks.buffer, row.tickEvents.buffer, row.tickStarts.buffer);
  return out.filter((b): b is ArrayBuffer => b instanceof ArrayBuffer && b.byteLength > 0);
}

interface Held {
  series: number;
  count: number;
  ticks: Float64Array;
  tickEvents: Int32Array;
  tickStarts: Float64Array;
}

function appended<T extends Float64Array | Int32Array>(kept: T, count: number, tail: T, make: (n: number) => T): T {
  if (kept.length >= count + tail.length) {
    kept.set(tail, count); // past every view handed out: those end at `count`
    return kept;
  }
  const grown = make(Math.max(count + tail.length, kept.length * 2));
  grown.set(kept.subarray(0, count));
  grown.set(tail, count);
  return grown;
}

/**
 * UI side: the layouts as the worker made them, from what it sent. Rows are views of arrays kept growing, so an
 * earlier layout (still on screen until the next render) keeps its ticks. Throws when a row's ticks do not follow
 * what this side holds: the two ends got out of step, which the panel reports as a failure of its worker.
 */
export function createTickReceiver(): (wire: TimelineWire) => TimelineLayout {
  const held = new Map<string, Held>();
  return (wire) => ({
    ...wire,
    rows: wire.rows.map(({ ticksFrom, ...row }) => {
      let kept = held.get(row.connectionId);
      if (ticksFrom === 0) {
        kept = {
          series: row.tickSeries,
          count: 0,
          ticks: row.ticks,
          tickEvents: row.tickEvents,
          tickStarts: row.tickStarts,
        };
        kept.count = row.ticks.length;
      } else {
        if (!kept || kept.series !== row.tickSeries || kept.count !== ticksFrom) {
          throw new Error(`the timeline's ticks for ${row.connectionId} do not follow the ones received before`);
        }
        kept.ticks = appended(kept.ticks, kept.count, row.ticks, (n) => new Float64Array(n));
        kept.tickEvents = appended(kept.tickEvents, kept.count, row.tickEvents, (n) => new Int32Array(n));
        kept.tickStarts = appended(kept.tickStarts, kept.count, row.tickStarts, (n) => new Float64Array(n));
        kept.count += row.ticks.length;
      }
      held.set(row.connectionId, kept);
      return {
        ...row,
        ticks: kept.ticks.subarray(0, kept.count),
        tickEvents: kept.tickEvents.subarray(0, kept.count),
        tickStarts: kept.tickStarts.subarray(0, kept.count),
      };
    }),
  });
}
