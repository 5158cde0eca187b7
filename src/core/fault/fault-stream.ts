// Runs anywhere (pure core): one response body through the faults the planner chose for it.
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

/** One response body through the faults: the tap (cut, drop, prefix), then a rewriter (ids). */
export class FaultStream {
  private finished = false;
  private readonly tap: SseTap;

  constructor(
    policy: TapPolicy,
    private readonly rewriter: ByteRewriter | undefined,
    private readonly hooks?: StreamHooks,
  ) {
    this.tap = new SseTap(policy);
  }

  push(chunk: Uint8Array): TapOp[] {
    const ops = this.tap.push(chunk);
    for (const op of ops) if (op.op === 'cut') this.hooks?.cut(op.info);
    return this.rewrite(ops);
  }

  /** At the end of the body, whatever happened (call it also when the body was not an event stream). */
  finish(): TapOp[] {
    if (this.finished) return [];
    this.finished = true;
    this.hooks?.finish();
    return this.rewriter ? this.rewriter.flush().map((bytes) => ({ op: 'write', bytes })) : [];
  }

  private rewrite(ops: TapOp[]): TapOp[] {
    const rewriter = this.rewriter;
    if (!rewriter) return ops;
    return ops.flatMap((op): TapOp[] =>
      op.op === 'write' ? rewriter.push(op.bytes).map((bytes) => ({ op: 'write', bytes })) : [op],
    );
  }
}
