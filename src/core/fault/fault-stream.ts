// Runs anywhere (pure core): one response body through the faults the planner chose for it.
import { BufferStage, IdleWatch, type Pacing, type ResponseTiming, StallStage, type StreamOp } from './pacing';
import { type CutInfo, SseTap, type TapOp, type TapPolicy } from './sse-tap';

/** Bytes in, bytes out, as they pass: what a fault that changes an event's bytes does after the tap. */
export interface ByteRewriter {
  push(chunk: Uint8Array): Uint8Array[];
  /** At the end of the body: whatever is still held. */
  flush(): Uint8Array[];
}

/**
 * A rewriter chosen on the body's first bytes, so a fault strikes only a response that is an event stream (a plain
 * JSON answer never reaches push): `claim` gives the rewriter, or undefined (the fault is spent: bytes pass as is).
 */
export function claimedRewriter(claim: () => ByteRewriter | undefined): ByteRewriter {
  let chosen: ByteRewriter | null | undefined;
  return {
    push(chunk) {
      if (chosen === undefined) chosen = claim() ?? null;
      return chosen ? chosen.push(chunk) : [chunk];
    },
    flush: () => chosen?.flush() ?? [],
  };
}

export interface StreamHooks {
  cut(info: CutInfo): void;
  finish(): void;
}

/**
 * How a body ended: `end` when it came whole (what is held goes out), `abandoned` when it will never be written
 * (the client went, the request failed, another fault cut it).
 */
export type FinishHow = 'end' | 'abandoned';

/**
 * One response body through the faults: the tap (cut, drop, prefix), a rewriter (ids), then the silence faults
 * (a stall's pause, a buffer's hold); `opened()` tells the runtime what it must time (a held head, an idle cut).
 */
export class FaultStream {
  private finished = false;
  private readonly tap: SseTap;
  private claim: (() => Pacing | undefined) | undefined;
  private timing: ResponseTiming | undefined;
  private stall: StallStage | undefined;
  private buffer: BufferStage | undefined;
  private idle: IdleWatch | undefined;

  constructor(
    policy: TapPolicy,
    private readonly rewriter: ByteRewriter | undefined,
    private readonly hooks?: StreamHooks,
  ) {
    this.tap = new SseTap(policy);
  }

  /** Gives the stream its silence faults, chosen when (and if) the response shows to be an event stream. */
  pace(claim: () => Pacing | undefined): void {
    this.claim = claim;
  }

  /**
   * The response head shows an event stream the faults read: the silence faults claim it now (a plain JSON answer
   * never reaches here and leaves them armed). Called by push() when the runtime did not.
   */
  opened(): ResponseTiming {
    if (this.timing) return this.timing;
    const pacing = this.finished ? undefined : this.claim?.();
    if (pacing?.stall) this.stall = new StallStage(pacing.stall);
    if (pacing?.buffer) this.buffer = new BufferStage(pacing.buffer);
    if (pacing?.idle) this.idle = new IdleWatch(pacing.idle);
    this.timing = {
      holdHead: pacing?.buffer?.holdHead ?? false,
      ...(pacing?.idle && { idleCutMs: pacing.idle.ms }),
    };
    return this.timing;
  }

  push(chunk: Uint8Array): StreamOp[] {
    if (this.finished) return []; // cut by an idle cut, or abandoned: nothing more reaches the client
    this.opened();
    const ops = this.tap.push(chunk);
    for (const op of ops) if (op.op === 'cut') this.hooks?.cut(op.info);
    return this.paced(this.rewrite(ops));
  }

  /** Bytes the runtime wrote to the client: an idle cut reports where it fell. */
  written(bytes: Uint8Array): void {
    this.idle?.wrote(bytes);
  }

  /** The runtime's timer saw `idleCutMs` pass with nothing written: the cut it must make, if the stream still runs. */
  idleCut(): StreamOp[] {
    if (this.finished) return [];
    const cut = this.idle?.fire();
    if (!cut) return [];
    this.finish('abandoned');
    return [cut];
  }

  /** At the end of the body, whatever happened (call it also when the body was not an event stream). */
  finish(how: FinishHow = 'end'): StreamOp[] {
    if (this.finished) return [];
    this.finished = true;
    this.hooks?.finish();
    this.idle?.settle();
    const rest: TapOp[] = this.rewriter ? this.rewriter.flush().map((bytes) => ({ op: 'write', bytes })) : [];
    if (how === 'abandoned') {
      this.stall?.flush();
      this.buffer?.drop();
      return [];
    }
    const ops = this.paced(rest);
    const stalled = this.stall?.flush() ?? [];
    return [...ops, ...this.held(stalled), ...(this.buffer?.flush() ?? [])];
  }

  private rewrite(ops: TapOp[]): TapOp[] {
    const rewriter = this.rewriter;
    if (!rewriter) return ops;
    return ops.flatMap((op): TapOp[] =>
      op.op === 'write' ? rewriter.push(op.bytes).map((bytes) => ({ op: 'write', bytes })) : [op],
    );
  }

  /** The silence faults on the tap's output: a cut passes what the stall held first, and loses what a buffer held. */
  private paced(ops: TapOp[]): StreamOp[] {
    if (!this.stall && !this.buffer) return ops;
    return ops.flatMap((op): StreamOp[] => {
      if (op.op === 'write') return this.held(this.stall ? this.stall.push(op.bytes) : [op]);
      const before = this.held(this.stall?.flush() ?? []);
      this.buffer?.drop();
      return [...before, op];
    });
  }

  /** Through the buffer, which holds every write (and makes a stall's pause moot: nothing is forwarded meanwhile). */
  private held(ops: StreamOp[]): StreamOp[] {
    const buffer = this.buffer;
    if (!buffer) return ops;
    return ops.flatMap((op) => (op.op === 'write' ? buffer.push(op.bytes) : op.op === 'pause' ? [] : [op]));
  }
}
