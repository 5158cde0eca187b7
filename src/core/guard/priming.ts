// Runs anywhere (pure core): 2025-11-25 priming events (an id and empty data) and their replays.
import type { EventView } from '../model/types';

/** Ids a session first received as priming events, and the first delivery of each. */
export function primingIds(events: readonly EventView[]): Map<string, EventView> {
  const firstDelivery = new Map<string, EventView>();
  for (const event of events) {
    if (event.hasId && !firstDelivery.has(event.lastEventId)) firstDelivery.set(event.lastEventId, event);
  }
  const priming = new Map<string, EventView>();
  for (const [id, event] of firstDelivery) if (event.data === '') priming.set(id, event);
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
