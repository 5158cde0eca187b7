// Runs in any server runtime: the memory store's one ordered log, its per-stream indexes and its retention. Pure data
// structures: no clock of its own (the store passes `now`), no I/O, no SDK.
import { estimateJsonSize } from './event-size';
import type { EventMessage } from './types';

/** One stored event: one slot, whatever its size (an event is never split, so it is replayed whole or not at all). */
export interface Slot {
  seq: number;
  id: string;
  message: EventMessage;
  /** The message's JSON size, estimated (event-size.ts): the byte budget's unit. */
  bytes: number;
  at: number;
  stream: StreamLog;
  /** Position in its stream, counted from the stream's first event ever: replays walk by it. */
  ordinal: number;
}

/** One SSE stream of one session: its retained events, oldest first. */
export class StreamLog {
  events: (Slot | undefined)[] = [];
  /** Index of the oldest retained event in `events`. */
  head = 0;
  /** Ordinal of `events[0]`. */
  offset = 0;
  /** Ordinals issued so far. */
  count = 0;
  /** The highest seq of this stream that retention dropped (0: none). */
  evictedThrough = 0;
  /** The seq under which this emptied stream waits in the idle index, if it does. */
  idleKey: number | undefined;

  constructor(
    readonly sessionId: string,
    readonly streamId: string,
  ) {}

  /** The ordinal of the oldest retained event (`count` when none is). */
  get firstOrdinal(): number {
    return this.offset + this.head;
  }

  at(ordinal: number): Slot | undefined {
    return this.events[ordinal - this.offset];
  }
}

/** What retention keeps: events younger than `retainMs`, within `maxBytes` (the newest event always stays). */
export interface Retention {
  retainMs: number;
  maxBytes: number;
  /** Emptied streams remembered so that a cursor at their last event still resumes (nothing followed it). */
  maxIdleStreams: number;
}

const COMPACT_AT = 1024;

/**
 * The store's single log: every event of every session in seq order, seq from one counter, so `slots[head + (seq -
 * first seq)]` finds any retained cursor at once, and numbers taken by other streams are not gaps.
 */
export class OrderedLog {
  private slots: (Slot | undefined)[] = [];
  private head = 0;
  private bytes = 0;
  /** The last seq issued (0: none yet). */
  lastSeq = 0;
  /** Emptied streams by the seq of their last event: the cursor a client idle on them still holds. */
  private readonly idle = new Map<number, StreamLog>();

  /**
   * @param prefix `<epoch>:`, the part every id of this log shares.
   * @param forget called with a stream retention no longer remembers at all.
   */
  constructor(
    private readonly retention: Retention,
    private readonly prefix: string,
    private readonly forget: (stream: StreamLog) => void,
  ) {}

  get size(): number {
    return this.slots.length - this.head;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** The seq of the oldest retained event; `lastSeq + 1` when nothing is retained. */
  get firstSeq(): number {
    return this.slots[this.head]?.seq ?? this.lastSeq + 1;
  }

  append(stream: StreamLog, message: EventMessage, now: number): string {
    // An idle stream that streams again stays in the idle index: its old cursor still resumes while retention keeps
    // every event after it (`idleAt` checks that).
    const seq = ++this.lastSeq;
    const slot: Slot = {
      seq,
      id: this.prefix + seq,
      message,
      bytes: estimateJsonSize(message),
      at: now,
      stream,
      ordinal: stream.count++,
    };
    this.slots.push(slot);
    stream.events.push(slot);
    this.bytes += slot.bytes;
    this.expire(now);
    return slot.id;
  }

  /** The retained event with this seq. */
  find(seq: number): Slot | undefined {
    const first = this.slots[this.head];
    return first && seq >= first.seq ? this.slots[this.head + (seq - first.seq)] : undefined;
  }

  /** The emptied stream whose last event, now dropped, was `seq`, if nothing of that stream was dropped since. */
  idleAt(seq: number): StreamLog | undefined {
    const stream = this.idle.get(seq);
    return stream && stream.evictedThrough === seq ? stream : undefined;
  }

  /** Drops what retention no longer keeps: older than the window, or over the byte budget (never the newest). */
  expire(now: number): void {
    const horizon = now - this.retention.retainMs;
    for (;;) {
      const first = this.slots[this.head];
      if (!first) break;
      const overBudget = this.bytes > this.retention.maxBytes && this.head < this.slots.length - 1;
      if (first.at >= horizon && !overBudget) break;
      this.drop(first);
    }
    if (this.head >= COMPACT_AT && this.head * 2 >= this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
  }

  private drop(slot: Slot): void {
    this.slots[this.head++] = undefined;
    this.bytes -= slot.bytes;
    const stream = slot.stream;
    // Retention drops in seq order, so a stream's oldest retained event is the one going.
    stream.events[stream.head++] = undefined;
    stream.evictedThrough = slot.seq;
    if (stream.head === stream.events.length) {
      stream.offset += stream.events.length;
      stream.events = [];
      stream.head = 0;
      this.rememberIdle(stream, slot.seq);
    } else if (stream.head >= COMPACT_AT && stream.head * 2 >= stream.events.length) {
      stream.offset += stream.head;
      stream.events = stream.events.slice(stream.head);
      stream.head = 0;
    }
  }

  private rememberIdle(stream: StreamLog, seq: number): void {
    if (stream.idleKey !== undefined) this.idle.delete(stream.idleKey);
    stream.idleKey = seq;
    this.idle.set(seq, stream);
    if (this.idle.size <= this.retention.maxIdleStreams) return;
    // The longest-idle stream is forgotten: a cursor at its last event is then refused as evicted (safe).
    const oldest = this.idle.entries().next().value;
    if (!oldest) return;
    const [key, gone] = oldest;
    this.idle.delete(key);
    gone.idleKey = undefined;
    // Only an empty stream is forgotten: one that streams again keeps its log, or a replay would miss its events.
    if (gone.head === gone.events.length) this.forget(gone);
  }
}
