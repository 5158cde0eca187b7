// Runs anywhere (pure core): helpers for rules over ordered ids (integer and epoch:seq schemes).
import { hasSequence, parseId, type ParsedId } from '../../ids/scheme';
import type { EventView, IdScheme, Model } from '../../model/types';

/** Every (epoch, seq) delivered anywhere in the capture: numbers other streams consumed are not gaps. */
export function seenSequenceNumbers(model: Model, scheme: IdScheme): Set<string> {
  const seen = new Set<string>();
  if (!hasSequence(scheme)) return seen;
  for (const event of model.events) {
    if (!event.hasId) continue;
    const parsed = parseId(scheme, event.lastEventId);
    if (parsed.seq !== undefined) seen.add(`${parsed.epoch ?? ''}:${parsed.seq}`);
  }
  return seen;
}

/** The numbers strictly between two ids of one epoch that were never delivered. */
export function missingBetween(from: ParsedId, to: ParsedId, seen: ReadonlySet<string>): number[] {
  if (from.seq === undefined || to.seq === undefined || from.epoch !== to.epoch) return [];
  const missing: number[] = [];
  // Bounded: a wild jump is reported by its size, not enumerated.
  const limit = Math.min(to.seq, from.seq + 10_001);
  for (let seq = from.seq + 1; seq < limit; seq += 1) {
    if (!seen.has(`${from.epoch ?? ''}:${seq}`)) missing.push(seq);
  }
  return missing;
}

export function describeRange(missing: readonly number[]): string {
  if (missing.length === 1) return `${missing[0]}`;
  return `${missing.length} events (${missing[0]}..${missing[missing.length - 1]})`;
}

export function idsOf(events: readonly EventView[], scheme: IdScheme): { event: EventView; id: ParsedId }[] {
  return events.filter((e) => e.hasId).map((event) => ({ event, id: parseId(scheme, event.lastEventId) }));
}
