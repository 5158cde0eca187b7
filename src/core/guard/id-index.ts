// Runs anywhere (pure core): the event ids of one session: first deliveries, repeats, priming ids.
import type { EventView } from '../model/types';
import type { Follower } from './event-log';
import { FirstDeliveries } from './first-deliveries';

export interface Repeat {
  event: EventView;
  /** The first delivery of the same id. */
  earlier: EventView;
}

/** Several rules ask "was this id delivered before, and where first?": one index per session answers them all. */
export class IdIndex implements Follower {
  private readonly firsts = new FirstDeliveries();
  private readonly repeated: Repeat[] = [];
  private readonly primings = new Map<string, EventView>();

  /** The first delivery of this id (time order), if the session delivered it. */
  firstDelivery(id: string): EventView | undefined {
    return this.firsts.get(id);
  }

  /** Each event whose id the session already delivered, with that first delivery (time order). */
  get repeats(): readonly Repeat[] {
    return this.repeated;
  }

  /** Ids first delivered as 2025-11-25 priming events (an id and empty data), with that first delivery. */
  get priming(): ReadonlyMap<string, EventView> {
    return this.primings;
  }

  add(event: EventView): void {
    if (!event.hasId) return;
    const earlier = this.firsts.firstOr(event.lastEventId, event);
    if (earlier) this.repeated.push({ event, earlier });
    else if (event.data === '') this.primings.set(event.lastEventId, event);
  }
}
