// Runs in Node (the fault proxy): writes one response back to the client as its faults say. The decisions are the
// core's (FaultStream); the clock is here: a stall's pause is waited out, a buffer's held head goes with the body's
// end, and an idle cut fires once nothing was written for its time. Bytes leave in the order the faults gave them.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { FaultStream } from '../core/fault/fault-stream';
import type { StreamOp } from '../core/fault/pacing';

export interface WriterSink {
  writeHead(): void;
  /** Writes to the client; false when the socket asks to wait for 'drain'. */
  write(bytes: Uint8Array): boolean;
  /** Cuts the connection (the client sees a network error) and drops the upstream. */
  cut(): void;
}

export class ResponseWriter {
  private readonly queue: StreamOp[] = [];
  private heldHead = false;
  private stalled = false;
  private ending = false;
  private closed = false;
  /** The upstream is paused by us: a stall, or a client slower than the server. */
  private sourcePaused = false;
  private awaitingDrain = false;
  private lastWrite = 0;
  private stallTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly source: Readable,
    private readonly stream: FaultStream | undefined,
    private readonly sink: WriterSink,
  ) {
    res.once('close', () => this.stop());
  }

  /** The response head, written now or held until the body's end (buffer); an idle cut counts from here. */
  start(): void {
    const timing = this.stream?.opened();
    if (timing?.holdHead) this.heldHead = true;
    else this.sink.writeHead();
    this.lastWrite = performance.now();
    if (timing?.idleCutMs !== undefined) this.watchIdle(timing.idleCutMs);
  }

  push(ops: StreamOp[]): void {
    if (this.closed) return;
    this.queue.push(...ops);
    this.drain();
  }

  /** The upstream body ended: what the faults still hold goes out, then the end. */
  end(): void {
    if (this.closed) return;
    this.ending = true;
    this.push(this.stream?.finish() ?? []);
  }

  private drain(): void {
    while (!this.closed && !this.stalled) {
      const op = this.queue.shift();
      if (!op) break;
      if (op.op === 'pause') this.stall(op.ms);
      else if (op.op === 'cut') this.cutNow();
      else this.write(op.bytes);
    }
    if (this.closed) return;
    if (!this.stalled && this.ending && this.queue.length === 0) {
      this.writeHeldHead();
      this.closed = true;
      this.clearTimers();
      this.res.end();
      return;
    }
    this.flow();
  }

  private write(bytes: Uint8Array): void {
    this.writeHeldHead();
    this.sink.write(bytes);
    this.stream?.written(bytes);
    this.lastWrite = performance.now();
  }

  private writeHeldHead(): void {
    if (!this.heldHead) return;
    this.heldHead = false;
    this.sink.writeHead();
  }

  /** A stall: nothing is written, and the upstream is not read, for `ms` (what it sent meanwhile waits in order). */
  private stall(ms: number): void {
    this.stalled = true;
    this.stallTimer = setTimeout(() => {
      this.stalled = false;
      this.drain();
    }, ms);
  }

  /** Reads the upstream only while the client can take it and no stall holds the stream. */
  private flow(): void {
    if (this.stalled || this.res.writableNeedDrain) {
      if (!this.sourcePaused) this.source.pause();
      this.sourcePaused = true;
      if (!this.stalled && !this.awaitingDrain) {
        this.awaitingDrain = true;
        this.res.once('drain', () => {
          this.awaitingDrain = false;
          this.flow();
        });
      }
      return;
    }
    if (this.sourcePaused) this.source.resume();
    this.sourcePaused = false;
  }

  /** Cuts once `ms` passed with nothing written; a write meanwhile moves the deadline (one timer, re-armed late). */
  private watchIdle(ms: number): void {
    const check = (): void => {
      if (this.closed) return;
      const quiet = performance.now() - this.lastWrite;
      if (quiet < ms) {
        this.idleTimer = setTimeout(check, Math.ceil(ms - quiet));
        return;
      }
      // What a stall still held never reaches the client: the connection goes with it.
      this.queue.length = 0;
      const ops = this.stream?.idleCut() ?? [];
      if (ops.some((op) => op.op === 'cut')) this.cutNow();
    };
    this.idleTimer = setTimeout(check, ms);
  }

  private cutNow(): void {
    this.closed = true;
    this.clearTimers();
    this.sink.cut();
  }

  /** The client's connection closed (after the end, a cut, or because it went away). */
  private stop(): void {
    this.closed = true;
    this.clearTimers();
    this.stream?.finish('abandoned');
  }

  private clearTimers(): void {
    clearTimeout(this.stallTimer);
    clearTimeout(this.idleTimer);
  }
}
