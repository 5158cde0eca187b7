// Runs anywhere (pure core): helpers for rules over ordered ids (integer and epoch:seq schemes).
import type { ParsedId } from '../../ids/scheme';
import type { SeenNumbers } from '../seen-numbers';

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
  return { count, first: seen.nextMissing(epoch, from.seq + 1), last: seen.previousMissing(epoch, to.seq - 1) };
}

export function describeRange(missing: Missing): string {
  if (missing.count === 1) return `${missing.first}`;
  return `${missing.count} events (${missing.first}..${missing.last})`;
}
