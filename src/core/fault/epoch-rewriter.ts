// Runs anywhere (pure core): re-ids the events of an SSE stream as a restarted replica would, with a new epoch
// and a counter from 1 (`<epoch>:1`, `<epoch>:2`, ...). Streaming: every byte but the `id` lines passes through
// as it comes, so an event is never held back longer than its own id line.
import { TextDecoder, TextEncoder } from '../web/globals';

const LF = 0x0a;
const CR = 0x0d;
/** `id:`, the start of the one line this rewriter replaces (`id` alone, with no colon, is an id line too). */
const ID_FIELD = [0x69, 0x64, 0x3a];

type LineMode = 'undecided' | 'pass' | 'id';

export class EpochRewriter {
  private readonly encoder = new TextEncoder();
  private mode: LineMode = 'undecided';
  /** Bytes at the start of the current line, held until they tell whether it is an id line. */
  private pending: number[] = [];
  private afterCR = false;
  private counter = 0;
  /** The id the current frame was given (a frame with two id lines keeps one). */
  private frameId: string | undefined;
  /** Every (original, new) id pair, in order. */
  readonly renamed: { from: string; to: string }[] = [];
  private original: number[] = [];

  constructor(readonly epoch: string) {}

  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let run = 0;
    const flushRun = (end: number): void => {
      if (end > run) out.push(chunk.subarray(run, end));
    };
    for (let pos = 0; pos < chunk.length; pos++) {
      const byte = chunk[pos] as number;
      if (this.afterCR && byte === LF) {
        this.afterCR = false;
        continue; // the LF of a CRLF: passes with the run, the line already ended at the CR
      }
      this.afterCR = byte === CR;
      if (byte === CR || byte === LF) {
        if (this.mode !== 'pass') {
          flushRun(pos);
          run = pos;
          this.endHeldLine(out);
        }
        this.mode = 'undecided';
        continue;
      }
      if (this.mode === 'pass') continue;
      if (this.mode === 'id') {
        this.original.push(byte);
        run = pos + 1;
        continue;
      }
      // Undecided: hold the byte until the line's start is known.
      if (this.pending.length === 0) flushRun(pos);
      this.pending.push(byte);
      run = pos + 1;
      if (this.pending.every((b, i) => ID_FIELD[i] === b)) {
        if (this.pending.length === ID_FIELD.length) {
          this.mode = 'id';
          this.pending = [];
          this.original = [];
        }
        continue;
      }
      out.push(Uint8Array.from(this.pending));
      this.pending = [];
      this.mode = 'pass';
    }
    flushRun(chunk.length);
    return out;
  }

  /** At the end of the stream: the start of a line still held (a stream cut inside it). */
  flush(): Uint8Array[] {
    const held = this.mode === 'undecided' && this.pending.length > 0 ? [Uint8Array.from(this.pending)] : [];
    this.pending = [];
    return held;
  }

  /** A line that ended while held: an id line (rewritten), `id` alone, a blank line (frame end) or a short line. */
  private endHeldLine(out: Uint8Array[]): void {
    const [i, d] = ID_FIELD;
    const bareId =
      this.mode === 'undecided' && this.pending.length === 2 && this.pending[0] === i && this.pending[1] === d;
    if (this.mode === 'id' || bareId) {
      out.push(this.encoder.encode(`id: ${this.idFor(this.original)}`));
    } else if (this.pending.length > 0) {
      out.push(Uint8Array.from(this.pending));
    } else {
      this.frameId = undefined; // a blank line: the frame ended
    }
    this.pending = [];
    this.original = [];
  }

  private idFor(original: number[]): string {
    if (this.frameId === undefined) {
      this.counter += 1;
      this.frameId = `${this.epoch}:${this.counter}`;
      const value = original[0] === 0x20 ? original.slice(1) : original;
      this.renamed.push({ from: new TextDecoder().decode(Uint8Array.from(value)), to: this.frameId });
    }
    return this.frameId;
  }
}
