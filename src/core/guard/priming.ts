// Runs anywhere (pure core): 2025-11-25 priming events (an id and empty data) and their replays.
import type { EventView } from '../model/types';

/**
 * A later delivery of a priming id (see IdIndex.priming) with empty data or `{}` (the MCP SDK 1.32 server replays
 * stored priming events as `data: {}`): harmless to the stream's continuity, worth one warning at most.
 */
export function isPrimingReplay(event: EventView, priming: ReadonlyMap<string, EventView>): boolean {
  const first = priming.get(event.lastEventId);
  return first !== undefined && first !== event && (event.data === '' || event.data.trim() === '{}');
}
