// Runs anywhere (pure core): one response body through the faults the planner chose for it.
import type { EpochRewriter } from './epoch-rewriter';
import { type CutInfo, SseTap, type TapOp, type TapPolicy } from './sse-tap';

export interface StreamHooks {
  cut(info: CutInfo): void;
  finish(): void;
}

/** One response body through the faults: the tap (cut, drop, prefix), then the epoch rewriter. */
export class FaultStream {
  private finished = false;
  private readonly tap: SseTap;

  constructor(
    policy: TapPolicy,
    private readonly rewriter: EpochRewriter | undefined,
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
