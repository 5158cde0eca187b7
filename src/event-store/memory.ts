// Runs in any server runtime (Node, Deno, Workers; WHATWG crypto only): the in-memory epoch event store for the MCP
// SDKs' Streamable HTTP server transports. Imports the core's id scheme only: no SDK, no Node API, no Redis.
import { checkEpoch, newEpoch, parseCursor } from './ids';
import { OrderedLog, type Retention, StreamLog } from './memory-log';
import { refusal, ResumeRefusedError } from './refusal';
import type { EventMessage, GuardedEventStore, Refusal, SdkEventStore } from './types';

/** Options of {@link createEpochEventStore}. */
export interface EpochEventStoreOptions {
  /**
   * How long an event stays resumable, in ms: size it by how long a client may stay disconnected and still resume
   * (the reconnect window), not by how much history to keep. Default 300 000 (5 minutes).
   */
  retainMs?: number;
  /**
   * The byte budget of all retained events (each counted by its JSON text's length, estimated: event-size.ts); the
   * oldest go first. An event is one slot whatever its size: it is never split, and the newest is kept even when it
   * alone exceeds the budget.
   * Default 64 MiB.
   */
  maxBytes?: number;
  /**
   * How many emptied streams to remember, so that a client idle on a stream whose last event retention dropped still
   * resumes it (nothing followed its cursor). Default 10 000; the longest-idle is forgotten first.
   */
  maxIdleStreams?: number;
  /** The epoch; a fresh random one by default. Give one only if it changes on every process start. */
  epoch?: string;
  /** The clock, in ms (tests). Default `Date.now`. */
  now?: () => number;
}

/** Defaults of {@link EpochEventStoreOptions}. */
export const EPOCH_STORE_DEFAULTS: Readonly<Required<Omit<EpochEventStoreOptions, 'epoch' | 'now'>>> = {
  retainMs: 5 * 60_000,
  maxBytes: 64 * 1024 * 1024,
  maxIdleStreams: 10_000,
};

/** What a memory store holds right now. */
export interface EpochEventStoreStats {
  /** Retained events. */
  events: number;
  /** Their size, as counted against `maxBytes`. */
  bytes: number;
  /** The seq of the oldest retained event (`lastSeq + 1` when none is). */
  firstSeq: number;
  /** The last seq issued. */
  lastSeq: number;
}

/** The in-memory store: one epoch per instance, one ordered log, one {@link SdkEventStore} view per session. */
export interface EpochEventStore extends GuardedEventStore {
  /** This store's epoch: the part of every id before the colon. */
  readonly epoch: string;
  /** Undefined when the cursor can be resumed exactly by this session; otherwise why not (synchronous here). */
  checkResume(lastEventId: string, sessionId: string): Refusal | undefined;
  /** Counts, for monitoring and tests. */
  stats(): EpochEventStoreStats;
}

/** Where a resume starts: the stream, and the ordinal of the first event to send. */
interface Resume {
  stream: StreamLog;
  from: number;
}

class MemoryEpochStore implements EpochEventStore {
  readonly epoch: string;
  private readonly sessions = new Map<string, Map<string, StreamLog>>();
  private readonly log: OrderedLog;
  private readonly now: () => number;

  constructor(options: EpochEventStoreOptions) {
    this.epoch = checkEpoch(options.epoch ?? newEpoch());
    this.now = options.now ?? Date.now;
    const retention: Retention = { ...EPOCH_STORE_DEFAULTS };
    if (options.retainMs !== undefined) retention.retainMs = positive('retainMs', options.retainMs);
    if (options.maxBytes !== undefined) retention.maxBytes = positive('maxBytes', options.maxBytes);
    if (options.maxIdleStreams !== undefined)
      retention.maxIdleStreams = positive('maxIdleStreams', options.maxIdleStreams);
    this.log = new OrderedLog(retention, `${this.epoch}:`, (stream) => this.forget(stream));
  }

  forSession(sessionId: string): SdkEventStore {
    // The view keeps its session's stream map; the map is created on the first event, so a session that never
    // streams costs nothing, and re-fetched if retention forgot the session meanwhile.
    let streams: Map<string, StreamLog> | undefined;
    return {
      storeEvent: (streamId, message) => {
        if (streams === undefined || this.sessions.get(sessionId) !== streams) streams = this.streamsOf(sessionId);
        let stream = streams.get(streamId);
        if (!stream) {
          stream = new StreamLog(sessionId, streamId);
          streams.set(streamId, stream);
        }
        // Not an async function: a resolved promise costs less per event (bench/guard-store.bench.ts).
        return Promise.resolve(this.log.append(stream, message, this.now()));
      },
      getStreamIdForEventId: async (eventId) => {
        const found = this.resolve(eventId, sessionId);
        return 'reason' in found ? undefined : found.stream.streamId;
      },
      replayEventsAfter: (lastEventId, { send }) => this.replay(lastEventId, sessionId, send),
    };
  }

  checkResume(lastEventId: string, sessionId: string): Refusal | undefined {
    const found = this.resolve(lastEventId, sessionId);
    return 'reason' in found ? found : undefined;
  }

  stats(): EpochEventStoreStats {
    return {
      events: this.log.size,
      bytes: this.log.totalBytes,
      firstSeq: this.log.firstSeq,
      lastSeq: this.log.lastSeq,
    };
  }

  private streamsOf(sessionId: string): Map<string, StreamLog> {
    let streams = this.sessions.get(sessionId);
    if (!streams) {
      streams = new Map();
      this.sessions.set(sessionId, streams);
    }
    return streams;
  }

  /** The decision boundary: same epoch, issued, retained (or nothing followed it), and this session's. */
  private resolve(cursor: string, sessionId: string): Resume | Refusal {
    const parsed = parseCursor(cursor);
    if (!parsed) return refusal('malformed', cursor, this.epoch);
    if (parsed.epoch !== this.epoch) return refusal('foreign-epoch', cursor, this.epoch);
    this.log.expire(this.now());
    if (parsed.seq > this.log.lastSeq) return refusal('unknown', cursor, this.epoch);
    const slot = this.log.find(parsed.seq);
    const resume: Resume | undefined = slot
      ? { stream: slot.stream, from: slot.ordinal + 1 }
      : this.idleResume(parsed.seq);
    if (!resume) return refusal('evicted', cursor, this.epoch);
    if (resume.stream.sessionId !== sessionId) return refusal('other-session', cursor, this.epoch);
    return resume;
  }

  /** A dropped cursor that was its stream's last dropped event: everything after it on the stream is retained. */
  private idleResume(seq: number): Resume | undefined {
    const stream = this.log.idleAt(seq);
    return stream && { stream, from: stream.firstOrdinal };
  }

  private async replay(
    cursor: string,
    sessionId: string,
    send: (eventId: string, message: EventMessage) => Promise<void>,
  ): Promise<string> {
    const found = this.resolve(cursor, sessionId);
    if ('reason' in found) throw new ResumeRefusedError(found);
    const { stream } = found;
    // Walk by ordinal to the stream's end as it is after each send: events stored while the replay awaits are sent
    // too (the SDK writes live events to this stream only once the replay has returned).
    for (let ordinal = found.from; ; ordinal++) {
      if (ordinal < stream.firstOrdinal) throw new ResumeRefusedError(refusal('evicted', cursor, this.epoch));
      const slot = stream.at(ordinal);
      if (!slot) return stream.streamId;
      await send(slot.id, slot.message);
    }
  }

  private forget(stream: StreamLog): void {
    const streams = this.sessions.get(stream.sessionId);
    if (streams?.get(stream.streamId) !== stream) return;
    streams.delete(stream.streamId);
    if (streams.size === 0) this.sessions.delete(stream.sessionId);
  }
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new Error(`event store: ${name} must be a positive number (got ${value})`);
  return value;
}

/**
 * An in-memory event store with `<epoch>:<seq>` ids: a fresh epoch per instance (so per process start), seq from one
 * counter, stream-scoped replay, retention by time window and byte budget. A cursor it cannot continue exactly (a
 * foreign epoch, evicted, another session's, malformed, never issued) is refused, never clamped: `checkResume` says
 * why before the SDK runs, and the SDK-facing methods refuse on their own (400 / 500, never a 200).
 *
 * ```ts
 * const store = createEpochEventStore();
 * const id = randomUUID();
 * const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, eventStore: store.forSession(id) });
 * ```
 */
export function createEpochEventStore(options: EpochEventStoreOptions = {}): EpochEventStore {
  return new MemoryEpochStore(options);
}
