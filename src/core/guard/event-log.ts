// Runs anywhere (pure core): a model's events as a list that only grows, and indexes that follow it event by event.
import { eventListContinues, PlacedEvents } from '../model/event-list';
import type { EventList, EventView } from '../model/types';

/**
 * An index built from events handed to it one at a time, in time order; nothing else goes into it. The view handed
 * over is good for the call only (the model's lists lend one view that moves on): an index keeps event indexes, and
 * makes the events it hands out again from them.
 */
export interface Follower {
  add(event: EventView): void;
}

const NO_EVENTS: EventList = { length: 0, at: () => undefined, [Symbol.iterator]: () => [][Symbol.iterator]() };

/**
 * The events of the models one analyzer saw, while each model's list continues the last one (a live capture grows
 * at the end, and the model hands out a list of the same lineage when it only appended). Indexes over it read only
 * the events that arrived since they were last asked; a list that does not continue the last needs a new log.
 */
export class EventLog {
  private list: EventList = NO_EVENTS;

  get events(): EventList {
    return this.list;
  }

  /** The event at `index`, made from the current list (for indexes that keep event indexes). */
  event(index: number): EventView {
    return this.list.at(index) as EventView;
  }

  /** Moves on to `events` when they start with the events so far; false, and no change, if not. */
  continueWith(events: EventList): boolean {
    if (!eventListContinues(events, this.list)) return false;
    this.list = events;
    return true;
  }
}

/** Hands the events of `list` from `start` on to `follower`; the model's lists lend one view that moves along. */
function feed(list: EventList, start: number, follower: Follower): void {
  if (list instanceof PlacedEvents) list.visit(start, (event) => follower.add(event));
  else for (let i = start; i < list.length; i++) follower.add(list.at(i) as EventView);
}

/** One kind of index: how to start one; each log gets its own, brought up to date whenever it is asked for. */
export class IndexKind<T extends Follower> {
  private readonly states = new WeakMap<EventLog, { index: T; consumed: number }>();

  constructor(private readonly make: (log: EventLog) => T) {}

  of(log: EventLog): T {
    let state = this.states.get(log);
    if (!state) {
      state = { index: this.make(log), consumed: 0 };
      this.states.set(log, state);
    }
    const { events } = log;
    if (state.consumed < events.length) feed(events, state.consumed, state.index);
    state.consumed = events.length;
    return state.index;
  }
}

/** One index per session or per connection: each event goes to the index of its key. */
export class ByKey<T extends Follower> implements Follower {
  private readonly byKey = new Map<string, T>();

  constructor(
    private readonly keyOf: (event: EventView) => string,
    private readonly make: () => T,
  ) {}

  add(event: EventView): void {
    this.get(this.keyOf(event)).add(event);
  }

  /** The index of this key (an empty one when no event had it yet). */
  get(key: string): T {
    let index = this.byKey.get(key);
    if (!index) {
      index = this.make();
      this.byKey.set(key, index);
    }
    return index;
  }
}

export const bySession = (event: EventView) => event.sessionKey;
export const byConnection = (event: EventView) => event.connectionId;
