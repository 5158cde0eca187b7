// Runs anywhere (pure core): a model's events in time order, as stretches of its connections' table rows.
import { MovingEventView, TableEventView, type PlacedRun } from './event-view';
import type { EventList, EventView } from './types';

/** Whether `events` starts with the events of `old`, each unchanged (a later list of one analyzer, or the same). */
export function eventListContinues(events: EventList, old: EventList): boolean {
  if (events === old || old.length === 0) return true;
  if (events instanceof PlacedEvents) return events.continues(old);
  // Lists of another make (tests): the same objects at the same places.
  if (events.length < old.length) return false;
  for (let i = 0; i < old.length; i++) if (events.at(i) !== old.at(i)) return false;
  return true;
}

/** The order of a model's events: stretch k holds events indexFrom[k].. as rows rowFrom[k].. of run runOf[k]. */
export interface Stretches {
  runOf: Uint32Array;
  rowFrom: Uint32Array;
  indexFrom: Uint32Array;
}

/**
 * The events of a model: which run (connection) and row each index is, as maximal stretches of consecutive rows of
 * one run (a connection streaming alone is one stretch, however many events it has). Views are made on lookup.
 * Lists of one lineage extend each other: an analyzer that only appended events hands out a list with the same
 * lineage, whose first events are those of the last list (see continues).
 */
export class PlacedEvents implements EventList {
  readonly #lineage: object;

  constructor(
    lineage: object,
    readonly length: number,
    readonly runs: readonly PlacedRun[],
    readonly stretches: Stretches,
  ) {
    this.#lineage = lineage;
  }

  /** A longer list of the same lineage: `runs` and `stretches` hold this list's events, unchanged, and more. */
  extended(length: number, runs: readonly PlacedRun[], stretches: Stretches): PlacedEvents {
    return new PlacedEvents(this.#lineage, length, runs, stretches);
  }

  /** Whether this list's first events are those of `older`, each as it was. */
  continues(older: EventList): boolean {
    return older instanceof PlacedEvents && older.#lineage === this.#lineage && this.length >= older.length;
  }

  /** As Array.prototype.at: a negative index counts back from the end. */
  at(index: number): EventView | undefined {
    const relative = Math.trunc(index) || 0;
    const at = relative < 0 ? this.length + relative : relative;
    if (at < 0 || at >= this.length) return undefined;
    const k = this.stretchOf(at);
    const { runOf, rowFrom, indexFrom } = this.stretches;
    const run = this.runs[runOf[k] as number] as PlacedRun;
    return new TableEventView(run, (rowFrom[k] as number) + at - (indexFrom[k] as number), at);
  }

  /**
   * The time and the body offset of event `index` (0 <= index < length), read from its table without making a view:
   * the panel's timeline reads these two of every event, and a view reads a dozen fields (strings among them).
   */
  timeAt(index: number): number {
    const k = this.stretchOf(index);
    const { runOf, rowFrom, indexFrom } = this.stretches;
    const run = this.runs[runOf[k] as number] as PlacedRun;
    return run.table.time((rowFrom[k] as number) + index - (indexFrom[k] as number));
  }

  startAt(index: number): number {
    const k = this.stretchOf(index);
    const { runOf, rowFrom, indexFrom } = this.stretches;
    const run = this.runs[runOf[k] as number] as PlacedRun;
    return run.table.columns.start.at((rowFrom[k] as number) + index - (indexFrom[k] as number));
  }

  [Symbol.iterator](): Iterator<EventView> {
    return this.from(0);
  }

  /** The events from `index` on, in order, without a lookup per event. */
  from(index: number): Iterator<EventView> & Iterable<EventView> {
    return new Walk(this, Math.max(0, index));
  }

  /**
   * Calls `visit` with the events from `index` on, in order, through one view that moves from event to event: for
   * readers that keep nothing of the view past the call (an index kept elsewhere makes its own with at()).
   */
  visit(index: number, visit: (event: EventView) => void): void {
    if (index >= this.length) return;
    const view = new MovingEventView();
    const { runOf, rowFrom, indexFrom } = this.stretches;
    for (let k = stretchAt(indexFrom, Math.max(0, index)); k < runOf.length; k++) {
      const run = this.runs[runOf[k] as number] as PlacedRun;
      const first = indexFrom[k] as number;
      const end = indexFrom[k + 1] ?? this.length;
      const row = (rowFrom[k] as number) - first;
      for (let i = Math.max(first, index); i < end; i++) {
        view.moveTo(run, row + i, i);
        visit(view);
      }
    }
  }

  private stretchOf(index: number): number {
    return stretchAt(this.stretches.indexFrom, index);
  }
}

class Walk implements Iterator<EventView>, Iterable<EventView> {
  private stretch = -1;
  private stretchEnd = 0;

  constructor(
    private readonly list: PlacedEvents,
    private index: number,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<EventView> {
    const { list } = this;
    if (this.index >= list.length) return { done: true, value: undefined };
    const { runOf, rowFrom, indexFrom } = list.stretches;
    if (this.index >= this.stretchEnd) {
      this.stretch = this.stretch < 0 ? stretchAt(indexFrom, this.index) : this.stretch + 1;
      this.stretchEnd = indexFrom[this.stretch + 1] ?? list.length;
    }
    const k = this.stretch;
    const index = this.index++;
    const run = list.runs[runOf[k] as number] as PlacedRun;
    return {
      done: false,
      value: new TableEventView(run, (rowFrom[k] as number) + index - (indexFrom[k] as number), index),
    };
  }
}

/** The stretch holding `index` (binary search: stretches are few). */
function stretchAt(starts: Uint32Array, index: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((starts[mid] as number) <= index) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}
