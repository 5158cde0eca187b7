// Runs anywhere (pure core): a model's events as a list that only grows, and indexes that follow it event by event.
import type { EventView } from '../model/types';

/** An index built from events handed to it one at a time, in time order; nothing else goes into it. */
export interface Follower {
  add(event: EventView): void;
}

/**
 * The events of the models one analyzer saw, while each model's list starts with the last one's (a live capture
 * grows at the end, and the model hands out the same view objects for unchanged events). Indexes over it read only
 * the events that arrived since they were last asked; a list that does not continue the last needs a new log.
 */
export class EventLog {
  private list: readonly EventView[] = [];

  get events(): readonly EventView[] {
    return this.list;
  }

  /** Moves on to `events` when they start with the events so far (by identity); false, and no change, if not. */
  continueWith(events: readonly EventView[]): boolean {
    const old = this.list;
    if (events !== old) {
      if (events.length < old.length) return false;
      for (let i = 0; i < old.length; i++) if (events[i] !== old[i]) return false;
    }
    this.list = events;
    return true;
  }
}

/** One kind of index: how to start one; each log gets its own, brought up to date whenever it is asked for. */
export class IndexKind<T extends Follower> {
  private readonly states = new WeakMap<EventLog, { index: T; consumed: number }>();

  constructor(private readonly make: () => T) {}

  of(log: EventLog): T {
    let state = this.states.get(log);
    if (!state) {
      state = { index: this.make(), consumed: 0 };
      this.states.set(log, state);
    }
    const { events } = log;
    for (let i = state.consumed; i < events.length; i++) state.index.add(events[i] as EventView);
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
