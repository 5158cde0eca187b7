// Runs anywhere (browsers, Node, Workers): lets through only whole SSE events, each one kept or dropped by a
// verdict. Touches no DOM and no Node API.
/*
 * The byte gate of the client guard. The core's SseParser says where each dispatched event's bytes lie; the gate
 * holds the bytes of the event being read until its blank line arrives, then hands them on (or drops them) whole.
 * What an event leaves behind when its stream ends (a torn event) is never handed on, so even a client that glues
 * a resumed response onto the bytes of the broken one never reads a partial event. The common case costs one
 * subarray per chunk: the kept events of a chunk are contiguous and go out as one view, never copied.
 */
import { SseParser, type SseEvent, type SseTail } from '../core/sse';

/** What to do with a whole event: hand it on, leave it out, hand on other bytes instead, or stop the stream before it. */
export type Verdict = 'keep' | 'drop' | 'stop' | { replace: Uint8Array };

/** How a stream's held bytes ended: `torn` when an event had begun (fields read, no blank line yet). */
export interface GateEnd {
  /** Bytes handed on at the end (comment or blank lines completed before it), possibly none. */
  out: Uint8Array[];
  /** The undispatched event, when the stream ended inside one. */
  torn?: SseTail;
}

const LF = 10;
const CR = 13;

export class WholeEventGate {
  private readonly parser = new SseParser();
  /** Pushed chunks not yet wholly decided, in order; `heldFrom` is the offset of held[0]'s first byte. */
  private held: Uint8Array[] = [];
  private heldFrom = 0;
  /** Bytes before this offset are decided (handed on or dropped). */
  private decidedTo = 0;
  private stopped = false;

  /**
   * Reads one chunk; returns the bytes to hand on now. `judge` sees each event the chunk completed, in order; after a
   * `stop` nothing more is judged or handed on.
   */
  push(chunk: Uint8Array, judge: (event: SseEvent) => Verdict): Uint8Array[] {
    if (this.stopped) return [];
    const events = this.parser.push(chunk);
    this.held.push(chunk);
    const out: Uint8Array[] = [];
    let runFrom = this.decidedTo;
    for (const event of events) {
      const verdict = judge(event);
      if (verdict === 'keep') {
        this.decidedTo = event.end;
        continue;
      }
      if (this.decidedTo > runFrom) out.push(this.slice(runFrom, this.decidedTo));
      if (verdict === 'stop') {
        this.stopped = true;
        this.held = [];
        return out;
      }
      if (verdict !== 'drop') out.push(verdict.replace);
      this.decidedTo = event.end;
      runFrom = event.end;
    }
    if (this.decidedTo > runFrom) out.push(this.slice(runFrom, this.decidedTo));
    this.release();
    return out;
  }

  /** Ends the stream: lines completed after the last event are handed on, an undispatched event never. */
  finish(): GateEnd {
    if (this.stopped) return { out: [] };
    const torn = this.parser.finish();
    const total = this.parser.bytesRead;
    if (torn || total === this.decidedTo) return torn ? { out: [], torn } : { out: [] };
    // No field was read since the last event: comments or blank lines. Hand on the complete lines only.
    const rest = this.slice(this.decidedTo, total);
    let end = rest.length;
    while (end > 0 && rest[end - 1] !== LF && rest[end - 1] !== CR) end--;
    return { out: end > 0 ? [rest.subarray(0, end)] : [] };
  }

  /** The reconnection time the stream's last valid `retry` field set, if any. */
  get reconnectionTime(): number | undefined {
    return this.parser.reconnectionTime;
  }

  /** Bytes [from, to) of the held chunks: a view when one chunk holds them, a copy otherwise. */
  private slice(from: number, to: number): Uint8Array {
    let base = this.heldFrom;
    let index = 0;
    while (index < this.held.length && base + (this.held[index] as Uint8Array).length <= from) {
      base += (this.held[index] as Uint8Array).length;
      index++;
    }
    const first = this.held[index] as Uint8Array;
    if (to - base <= first.length) return first.subarray(from - base, to - base);
    const copy = new Uint8Array(to - from);
    let written = 0;
    for (; index < this.held.length && written < copy.length; index++) {
      const chunk = this.held[index] as Uint8Array;
      const start = Math.max(0, from - base);
      const end = Math.min(chunk.length, to - base);
      copy.set(chunk.subarray(start, end), written);
      written += end - start;
      base += chunk.length;
    }
    return copy;
  }

  /** Lets go of the chunks wholly before the decided offset. */
  private release(): void {
    let drop = 0;
    while (drop < this.held.length && this.heldFrom + (this.held[drop] as Uint8Array).length <= this.decidedTo) {
      this.heldFrom += (this.held[drop] as Uint8Array).length;
      drop++;
    }
    if (drop > 0) this.held = this.held.slice(drop);
  }
}
