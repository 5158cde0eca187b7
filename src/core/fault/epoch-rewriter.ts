// Runs anywhere (pure core): the `id:` lines of an SSE stream, rewritten as they pass. Two faults share this one
// line scanner: `restart-epoch` re-ids the events as a restarted replica would, with a new epoch and a counter from
// 1 (`<epoch>:1`, `<epoch>:2`, ...); `add-event-ids` numbers the events that carry no id (`1`, `2`, ..., the first
// optionally with a `retry:`), as a server still on the 2025 transport's resumability would on a 2026-07-28 stream.
// Streaming: every byte but the `id` lines passes through as it comes, so an event is never held back longer than
// the first bytes of a line (an added id goes in front of an event's first field line).
import { TextDecoder, TextEncoder } from '../web/globals';
import type { ByteRewriter } from './fault-stream';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
/** `id:`, the start of the one line this rewriter replaces (`id` alone, with no colon, is an id line too). */
const ID_FIELD = [0x69, 0x64, 0x3a];

type LineMode = 'undecided' | 'pass' | 'id';

/** `epoch`: replace every id line; `number`: add an id line to each event that has none. */
export type IdRewrite = { kind: 'epoch'; epoch: string } | { kind: 'number'; retryMs?: number };

export class EventIdRewriter implements ByteRewriter {
  private readonly encoder = new TextEncoder();
  private mode: LineMode = 'undecided';
  /** Bytes at the start of the current line, held until they tell whether it is an id line. */
  private pending: number[] = [];
  private afterCR = false;
  private counter = 0;
  /** The id the current frame was given or had (a frame with two id lines keeps one). */
  private frameId: string | undefined;
  /** Every (original, new) id pair, in order; for `number`, `from` is the empty string. */
  readonly renamed: { from: string; to: string }[] = [];
  private original: number[] = [];

  constructor(private readonly how: IdRewrite) {}

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
        if (this.pending.length === ID_FIELD.length) this.startIdLine(out);
        continue;
      }
      this.beforeField(out);
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

  /** `id:` seen: `epoch` replaces the line; `number` keeps the event's own id and passes it. */
  private startIdLine(out: Uint8Array[]): void {
    this.original = [];
    if (this.how.kind === 'epoch') {
      this.mode = 'id';
    } else {
      this.frameId ??= 'own';
      out.push(Uint8Array.from(this.pending));
      this.mode = 'pass';
    }
    this.pending = [];
  }

  /** A field line (not a comment) starts: `number` puts an id (and the first time a retry) in front of it. */
  private beforeField(out: Uint8Array[]): void {
    if (this.how.kind !== 'number' || this.frameId !== undefined || this.pending[0] === COLON) return;
    this.counter += 1;
    this.frameId = String(this.counter);
    this.renamed.push({ from: '', to: this.frameId });
    const retry = this.counter === 1 && this.how.retryMs !== undefined ? `retry: ${this.how.retryMs}\n` : '';
    out.push(this.encoder.encode(`id: ${this.frameId}\n${retry}`));
  }

  /** A line that ended while held: an id line (rewritten), `id` alone, a blank line (frame end) or a short line. */
  private endHeldLine(out: Uint8Array[]): void {
    const [i, d] = ID_FIELD;
    const bareId =
      this.mode === 'undecided' && this.pending.length === 2 && this.pending[0] === i && this.pending[1] === d;
    if (this.how.kind === 'epoch' && (this.mode === 'id' || bareId)) {
      out.push(this.encoder.encode(`id: ${this.idFor(this.how.epoch, this.original)}`));
    } else if (bareId) {
      this.frameId ??= 'own'; // `number`: the event has an (empty) id of its own
      out.push(Uint8Array.from(this.pending));
    } else if (this.pending.length > 0) {
      this.beforeField(out);
      out.push(Uint8Array.from(this.pending));
    } else {
      this.frameId = undefined; // a blank line: the frame ended
    }
    this.pending = [];
    this.original = [];
  }

  private idFor(epoch: string, original: number[]): string {
    if (this.frameId === undefined) {
      this.counter += 1;
      this.frameId = `${epoch}:${this.counter}`;
      const value = original[0] === 0x20 ? original.slice(1) : original;
      this.renamed.push({ from: new TextDecoder().decode(Uint8Array.from(value)), to: this.frameId });
    }
    return this.frameId;
  }
}

/** `restart-epoch`'s rewriter: every id line re-ided `<epoch>:N`. */
export class EpochRewriter extends EventIdRewriter {
  constructor(readonly epoch: string) {
    super({ kind: 'epoch', epoch });
  }
}
