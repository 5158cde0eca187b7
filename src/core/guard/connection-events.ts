// Runs anywhere (pure core): per connection, the few of its events rules look for.
import { parseId } from '../ids/scheme';
import type { EventView } from '../model/types';
import type { Follower } from './event-log';

/** Of one connection's events: the first that carried an id and the first of type `error`. */
export class ConnectionSummary implements Follower {
  private firstWithId: EventView | undefined;
  private firstOfTypeError: EventView | undefined;

  /** The first event that carried its own id. */
  get firstId(): EventView | undefined {
    return this.firstWithId;
  }

  /** The first `event: error` (how some servers refuse a resume inside a 200). */
  get firstError(): EventView | undefined {
    return this.firstOfTypeError;
  }

  add(event: EventView): void {
    if (event.hasId) this.firstWithId ??= event;
    if (event.type === 'error') this.firstOfTypeError ??= event;
  }
}

/** The first event of each epoch (undefined: an id that is not epoch:seq) among one connection's id events. */
export class EpochStarts implements Follower {
  private readonly firsts = new Map<string | undefined, EventView>();

  /** The earliest id event whose epoch is not `epoch`. */
  firstOutside(epoch: string): EventView | undefined {
    let found: EventView | undefined;
    for (const [key, event] of this.firsts) if (key !== epoch && (!found || event.index < found.index)) found = event;
    return found;
  }

  add(event: EventView): void {
    if (!event.hasId) return;
    const { epoch } = parseId('epoch-seq', event.lastEventId);
    if (!this.firsts.has(epoch)) this.firsts.set(epoch, event);
  }
}

/** Events whose data is not one JSON-RPC message, in time order. */
export class ParseErrors implements Follower {
  private readonly list: EventView[] = [];

  get events(): readonly EventView[] {
    return this.list;
  }

  add(event: EventView): void {
    if (event.parseError !== undefined) this.list.push(event);
  }
}
