// Panel (pure): a timeline row's ticks (its events' times, indexes and byte offsets), kept from one layout to the
// next. While events stream in, each analysis pass hands out an event list that continues the last one (its first
// events are the same, unchanged), so a connection's ticks only grow: reading only the new events keeps a pass's
// layout proportional to what arrived, not to everything held (100k events took 15-30 ms per pass to re-read).
import { PlacedEvents, eventListContinues } from '../../core/model/event-list';
import type { ConnectionView, EventList } from '../../core/model/types';

export interface Ticks {
  ticks: Float64Array;
  tickEvents: Int32Array;
  tickStarts: Float64Array;
  /**
   * Which growing arrays these are views of: ticks of one series only ever grow, so a later row of the same series
   * starts with every tick of an earlier one (the wire sends only the new ticks: tick-wire.ts). Unique in the worker.
   */
  tickSeries: number;
}

let lastSeries = 0;

interface Kept extends Ticks {
  /** Ticks filled, and how many of the connection's event indexes they cover (an index without an event is skipped). */
  count: number;
  covered: number;
}

export interface TickMemory {
  /** The ticks of `connection`'s events in `events`: views of arrays the memory keeps growing; copy to keep them. */
  of(events: EventList, connection: ConnectionView): Ticks;
}

function grown<T extends Float64Array | Int32Array>(array: T, count: number, make: (n: number) => T): T {
  if (array.length >= count) return array;
  const bigger = make(Math.max(count, array.length * 2, 64));
  bigger.set(array);
  return bigger;
}

export function createTickMemory(): TickMemory {
  let lastEvents: EventList | undefined;
  let kept = new Map<string, Kept>();

  return {
    of(events, connection) {
      if (lastEvents !== events) {
        // A list that does not continue the last one may have other events at the same indexes: start over.
        if (!(lastEvents && eventListContinues(events, lastEvents))) kept = new Map();
        lastEvents = events;
      }
      const indexes = connection.eventIndexes;
      let entry = kept.get(connection.id);
      const consistent =
        entry !== undefined &&
        entry.covered <= indexes.length &&
        (entry.count === 0 || entry.tickEvents[entry.count - 1] === indexes.at(entry.covered - 1));
      if (!entry || !consistent) {
        entry = {
          count: 0,
          covered: 0,
          ticks: new Float64Array(0),
          tickEvents: new Int32Array(0),
          tickStarts: new Float64Array(0),
          tickSeries: ++lastSeries,
        };
        kept.set(connection.id, entry);
      }
      if (entry.covered < indexes.length) {
        const need = entry.count + indexes.length - entry.covered;
        entry.ticks = grown(entry.ticks, need, (n) => new Float64Array(n));
        entry.tickEvents = grown(entry.tickEvents, need, (n) => new Int32Array(n));
        entry.tickStarts = grown(entry.tickStarts, need, (n) => new Float64Array(n));
        // The analyzer's list reads the two columns directly (a view per event was half this loop's cost).
        const placed = events instanceof PlacedEvents ? events : undefined;
        for (let k = entry.covered; k < indexes.length; k++) {
          const i = indexes.at(k) as number;
          if (placed && i >= 0 && i < placed.length) {
            entry.ticks[entry.count] = placed.timeAt(i);
            entry.tickStarts[entry.count] = placed.startAt(i);
          } else {
            const event = events.at(i);
            if (!event) continue;
            entry.ticks[entry.count] = event.time;
            entry.tickStarts[entry.count] = event.start;
          }
          entry.tickEvents[entry.count] = i;
          entry.count++;
        }
        entry.covered = indexes.length;
      }
      const n = entry.count;
      return {
        ticks: entry.ticks.subarray(0, n),
        tickEvents: entry.tickEvents.subarray(0, n),
        tickStarts: entry.tickStarts.subarray(0, n),
        tickSeries: entry.tickSeries,
      };
    },
  };
}
