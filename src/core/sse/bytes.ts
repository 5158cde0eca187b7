// Runs anywhere (pure core): byte helpers for the SSE parser; no DOM, no Node APIs.

/**
 * Copies bytes [from, to) (absolute stream offsets) out of contiguous views that start at `viewsStart`,
 * followed by `extra` (the part of the current chunk that belongs to the range, may be empty).
 */
export function copyRange(
  views: readonly Uint8Array[],
  viewsStart: number,
  from: number,
  to: number,
  extra?: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(to - from + (extra ? extra.length : 0));
  let written = 0;
  let viewStart = viewsStart;
  for (const view of views) {
    const viewEnd = viewStart + view.length;
    if (viewEnd > from && viewStart < to) {
      const a = Math.max(from, viewStart) - viewStart;
      const b = Math.min(to, viewEnd) - viewStart;
      out.set(a === 0 && b === view.length ? view : view.subarray(a, b), written);
      written += b - a;
    }
    viewStart = viewEnd;
  }
  if (extra) out.set(extra, written);
  return out;
}

/** True for a line that carries no field: empty or made only of spaces and tabs. */
export function isBlankText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false; // space, tab
  }
  return true;
}
