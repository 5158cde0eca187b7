// Runs anywhere (pure core): applies a frame policy to an SSE response as its chunks pass.
// Bytes in, write and cut operations out; the proxy performs them.
import { type Frame, SseFramer } from './sse-framer';

/** What to do with a frame, decided before any of its bytes are forwarded. */
export type FrameAction =
  | { kind: 'pass' }
  | { kind: 'drop' }
  /** Forward the frame up to `dataBytes` bytes into its first data value, then cut the connection. */
  | { kind: 'cut-into-data'; dataBytes: number };

export interface TapPolicy {
  /** Bytes sent before the response body (an event sent again). */
  prefix?(): Uint8Array | undefined;
  atFrameStart(index: number): FrameAction;
  /** Called when a frame has passed; returning 'cut' ends the connection right after it. */
  onFrameEnd(frame: Frame, delivered: boolean): 'continue' | 'cut';
}

export interface CutInfo {
  /** Index of the frame the cut fell in or after, and how many of its bytes were forwarded. */
  frameIndex: number;
  bytesIntoFrame: number;
  /** Bytes of the body forwarded in all. */
  bytesForwarded: number;
  /** True when the cut falls inside a frame (the client holds a partial event). */
  midEvent: boolean;
  /** The id of the frame being cut, when its id line had passed. */
  tornEventId?: string;
  /** The id of the last whole event forwarded before the cut: the cursor a client resumes from. */
  lastCompleteEventId?: string;
}

export type TapOp = { op: 'write'; bytes: Uint8Array } | { op: 'cut'; info: CutInfo };

export class SseTap {
  private readonly framer = new SseFramer();
  private action: FrameAction | undefined;
  private started = false;
  private done = false;
  private forwarded = 0;
  private frameIndex = 0;
  private lastDeliveredId: string | undefined;
  /** Inside a frame being cut: bytes forwarded since its first data value began. */
  private dataForwarded: number | undefined;

  constructor(private readonly policy: TapPolicy) {}

  get isCut(): boolean {
    return this.done;
  }

  push(chunk: Uint8Array): TapOp[] {
    const ops: TapOp[] = [];
    if (this.done) return ops;
    if (!this.started) {
      this.started = true;
      const prefix = this.policy.prefix?.();
      if (prefix && prefix.length > 0) ops.push({ op: 'write', bytes: prefix });
    }
    let pos = 0;
    while (pos < chunk.length && !this.done) {
      this.action ??= this.policy.atFrameStart(this.frameIndex);
      const action = this.action;
      if (action.kind === 'cut-into-data' && this.dataForwarded !== undefined) {
        pos = this.forwardDataThenCut(ops, chunk, pos, action.dataBytes);
        continue;
      }
      const result = this.framer.scan(chunk, pos, action.kind === 'cut-into-data');
      if (action.kind !== 'drop') this.write(ops, chunk.subarray(pos, result.stop));
      pos = result.stop;
      if (result.atDataValue) {
        this.dataForwarded = 0;
        if (action.kind === 'cut-into-data' && action.dataBytes === 0) this.cut(ops, true);
        continue;
      }
      if (result.ended) this.endFrame(ops, result.ended, action.kind !== 'drop');
    }
    return ops;
  }

  /** Forwards data bytes until `dataBytes` of the value have passed (across chunks), then cuts. */
  private forwardDataThenCut(ops: TapOp[], chunk: Uint8Array, pos: number, dataBytes: number): number {
    const already = this.dataForwarded ?? 0;
    const take = Math.min(dataBytes - already, chunk.length - pos);
    const result = this.framer.scan(chunk.subarray(0, pos + take), pos);
    this.write(ops, chunk.subarray(pos, result.stop));
    this.dataForwarded = already + (result.stop - pos);
    if (result.ended) {
      // The frame was shorter than the cut point: it passed whole; the cut waits for the next one.
      this.endFrame(ops, result.ended, true);
      return result.stop;
    }
    if (this.dataForwarded >= dataBytes) {
      this.cut(ops, true);
      return chunk.length;
    }
    return result.stop;
  }

  private write(ops: TapOp[], bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.forwarded += bytes.length;
    ops.push({ op: 'write', bytes });
  }

  private endFrame(ops: TapOp[], frame: Frame, delivered: boolean): void {
    this.action = undefined;
    this.dataForwarded = undefined;
    this.frameIndex = frame.index + 1;
    if (delivered && frame.id !== undefined) this.lastDeliveredId = frame.id;
    if (this.policy.onFrameEnd(frame, delivered) === 'cut') this.cut(ops, false);
  }

  private cut(ops: TapOp[], midEvent: boolean): void {
    this.done = true;
    ops.push({
      op: 'cut',
      info: {
        frameIndex: midEvent ? this.frameIndex : this.frameIndex - 1,
        bytesIntoFrame: midEvent ? this.framer.bytesIntoFrame : 0,
        bytesForwarded: this.forwarded,
        midEvent,
        tornEventId: midEvent ? this.framer.currentId : undefined,
        lastCompleteEventId: this.lastDeliveredId,
      },
    });
  }
}
