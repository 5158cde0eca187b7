// Runs anywhere (pure core): what the ids of a sequence scheme (integer, epoch:seq) show, parsed once per event.
import { hasSequence, parseId, type IdScheme, type ParsedId } from '../ids/scheme';
import type { EventView } from '../model/types';
import { ByKey, bySession, type EventLog, type Follower } from './event-log';
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

/** A jump as kept: event indexes (the events are made when asked for). */
interface KeptJump {
  from: number;
  fromId: ParsedId;
  to: number;
  toId: ParsedId;
}

/**
 * The jumps of one connection's events: the only consecutive pairs that can leave numbers undelivered (any
 * other pair steps by one, goes back, changes epoch or does not parse), so rules check these instead of every pair.
 */
class Jumps {
  private lastEvent = -1;
  private lastId: ParsedId | undefined;
  readonly found: KeptJump[] = [];

  add(event: EventView, id: ParsedId): void {
    const [fromEvent, from] = [this.lastEvent, this.lastId];
    this.lastEvent = event.index;
    this.lastId = id;
    if (
      fromEvent >= 0 &&
      from?.seq !== undefined &&
      id.seq !== undefined &&
      from.epoch === id.epoch &&
      id.seq > from.seq + 1
    )
      this.found.push({ from: fromEvent, fromId: from, to: event.index, toId: id });
  }
}

/** Per session the numbers its events delivered, per connection the jumps of its ids, under one scheme. */
export class Sequences implements Follower {
  private readonly seen: ByKey<SeenNumbers>;
  private readonly jumps = new Map<string, Jumps>();

  constructor(
    private readonly scheme: IdScheme,
    private readonly log: EventLog,
  ) {
    this.seen = new ByKey(bySession, () => new SeenNumbers(scheme));
  }

  /** Sequence numbers one session's events delivered. */
  seenIn(sessionKey: string): SeenNumbers {
    return this.seen.get(sessionKey);
  }

  /** The jumps of one connection's ids (made on each call). */
  jumpsOf(connectionId: string): Jump[] {
    return (this.jumps.get(connectionId)?.found ?? []).map(({ from, fromId, to, toId }) => ({
      from: { event: this.log.event(from), id: fromId },
      to: { event: this.log.event(to), id: toId },
    }));
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
