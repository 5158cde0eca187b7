// Runs anywhere (pure core): 2025-11-25 priming events (an id and empty data) and their replays.
import type { EventView } from '../model/types';
import { firstDeliveries } from './facts';

const cache = new WeakMap<readonly EventView[], { length: number; priming: Map<string, EventView> }>();

/** Ids a session first received as priming events, and the first delivery of each (memoised per events list). */
export function primingIds(events: readonly EventView[]): Map<string, EventView> {
  const cached = cache.get(events);
  if (cached && cached.length === events.length) return cached.priming;
  const priming = new Map<string, EventView>();
  for (const [id, event] of firstDeliveries(events)) if (event.data === '') priming.set(id, event);
  cache.set(events, { length: events.length, priming });
  return priming;
}

/**
 * A later delivery of a priming id with empty data or `{}` (the MCP SDK 1.32 server replays stored priming events
 * as `data: {}`): harmless to the stream's continuity, worth one warning at most.
 */
export function isPrimingReplay(event: EventView, priming: ReadonlyMap<string, EventView>): boolean {
  const first = priming.get(event.lastEventId);
  return first !== undefined && first !== event && (event.data === '' || event.data.trim() === '{}');
}
