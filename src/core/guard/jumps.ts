// Runs anywhere (pure core): where one connection's event ids jump over numbers (integer and epoch:seq schemes).
import { parseId, type IdScheme, type ParsedId } from '../ids/scheme';
import type { EventView } from '../model/types';
import type { Follower } from './event-log';

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
export class Jumps implements Follower {
  private last: IdAt | undefined;
  private readonly found: Jump[] = [];

  constructor(private readonly scheme: IdScheme) {}

  get list(): readonly Jump[] {
    return this.found;
  }

  add(event: EventView): void {
    if (!event.hasId) return;
    const to = { event, id: parseId(this.scheme, event.lastEventId) };
    const from = this.last;
    this.last = to;
    const [a, b] = [from?.id.seq, to.id.seq];
    if (from && a !== undefined && b !== undefined && from.id.epoch === to.id.epoch && b > a + 1)
      this.found.push({ from, to });
  }
}
