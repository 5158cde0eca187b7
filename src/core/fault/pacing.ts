// Runs anywhere (pure core): the silence faults' part of one response (stall, buffer, idle-cut) as decisions over
// bytes. The core has no clock: a stall is a `pause` op the runtime waits out, a buffer holds bytes until the body's
// end, and an idle cut is fired by the runtime's timer (src/proxy/response-writer.ts, src/tap/break/responses.ts).
import { concatBytes } from '../capture/bytes';
import { SseFramer } from './sse-framer';
import type { CutInfo, TapOp } from './sse-tap';

/** What a faulted response stream does, in order: write bytes, cut the connection, or stop forwarding for `ms`. */
export type StreamOp = TapOp | { op: 'pause'; ms: number };

/** What the runtime must know once a response head shows an event stream the faults read. */
export interface ResponseTiming {
  /** Hold the response head until the body ends (buffer). */
  holdHead: boolean;
  /** Cut the response once this long passed with no byte written to the client (idle-cut), from its head on. */
  idleCutMs?: number;
}

export interface StallPlan {
  ms: number;
  struck(at: { frameIndex: number; bytesForwarded: number }): void;
  /** The body ended before an event that carries data: the stall did not strike. */
  missed(): void;
}

export interface BufferPlan {
  holdHead: boolean;
  /** At the body's end: what was held, and whether the client got it (not when the stream was cut or dropped). */
  done(held: { bytes: number; events: number; released: boolean }): void;
}

export interface IdlePlan {
  ms: number;
  struck(info: CutInfo): void;
  /** The body ended (or was cut otherwise) before the silence lasted `ms`. */
  missed(): void;
}

/** The silence faults a response was given when its head showed an event stream. */
export interface Pacing {
  stall?: StallPlan;
  buffer?: BufferPlan;
  idle?: IdlePlan;
}

/**
 * `stall`: stops forwarding once, before the first event that carries data (the priming event and comments pass).
 * A frame's bytes are held until its first data value shows or it ends, so the pause falls before a whole event.
 */
export class StallStage {
  private readonly framer = new SseFramer();
  private held: Uint8Array[] = [];
  private released = 0;
  private frames = 0;
  private struck = false;

  constructor(private readonly plan: StallPlan) {}

  push(bytes: Uint8Array): StreamOp[] {
    if (this.struck) return [{ op: 'write', bytes }];
    const ops: StreamOp[] = [];
    let pos = 0;
    while (pos < bytes.length) {
      const result = this.framer.scan(bytes, pos, true);
      if (result.stop > pos) this.held.push(bytes.subarray(pos, result.stop));
      pos = result.stop;
      if (result.atDataValue) {
        this.struck = true;
        this.plan.struck({ frameIndex: this.frames, bytesForwarded: this.released });
        ops.push({ op: 'pause', ms: this.plan.ms }, ...this.release());
        if (pos < bytes.length) ops.push({ op: 'write', bytes: bytes.subarray(pos) });
        return ops;
      }
      if (result.ended) {
        this.frames += 1;
        ops.push(...this.release());
      }
    }
    return ops;
  }

  /** At the end (or before a cut): what a frame that never showed data still holds goes out. */
  flush(): StreamOp[] {
    const ops = this.release();
    if (!this.struck) this.plan.missed();
    this.struck = true;
    return ops;
  }

  private release(): StreamOp[] {
    if (this.held.length === 0) return [];
    const bytes = concatBytes(this.held);
    this.held = [];
    this.released += bytes.length;
    return [{ op: 'write', bytes }];
  }
}

/** `buffer`: holds every byte until the body ends, then sends them in one write; a cut loses them all. */
export class BufferStage {
  private held: Uint8Array[] = [];
  private finished = false;

  constructor(private readonly plan: BufferPlan) {}

  push(bytes: Uint8Array): StreamOp[] {
    if (!this.finished) this.held.push(bytes);
    return [];
  }

  /** The body's end: one write of everything held. */
  flush(): StreamOp[] {
    if (this.finished) return [];
    const bytes = this.settle(true);
    return bytes.length > 0 ? [{ op: 'write', bytes }] : [];
  }

  /** A cut, or a client gone: what was held never reaches the client. */
  drop(): void {
    if (!this.finished) this.settle(false);
  }

  private settle(released: boolean): Uint8Array {
    this.finished = true;
    const bytes = concatBytes(this.held);
    this.held = [];
    this.plan.done({ bytes: bytes.length, events: countEvents(bytes), released });
    return bytes;
  }
}

/** `idle-cut`: follows what the client was actually sent, so the cut reports the event it fell in or after. */
export class IdleWatch {
  private readonly framer = new SseFramer();
  private forwarded = 0;
  private frames = 0;
  private lastId: string | undefined;
  private settled = false;

  constructor(private readonly plan: IdlePlan) {}

  get ms(): number {
    return this.plan.ms;
  }

  wrote(bytes: Uint8Array): void {
    this.forwarded += bytes.length;
    for (let pos = 0; pos < bytes.length;) {
      const result = this.framer.scan(bytes, pos);
      pos = result.stop;
      if (!result.ended) continue;
      this.frames += 1;
      if (result.ended.id !== undefined) this.lastId = result.ended.id;
    }
  }

  /** The runtime's timer saw the silence: the cut, as a cut op (undefined once the stream ended or was cut). */
  fire(): StreamOp | undefined {
    if (this.settled) return undefined;
    this.settled = true;
    const midEvent = this.framer.bytesIntoFrame > 0;
    const info: CutInfo = {
      frameIndex: midEvent ? this.frames : this.frames - 1,
      bytesIntoFrame: this.framer.bytesIntoFrame,
      bytesForwarded: this.forwarded,
      midEvent,
      tornEventId: midEvent ? this.framer.currentId : undefined,
      lastCompleteEventId: this.lastId,
    };
    this.plan.struck(info);
    return { op: 'cut', info };
  }

  /** The stream ended (or another fault cut it) first. */
  settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.plan.missed();
  }
}

function countEvents(bytes: Uint8Array): number {
  const framer = new SseFramer();
  let events = 0;
  for (let pos = 0; pos < bytes.length;) {
    const result = framer.scan(bytes, pos);
    pos = result.stop;
    if (result.ended?.isEvent) events += 1;
  }
  return events;
}
