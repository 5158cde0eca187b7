// Page MAIN world, only while the Break menu has faults armed: moves a network body through its FaultStream into the
// body the page reads. The decisions are the core's; the clock is here: a stall's pause is waited out, an idle cut
// fires once nothing reached the page for its time, and the first output tells a held head (buffer) to go.
import type { FaultStream } from '../../core/fault/fault-stream';
import type { ResponseTiming } from '../../core/fault/pacing';
import { bare } from '../intrinsics';
import type { Natives } from '../natives';

export interface CutHooks {
  /** Runs `push` with reports attributed to this response's record, `delivered` bytes into its body. */
  pushing<T>(delivered: number, push: () => T): T;
  /** The TypeError a network failure raises in this browser (errorLikeNetwork). */
  networkError(): TypeError;
  /** The TypeError fetch() rejects with when the connection fails before the response head. */
  fetchError(): TypeError;
  /** Aborts the network fetch (cutter.ts: a cancelled body alone may leave its connection open). */
  abortNetwork(): void;
}

export class FaultPump {
  private delivered = 0;
  /** Set at a cut: the page reads what came before it, then its read fails (error() would drop the queue). */
  private cut = false;
  private over = false;
  private lastOutput: number;
  /** Ends a stall's pause early when a cut comes meanwhile. */
  private wake: (() => void) | undefined;
  private outputSeen = false;
  private readonly outputWaiters: { resolve(): void; reject(error: unknown): void }[] = [];

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly stream: FaultStream,
    private readonly natives: Natives,
    private readonly hooks: CutHooks,
    timing: ResponseTiming,
  ) {
    this.lastOutput = natives.now();
    if (timing.idleCutMs !== undefined) this.watchIdle(timing.idleCutMs);
  }

  source(): UnderlyingDefaultSource<Uint8Array> {
    return bare({
      pull: (controller: ReadableStreamDefaultController<Uint8Array>) => this.pull(controller),
      cancel: (reason: unknown) => {
        this.finish();
        this.abandon();
        return this.natives.cancelReader(this.reader, reason);
      },
    });
  }

  /** Resolves at the first bytes (or the end) the page can read; rejects when the body failed before any. */
  firstOutput(): Promise<void> {
    if (this.outputSeen) return Promise.resolve();
    return new Promise((resolve, reject) => this.outputWaiters.push({ resolve, reject }));
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    if (this.cut) return this.fail(controller, this.hooks.networkError());
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await this.natives.read(this.reader);
      } catch (error) {
        if (this.cut) return this.fail(controller, this.hooks.networkError());
        this.abandon();
        return this.fail(controller, error);
      }
      // An idle cut cancelled the network read that was waiting.
      if (this.cut) return this.fail(controller, this.hooks.networkError());
      const ops = this.hooks.pushing(this.delivered, () =>
        result.done ? this.stream.finish() : this.stream.push(result.value),
      );
      let wrote = false;
      for (const op of ops) {
        if (op.op === 'pause') await this.pause(op.ms);
        if (op.op === 'cut') this.cutNetwork();
        if (this.cut) {
          if (!wrote) this.fail(controller, this.hooks.networkError());
          return;
        }
        if (op.op !== 'write') continue;
        this.delivered += this.natives.byteLength(op.bytes);
        // A copy each: the tap's byte stream (body.ts) moves what it is given, and the ops share one chunk.
        controller.enqueue(op.bytes.slice());
        this.stream.written(op.bytes);
        this.output();
        wrote = true;
      }
      if (result.done) {
        this.finish();
        controller.close();
        this.output();
        return;
      }
      if (wrote) return;
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.natives.setTimeout(resolve, ms);
    });
  }

  /** The network body cancelled and its fetch aborted: the connection closes, as a network failure would. */
  private cutNetwork(): void {
    this.cut = true;
    this.finish();
    this.natives.cancelReader(this.reader, undefined).catch(() => undefined);
    this.hooks.abortNetwork();
    this.wake?.();
  }

  /** Cuts once `ms` passed with nothing handed to the page; output meanwhile moves the deadline. */
  private watchIdle(ms: number): void {
    const check = (): void => {
      if (this.over) return;
      const quiet = this.natives.now() - this.lastOutput;
      if (quiet < ms) {
        this.natives.setTimeout(check, ms - quiet);
        return;
      }
      const ops = this.hooks.pushing(this.delivered, () => this.stream.idleCut());
      for (const op of ops) if (op.op === 'cut') this.cutNetwork();
    };
    this.natives.setTimeout(check, ms);
  }

  private output(): void {
    this.lastOutput = this.natives.now();
    if (this.outputSeen) return;
    this.outputSeen = true;
    for (const waiter of this.outputWaiters) waiter.resolve();
  }

  private fail(controller: ReadableStreamDefaultController<Uint8Array>, error: unknown): void {
    this.finish();
    controller.error(error);
    if (this.outputSeen) return;
    this.outputSeen = true;
    // A held head never went out: the page's fetch() fails, as it does when a connection drops before the head.
    const failure = this.cut ? this.hooks.fetchError() : error;
    for (const waiter of this.outputWaiters) waiter.reject(failure);
  }

  /** The body will never be written (the page cancelled it, the network failed): a buffer reports what it lost. */
  private abandon(): void {
    this.hooks.pushing(this.delivered, () => this.stream.finish('abandoned'));
  }

  private finish(): void {
    this.over = true;
  }
}
