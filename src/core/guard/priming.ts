// Runs anywhere (pure core): 2025-11-25 priming events (an id and empty data) and their replays.
import type { EventView } from '../model/types';
import type { IdIndex } from './id-index';

/**
 * A later delivery of a priming id (see IdIndex.primingIndex) with empty data or `{}` (the MCP SDK 1.32 server
 * replays stored priming events as `data: {}`): harmless to the stream's continuity, worth one warning at most.
 */
export function isPrimingReplay(event: EventView, ids: IdIndex): boolean {
  const first = ids.primingIndex(event.lastEventId);
  // The data is read from the bytes only for a repeat of a priming id.
  return first !== undefined && first !== event.index && (event.dataLength === 0 || event.data.trim() === '{}');
}
