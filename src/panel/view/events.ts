// Panel (pure): what the panel reads of an event without paying for its data. The core may keep an event's data
// only as its bytes (decoded, and its JSON parsed, on each read of `data` or `messages`): the kind, id and method of
// its messages and the data's length are read from what it keeps (`envelopes`, `dataLength`) when it has them.
import type { EventView } from '../../core/model/types';
import type { JsonRpcMessage } from '../../core/mcp/types';

/** What the table and the filter show of a message: its kind, id and method (no params, no result). */
export type Envelope = Pick<JsonRpcMessage, 'kind' | 'id' | 'method'>;

interface Kept {
  envelopes?: readonly Envelope[];
  dataLength?: number;
}

export function envelopesOf(event: EventView): readonly Envelope[] {
  return (event as Kept).envelopes ?? event.messages;
}

/** The data's length in UTF-16 code units. */
export function dataLengthOf(event: EventView): number {
  return (event as Kept).dataLength ?? event.data.length;
}
