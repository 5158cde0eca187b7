// Runs in Node (lab server): the shared machinery of the lab's event stores. One store per
// server instance (ids are per process), seen by each session through `forSession`.
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StoredEvent {
  id: string;
  sessionId: string;
  streamId: string;
  message: JSONRPCMessage;
  /** Size of the serialized message; the ring buffer counts slots by it. */
  bytes: number;
}

/**
 * What the store does with a resume cursor it never issued (another epoch, another process):
 * - `reject`: no stream for it, the SDK answers 400 (the honest answer);
 * - `clamp`: replay this session's own events from the first one, as if they continued the cursor;
 * - `fresh`: start a new stream from the current head: one new event, nothing replayed.
 */
export type UnknownCursorPolicy = 'reject' | 'clamp' | 'fresh';

/** What a bounded store does with a cursor it has evicted: fail the replay, or re-send what it still holds under new ids. */
export type EvictedCursorPolicy = 'reject' | 'republish';

export interface StorePolicies {
  onUnknownCursor: UnknownCursorPolicy;
  onEvictedCursor: EvictedCursorPolicy;
}

type Send = (eventId: string, message: JSONRPCMessage) => Promise<void>;

interface Location {
  sessionId: string;
  streamId: string;
}

const EVICTED_INDEX_LIMIT = 10_000;

export abstract class LabEventStore {
  /** Retained events in the order they were stored. */
  protected retained: StoredEvent[] = [];
  private readonly byId = new Map<string, StoredEvent>();
  /** Where evicted ids lived, so an evicted cursor is told apart from a foreign one. */
  private readonly evicted = new Map<string, Location>();
  private readonly policies: StorePolicies;

  constructor(policies: Partial<StorePolicies> = {}) {
    this.policies = { onUnknownCursor: 'reject', onEvictedCursor: 'reject', ...policies };
  }

  /** A fresh id for an event of this stream, in the store's scheme. */
  protected abstract mintId(streamId: string): string;

  /** Which retained events to drop after `added` was stored; none by default (unbounded). */
  protected selectEvictions(_added: StoredEvent): StoredEvent[] {
    return [];
  }

  get size(): number {
    return this.retained.length;
  }

  has(eventId: string): boolean {
    return this.byId.has(eventId);
  }

  /** The EventStore the SDK transport of one session uses. */
  forSession(sessionId: string): EventStore {
    return {
      storeEvent: async (streamId, message) => this.append(sessionId, streamId, message).id,
      getStreamIdForEventId: async (eventId) => this.streamIdFor(sessionId, eventId),
      replayEventsAfter: async (lastEventId, { send }) => this.replay(sessionId, lastEventId, send),
    };
  }

  private append(sessionId: string, streamId: string, message: JSONRPCMessage): StoredEvent {
    const event: StoredEvent = {
      id: this.mintId(streamId),
      sessionId,
      streamId,
      message,
      bytes: JSON.stringify(message).length,
    };
    this.retained.push(event);
    this.byId.set(event.id, event);
    const evictions = new Set(this.selectEvictions(event));
    if (evictions.size > 0) {
      this.retained = this.retained.filter((kept) => !evictions.has(kept));
      for (const gone of evictions) {
        this.byId.delete(gone.id);
        this.evicted.set(gone.id, { sessionId: gone.sessionId, streamId: gone.streamId });
      }
      this.trimEvictedIndex();
    }
    return event;
  }

  private trimEvictedIndex(): void {
    for (const id of this.evicted.keys()) {
      if (this.evicted.size <= EVICTED_INDEX_LIMIT) return;
      this.evicted.delete(id);
    }
  }

  private streamIdFor(sessionId: string, eventId: string): string | undefined {
    const known = this.byId.get(eventId) ?? this.evicted.get(eventId);
    if (known) return known.sessionId === sessionId ? known.streamId : undefined;
    switch (this.policies.onUnknownCursor) {
      case 'reject':
        return undefined;
      case 'clamp':
        return this.retained.find((event) => event.sessionId === sessionId)?.streamId;
      case 'fresh':
        return freshStreamId(eventId);
    }
  }

  private async replay(sessionId: string, lastEventId: string, send: Send): Promise<string> {
    const cursor = this.byId.get(lastEventId);
    if (cursor && cursor.sessionId === sessionId) {
      const after = this.retained.slice(this.retained.indexOf(cursor) + 1);
      for (const event of after.filter((e) => e.sessionId === sessionId && e.streamId === cursor.streamId)) {
        await send(event.id, event.message);
      }
      return cursor.streamId;
    }
    const evicted = this.evicted.get(lastEventId);
    if (evicted && evicted.sessionId === sessionId) return this.replayEvicted(lastEventId, evicted, send);
    return this.replayUnknown(sessionId, lastEventId, send);
  }

  private async replayEvicted(lastEventId: string, where: Location, send: Send): Promise<string> {
    if (this.policies.onEvictedCursor === 'reject') {
      throw new Error(`event ${lastEventId} was evicted; cannot resume after it`);
    }
    // The faulty behaviour of the torn-event report: what is still held goes out again under new ids.
    const still = this.retained.filter((e) => e.sessionId === where.sessionId && e.streamId === where.streamId);
    for (const event of still) {
      const again = this.append(where.sessionId, where.streamId, event.message);
      await send(again.id, again.message);
    }
    return where.streamId;
  }

  private async replayUnknown(sessionId: string, lastEventId: string, send: Send): Promise<string> {
    switch (this.policies.onUnknownCursor) {
      case 'reject':
        throw new Error(`event ${lastEventId} is unknown to this store`);
      case 'clamp': {
        // The epoch-collision report's case (c): the foreign cursor is clamped to this buffer.
        const own = this.retained.filter((e) => e.sessionId === sessionId);
        for (const event of own) await send(event.id, event.message);
        const first = own[0];
        if (!first) throw new Error(`no events of session ${sessionId} to clamp ${lastEventId} to`);
        return first.streamId;
      }
      case 'fresh': {
        // Case (b): resume from the current head; only new events follow.
        const streamId = freshStreamId(lastEventId);
        const notice = this.append(sessionId, streamId, {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: {
            level: 'warning',
            logger: 'lab-event-store',
            data: `resume cursor ${lastEventId} unknown here; streaming from the current head`,
          },
        });
        await send(notice.id, notice.message);
        return streamId;
      }
    }
  }
}

function freshStreamId(cursor: string): string {
  return `fresh-after-${cursor}`;
}
