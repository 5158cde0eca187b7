// Panel (pure): the visible time window of the timeline, its zoom and pan, axis ticks, and tick thinning.

/** Visible span in epoch ms. */
export interface TimeWindow {
  from: number;
  to: number;
}

/** Smallest span the timeline zooms into: 0.1 ms. */
export const MIN_SPAN = 0.1;

export function xOf(window: TimeWindow, width: number, t: number): number {
  return ((t - window.from) / (window.to - window.from)) * width;
}

export function tOf(window: TimeWindow, width: number, x: number): number {
  return window.from + (x / width) * (window.to - window.from);
}

/** The whole extent with a little air on both sides. */
export function fitWindow(start: number, end: number): TimeWindow {
  const span = Math.max(end - start, 1);
  const pad = span * 0.03;
  return { from: start - pad, to: end + pad };
}

/** Zoom by `factor` (<1 zooms in) keeping the time under the pointer (`anchor`) where it is. */
export function zoomAround(window: TimeWindow, factor: number, anchor: number, bounds: TimeWindow): TimeWindow {
  const span = window.to - window.from;
  const maxSpan = bounds.to - bounds.from;
  const newSpan = Math.min(Math.max(span * factor, MIN_SPAN), Math.max(maxSpan, MIN_SPAN));
  const ratio = span > 0 ? (anchor - window.from) / span : 0.5;
  const from = anchor - ratio * newSpan;
  return clampWindow({ from, to: from + newSpan }, bounds);
}

export function panBy(window: TimeWindow, dt: number, bounds: TimeWindow): TimeWindow {
  return clampWindow({ from: window.from + dt, to: window.to + dt }, bounds);
}

/** Keeps the span, slides the window inside the bounds (a window wider than the bounds is centred on them). */
export function clampWindow(window: TimeWindow, bounds: TimeWindow): TimeWindow {
  const span = window.to - window.from;
  const boundSpan = bounds.to - bounds.from;
  if (span >= boundSpan) {
    const mid = (bounds.from + bounds.to) / 2;
    return { from: mid - span / 2, to: mid + span / 2 };
  }
  if (window.from < bounds.from) return { from: bounds.from, to: bounds.from + span };
  if (window.to > bounds.to) return { from: bounds.to - span, to: bounds.to };
  return window;
}

/** Slides the window (same zoom) so t sits inside it with a margin; unchanged when already visible. */
export function ensureVisible(window: TimeWindow, t: number, bounds: TimeWindow, margin = 0.1): TimeWindow {
  const span = window.to - window.from;
  const inset = span * margin;
  if (t >= window.from + inset && t <= window.to - inset) return window;
  return clampWindow({ from: t - span / 2, to: t + span / 2 }, bounds);
}

/** Round axis steps (1, 2, 5 x 10^n ms) giving about `count` ticks over the window. */
export function niceTicks(window: TimeWindow, origin: number, count: number): { step: number; ticks: number[] } {
  const span = window.to - window.from;
  if (!(span > 0) || count < 1) return { step: 0, ticks: [] };
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  // Ticks sit at round offsets from the origin (the session start), not round epoch times.
  const first = Math.ceil((window.from - origin) / step) * step + origin;
  // By index, and never more than the window holds: at epoch ms near a Date's limit a step below the float's
  // resolution left `t += step` where it was, and the loop pushed ticks until memory ran out.
  const limit = Math.ceil(span / step) + 2;
  for (let k = 0; k <= limit; k++) {
    const t = first + k * step;
    if (t > window.to + step * 1e-9) break;
    if (t !== ticks.at(-1)) ticks.push(t);
  }
  return { step, ticks };
}

/**
 * Event ticks thinned to one per pixel column: 100k events on an 800 px lane draw at most 800 marks.
 * `times` ascending; returns [x, index into times] pairs for the visible ones.
 */
export function pixelTicks(times: ArrayLike<number>, window: TimeWindow, width: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let lastX = -Infinity;
  const lo = lowerBound(times, window.from);
  for (let i = lo; i < times.length; i++) {
    const t = times[i] as number;
    if (t > window.to) break;
    const x = Math.round(xOf(window, width, t));
    if (x === lastX) continue;
    lastX = x;
    out.push([x, i]);
  }
  return out;
}

export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The event tick nearest to x within `slop` px, as an index into times, or undefined. */
export function nearestTick(
  times: ArrayLike<number>,
  window: TimeWindow,
  width: number,
  px: number,
  slop: number,
): number | undefined {
  const t = tOf(window, width, px);
  const i = lowerBound(times, t);
  let best: number | undefined;
  let bestDist = Infinity;
  for (const j of [i - 1, i]) {
    const tj = times[j];
    if (tj === undefined) continue;
    const dist = Math.abs(xOf(window, width, tj) - px);
    if (dist < bestDist) {
      best = j;
      bestDist = dist;
    }
  }
  if (best === undefined || bestDist > slop) return undefined;
  // Events a pixel apart (often dispatched by one chunk) draw as one tick: a click picks the first of them.
  const x = xOf(window, width, times[best] as number);
  while (best > 0 && x - xOf(window, width, times[best - 1] as number) < 1) best--;
  return best;
}
