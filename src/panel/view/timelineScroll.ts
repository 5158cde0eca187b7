// Panel (pure): how many timeline rows are scrolled out of view above and below, for the "more rows" affordance
// (a row counts as hidden when less than half of it shows).
import type { TimelineRow } from './timeline';

export interface RowsOutOfView {
  above: number;
  below: number;
  /** scrollTop that brings the first hidden row below into view (undefined when none is hidden). */
  nextBelowTop?: number;
}

export function rowsOutOfView(
  rows: readonly Pick<TimelineRow, 'y' | 'height'>[],
  scrollTop: number,
  viewport: number,
): RowsOutOfView {
  let above = 0;
  let below = 0;
  let nextBelowTop: number | undefined;
  for (const r of rows) {
    const middle = r.y + r.height / 2;
    if (middle < scrollTop) above++;
    else if (middle > scrollTop + viewport) {
      below++;
      if (nextBelowTop === undefined) nextBelowTop = r.y + r.height - viewport;
    }
  }
  return { above, below, ...(nextBelowTop !== undefined ? { nextBelowTop: Math.max(0, nextBelowTop) } : {}) };
}
