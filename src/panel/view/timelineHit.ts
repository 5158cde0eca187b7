// Panel (pure): what a click on the timeline lands on: a finding marker, an event tick, or a connection bar.
import { nearestTick, xOf, type TimeWindow } from './timeWindow';
import type { TimelineLayout } from './timeline';

export type TimelineHit =
  | { kind: 'finding'; findingIndex: number }
  | { kind: 'event'; eventIndex: number }
  | { kind: 'connection'; connectionId: string };

/** Geometry inside a row, shared with the renderer: markers sit above the bar. */
export const MARKER_BOTTOM = 7;
export const BAR_TOP = 7;
export const BAR_HEIGHT = 10;
/** A cut tail narrower than this is widened so it can be seen and clicked. */
export const MIN_TORN_WIDTH = 8;

export function hitTest(
  layout: TimelineLayout,
  window: TimeWindow,
  width: number,
  x: number,
  y: number,
): TimelineHit | undefined {
  const rowIndex = layout.rows.findIndex((r) => y >= r.y && y < r.y + r.height);
  const row = layout.rows[rowIndex];
  if (!row) return undefined;
  const inRow = y - row.y;
  let best: { index: number; dist: number } | undefined;
  for (const m of layout.markers) {
    if (m.rowIndex !== rowIndex) continue;
    const dist = Math.abs(xOf(window, width, m.time) - x);
    if (dist <= 6 && (!best || dist < best.dist)) best = { index: m.findingIndex, dist };
  }
  if (best && inRow < BAR_TOP + 2) return { kind: 'finding', findingIndex: best.index };
  const tick = nearestTick(row.ticks, window, width, x, 3);
  if (tick !== undefined) {
    const eventIndex = row.tickEvents[tick];
    if (eventIndex !== undefined) return { kind: 'event', eventIndex };
  }
  if (best) return { kind: 'finding', findingIndex: best.index };
  const x0 = xOf(window, width, row.start);
  const x1 = Math.max(
    xOf(window, width, row.end),
    row.torn ? xOf(window, width, row.torn.from) + MIN_TORN_WIDTH : -Infinity,
  );
  if (x >= x0 - 2 && x <= Math.max(x1, x0 + 2) + 2) return { kind: 'connection', connectionId: row.connectionId };
  return undefined;
}
