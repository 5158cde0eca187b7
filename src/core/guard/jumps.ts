// Runs anywhere (pure core): what the ids of a sequence scheme (integer, epoch:seq) show, parsed once per event.
import { hasSequence, parseId, type IdScheme, type ParsedId } from '../ids/scheme';
import type { EventView } from '../model/types';
import { ByKey, bySession, type Follower } from './event-log';
import { SeenNumbers } from './seen-numbers';

export interface IdAt {
  event: EventView;
  id: ParsedId;
}

/** Two consecutive id events of a connection, the second more than one past the first in the same epoch. */
export interface Jump {
  from: IdAt;
  to: IdAt;
}

/**
 * The jumps of one connection's events: the only consecutive pairs that can leave numbers undelivered (any
 * other pair steps by one, goes back, changes epoch or does not parse), so rules check these instead of every pair.
 */
class Jumps {
  private lastEvent: EventView | undefined;
  private lastId: ParsedId | undefined;
  private readonly found: Jump[] = [];

  get list(): readonly Jump[] {
    return this.found;
  }

  add(event: EventView, id: ParsedId): void {
    const [fromEvent, from] = [this.lastEvent, this.lastId];
    this.lastEvent = event;
    this.lastId = id;
    if (
      fromEvent &&
      from?.seq !== undefined &&
      id.seq !== undefined &&
      from.epoch === id.epoch &&
      id.seq > from.seq + 1
    )
      this.found.push({ from: { event: fromEvent, id: from }, to: { event, id } });
  }
}

/** Per session the numbers its events delivered, per connection the jumps of its ids, under one scheme. */
export class Sequences implements Follower {
  private readonly seen: ByKey<SeenNumbers>;
  private readonly jumps = new Map<string, Jumps>();

  constructor(private readonly scheme: IdScheme) {
    this.seen = new ByKey(bySession, () => new SeenNumbers(scheme));
  }

  /** Sequence numbers one session's events delivered. */
  seenIn(sessionKey: string): SeenNumbers {
    return this.seen.get(sessionKey);
  }

  /** The jumps of one connection's ids. */
  jumpsOf(connectionId: string): readonly Jump[] {
    return this.jumps.get(connectionId)?.list ?? [];
  }

  add(event: EventView): void {
    // Other schemes have no numbers: nothing to count, no jumps.
    if (!event.hasId || !hasSequence(this.scheme)) return;
    const id = parseId(this.scheme, event.lastEventId);
    this.seen.get(event.sessionKey).addId(id);
    let jumps = this.jumps.get(event.connectionId);
    if (!jumps) this.jumps.set(event.connectionId, (jumps = new Jumps()));
    jumps.add(event, id);
  }
}
