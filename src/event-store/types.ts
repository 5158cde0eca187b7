// Runs in any server runtime (Node, Deno, Workers): the shapes the event store shares with the MCP SDKs, restated
// structurally. Imports nothing: the library must not depend on the SDK, at runtime or for its types.

/**
 * A JSON-RPC message as the SDK hands it to the store. The SDK also stores `{}` for a priming event (an id with
 * empty data), so this is any object: the store keeps it as it came and hands the same object back on replay.
 */
export type EventMessage = object;

/**
 * The `EventStore` of `StreamableHTTPServerTransport` (`@modelcontextprotocol/sdk` 1.x) and of
 * `WebStandardStreamableHTTPServerTransport` / `NodeStreamableHTTPServerTransport` (`@modelcontextprotocol/server`
 * 2.x), restated: pass a value of this type as the transport's `eventStore`.
 */
export interface SdkEventStore {
  /** Stores one event of stream `streamId`; resolves to the event's id, the SSE `id:` the client will hold. */
  storeEvent(streamId: string, message: EventMessage): Promise<string>;
  /**
   * The stream the cursor belongs to, or undefined when this store refuses to resume it (the SDK answers 400
   * "Invalid event ID format"; run the pre-check first to answer with a reason instead).
   */
  getStreamIdForEventId(eventId: string): Promise<string | undefined>;
  /**
   * Sends every event of the cursor's stream that follows the cursor, in order; resolves to the stream's id. Rejects
   * (the SDK answers 500) when the cursor cannot be continued exactly: never a partial or borrowed replay.
   */
  replayEventsAfter(
    lastEventId: string,
    options: { send: (eventId: string, message: EventMessage) => Promise<void> },
  ): Promise<string>;
}

/**
 * Why a resume is refused:
 * - `foreign-epoch`: the cursor was issued by another epoch (a process before a restart, another store);
 * - `evicted`: the cursor is of this epoch, but retention dropped it and what followed it on its stream;
 * - `other-session`: the cursor belongs to another session's stream;
 * - `malformed`: the cursor is not an `<epoch>:<seq>` id;
 * - `unknown`: the cursor is of this epoch, but no event with that number was ever issued.
 */
export type RefusalReason = 'foreign-epoch' | 'evicted' | 'other-session' | 'malformed' | 'unknown';

/** A refused resume: what the pre-check returns, and what the refusal response says on the wire. */
export interface Refusal {
  reason: RefusalReason;
  /** One sentence for people: what was refused and what the client must do. */
  message: string;
  /** The `Last-Event-ID` the client sent. */
  cursor: string;
  /** This store's epoch (for the Redis store, the namespace's); empty when the store has none yet. */
  epoch: string;
}

/** What every store of this library offers beside the SDK's interface: one view per session, and the pre-check. */
export interface GuardedEventStore {
  /** The SDK `EventStore` of one session: pass it as the transport's `eventStore`. */
  forSession(sessionId: string): SdkEventStore;
  /** Undefined when `lastEventId` can be resumed exactly by session `sessionId`; otherwise why not. */
  checkResume(lastEventId: string, sessionId: string): Refusal | undefined | Promise<Refusal | undefined>;
}
