// Runs anywhere (pure core): the event ids of one session: first deliveries, repeats, priming ids.
import type { EventView } from '../model/types';
import type { EventLog, Follower } from './event-log';
import { FirstDeliveries } from './first-deliveries';

export interface Repeat {
  event: EventView;
  /** The first delivery of the same id. */
  earlier: EventView;
}

/**
 * Several rules ask "was this id delivered before, and where first?": one index per session answers them all. It
 * keeps event indexes (an analyzer keeps it between analyses); events are made when asked for.
 */
export class IdIndex implements Follower {
  private readonly firsts: FirstDeliveries;
  private readonly repeated: number[] = [];
  private readonly repeatedFirst: number[] = [];
  private readonly made: Repeat[] = [];
  private readonly primings = new Map<string, number>();

  constructor(private readonly log: EventLog) {
    this.firsts = new FirstDeliveries((index) => log.event(index).lastEventId);
  }

  /** The index of the first delivery of this id (time order), if the session delivered it. */
  firstIndex(id: string): number | undefined {
    return this.firsts.get(id);
  }

  /** The first delivery of this id (time order), if the session delivered it. */
  firstDelivery(id: string): EventView | undefined {
    const index = this.firsts.get(id);
    return index === undefined ? undefined : this.log.event(index);
  }

  /**
   * Each event whose id the session already delivered, with that first delivery (time order). Kept and extended
   * with the repeats added since the last call: the log's events never change, and making the views anew on every
   * analysis pass (three rules ask) was most of a pass's cost on a server that numbers every stream from 1.
   */
  get repeats(): readonly Repeat[] {
    for (let k = this.made.length; k < this.repeated.length; k++) {
      this.made.push({
        event: this.log.event(this.repeated[k] as number),
        earlier: this.log.event(this.repeatedFirst[k] as number),
      });
    }
    return this.made;
  }

  /** The index of the first delivery of `id` when it was a 2025-11-25 priming event (an id and empty data). */
  primingIndex(id: string): number | undefined {
    return this.primings.get(id);
  }

  add(event: EventView): void {
    if (!event.hasId) return;
    const earlier = this.firsts.firstOr(event.lastEventId, event.index);
    if (earlier !== undefined) {
      this.repeated.push(event.index);
      this.repeatedFirst.push(earlier);
    } else if (event.dataLength === 0) this.primings.set(event.lastEventId, event.index);
  }
}
