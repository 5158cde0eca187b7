// Panel (pure): the events-table rows the UI thread holds: those of the current view version around the window
// shown, asked from the worker ahead of the scroll (several windows in the direction it moves, one behind), at most
// one request per missing range.
import { MAX_ROWS_PER_REQUEST, type EventRowData, type RowsWindow } from '../analysis/messages';

/** Rows kept at most; beyond, the farthest from the window shown go first. */
const KEEP = 3000;
/** Windows asked for ahead of the scroll direction (a fling moves several windows a frame). */
const AHEAD = 6;

export interface RowSnapshot {
  version: number;
  /** Rows in the shown list (all of them, not only those held). */
  count: number;
  at(position: number): EventRowData | undefined;
  /** The table shows [from, to): asks for what of it (and a viewport around it) is not held yet. */
  ensure(from: number, to: number): void;
}

export interface RowSource {
  /** What is held now; a new object after every change. */
  snapshot(): RowSnapshot;
  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export interface RowCache extends RowSource {
  /** Rows from the worker. A view's own window carries `count` and may start a new version; true when taken. */
  take(window: RowsWindow, count?: number): boolean;
}

export type RowRequest = (version: number, from: number, to: number) => void;

export function createRowCache(request: RowRequest): RowCache {
  let version = -1;
  let count = 0;
  let rows = new Map<number, EventRowData>();
  let asked: Array<{ from: number; to: number }> = [];
  let centre = 0;
  const listeners = new Set<() => void>();
  let current: RowSnapshot | undefined;

  const evict = () => {
    if (rows.size <= KEEP) return;
    const far = [...rows.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const position of far.slice(0, rows.size - KEEP)) rows.delete(position);
  };

  const ensure = (from: number, to: number) => {
    const down = from >= centre - ((to - from) >> 1);
    centre = (from + to) >> 1;
    const lo = Math.max(0, from);
    const hi = Math.min(count, to);
    let missing = false;
    for (let p = lo; p < hi && !missing; p++) missing = !rows.has(p);
    if (!missing || asked.some((a) => a.from <= lo && hi <= a.to)) return;
    const span = Math.max(1, hi - lo);
    const reach = Math.min(AHEAD * span, MAX_ROWS_PER_REQUEST - 2 * span);
    const range = {
      from: Math.max(0, lo - (down ? span : reach)),
      to: Math.min(count, hi + (down ? reach : span)),
    };
    asked.push(range);
    request(version, range.from, range.to);
  };

  return {
    take(window, newCount) {
      if (newCount !== undefined && window.version !== version) {
        version = window.version;
        rows = new Map();
        asked = [];
      }
      if (window.version !== version) return false;
      if (newCount !== undefined) count = newCount;
      window.rows.forEach((row, i) => rows.set(window.from + i, row));
      const end = window.from + window.rows.length;
      // The answer to a request starts where it asked (the worker only shortens it at the list's end).
      asked = asked.filter((a) => a.from !== window.from && !(window.from <= a.from && a.to <= end));
      evict();
      current = undefined;
      listeners.forEach((l) => l());
      return true;
    },
    snapshot() {
      const held = rows;
      current ??= { version, count, at: (position) => held.get(position), ensure };
      return current;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
