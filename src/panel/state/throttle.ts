// Panel (pure): how long to wait before re-analysing while data streams in.

/** At least every 100 ms, and never spend more than about a third of the time analysing: wait twice the last cost. */
export function analysisDelay(msSinceLastRun: number, lastCostMs: number, floorMs = 100): number {
  const interval = Math.max(floorMs, 2 * lastCostMs);
  return Math.max(0, interval - msSinceLastRun);
}
