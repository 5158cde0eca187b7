// Runs anywhere (pure core): helpers for rules over ordered ids (integer and epoch:seq schemes).
import { hasSequence, parseId, type IdScheme, type ParsedId } from '../../ids/scheme';
import type { EventView } from '../../model/types';

/** Sequence numbers delivered, per epoch, sorted: numbers other streams consumed are not gaps. */
export class SeenNumbers {
  private readonly byEpoch = new Map<string, number[]>();

  constructor(events: Iterable<EventView>, scheme: IdScheme) {
    if (!hasSequence(scheme)) return;
    for (const event of events) {
      if (!event.hasId) continue;
      const parsed = parseId(scheme, event.lastEventId);
      if (parsed.seq === undefined) continue;
      const list = this.byEpoch.get(parsed.epoch ?? '') ?? [];
      list.push(parsed.seq);
      this.byEpoch.set(parsed.epoch ?? '', list);
    }
    for (const [epoch, list] of this.byEpoch)
      this.byEpoch.set(
        epoch,
        [...new Set(list)].sort((a, b) => a - b),
      );
  }

  /** How many distinct numbers strictly between `low` and `high` were delivered in `epoch`. */
  countBetween(epoch: string, low: number, high: number): number {
    const list = this.byEpoch.get(epoch) ?? [];
    return lowerBound(list, high) - lowerBound(list, low + 1);
  }

  has(epoch: string, seq: number): boolean {
    const list = this.byEpoch.get(epoch) ?? [];
    const at = lowerBound(list, seq);
    return list[at] === seq;
  }
}

function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] ?? 0) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

export interface Missing {
  count: number;
  first: number;
  last: number;
}

/** The numbers strictly between two ids of one epoch that were never delivered (counted, not enumerated). */
export function missingBetween(from: ParsedId, to: ParsedId, seen: SeenNumbers): Missing | undefined {
  if (from.seq === undefined || to.seq === undefined || from.epoch !== to.epoch || to.seq <= from.seq + 1)
    return undefined;
  const epoch = from.epoch ?? '';
  const count = to.seq - from.seq - 1 - seen.countBetween(epoch, from.seq, to.seq);
  if (count <= 0) return undefined;
  let first = from.seq + 1;
  while (seen.has(epoch, first)) first += 1;
  let last = to.seq - 1;
  while (seen.has(epoch, last)) last -= 1;
  return { count, first, last };
}

export function describeRange(missing: Missing): string {
  if (missing.count === 1) return `${missing.first}`;
  return `${missing.count} events (${missing.first}..${missing.last})`;
}

export function idsOf(events: readonly EventView[], scheme: IdScheme): { event: EventView; id: ParsedId }[] {
  return events.filter((e) => e.hasId).map((event) => ({ event, id: parseId(scheme, event.lastEventId) }));
}
