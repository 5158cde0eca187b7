// Runs anywhere (pure core): per connection, the few of its events rules look for (kept as event indexes).
import { parseId } from '../ids/scheme';
import type { EventView } from '../model/types';
import type { EventLog, Follower } from './event-log';

/** Of one connection's events: the first that carried an id and the first of type `error`. */
export class ConnectionSummary implements Follower {
  private firstWithId = -1;
  private firstOfTypeError = -1;

  /** @param log where the events are made from (undefined: a summary of no events). */
  constructor(private readonly log?: EventLog) {}

  /** The first event that carried its own id. */
  get firstId(): EventView | undefined {
    return this.firstWithId < 0 ? undefined : this.log?.event(this.firstWithId);
  }

  /** The first `event: error` (how some servers refuse a resume inside a 200). */
  get firstError(): EventView | undefined {
    return this.firstOfTypeError < 0 ? undefined : this.log?.event(this.firstOfTypeError);
  }

  add(event: EventView): void {
    if (event.hasId && this.firstWithId < 0) this.firstWithId = event.index;
    if (event.type === 'error' && this.firstOfTypeError < 0) this.firstOfTypeError = event.index;
  }
}

/** The first event of each epoch (undefined: an id that is not epoch:seq) among one connection's id events. */
export class EpochStarts implements Follower {
  private readonly firsts = new Map<string | undefined, number>();

  constructor(private readonly log?: EventLog) {}

  /** The earliest id event whose epoch is not `epoch`. */
  firstOutside(epoch: string): EventView | undefined {
    let found: number | undefined;
    for (const [key, index] of this.firsts) if (key !== epoch && (found === undefined || index < found)) found = index;
    return found === undefined ? undefined : this.log?.event(found);
  }

  add(event: EventView): void {
    if (!event.hasId) return;
    const { epoch } = parseId('epoch-seq', event.lastEventId);
    if (!this.firsts.has(epoch)) this.firsts.set(epoch, event.index);
  }
}

/** Events whose data is not one JSON-RPC message, in time order. */
export class ParseErrors implements Follower {
  private readonly list: number[] = [];

  constructor(private readonly log: EventLog) {}

  /** The events (made on each call). */
  get events(): EventView[] {
    return this.list.map((index) => this.log.event(index));
  }

  add(event: EventView): void {
    if (event.parseError !== undefined) this.list.push(event.index);
  }
}
