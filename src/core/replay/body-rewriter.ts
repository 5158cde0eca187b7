// Runs anywhere (pure core): a recorded body given again chunk by chunk, with some spans replaced (ids that follow
// the new client, the replay's origin in an endpoint URL). Every other byte is the recording's, and every chunk ends
// where the recorded one did, unless that end falls inside a replaced span: then the span goes whole with the chunk
// it starts in, so a cut stays at the same byte of the event around it.
import { concatBytes } from '../capture/bytes';
import type { Span } from './json-sites';

/** A span that may be replaced: `replace` says with what when its chunk is sent (undefined: as recorded). */
export interface Replaceable extends Span {
  replace(): Uint8Array | undefined;
}

export class BodyRewriter {
  private emitted = 0;
  private next = 0;
  private readonly spans: Replaceable[];
  /** Replacements decided so far, by span index (a span is decided once, when its chunk goes). */
  private readonly decided = new Map<number, Uint8Array | undefined>();

  /** `from`: the body offset the replay starts at (a resume continued after its cursor). */
  constructor(
    private readonly body: Uint8Array,
    spans: readonly Replaceable[],
    from = 0,
  ) {
    this.spans = spans.filter((s) => s.start >= from).sort((a, b) => a.start - b.start);
    this.emitted = from;
  }

  /** The bytes from where the last chunk stopped to `end` (a recorded chunk's end offset), replaced. */
  take(end: number): Uint8Array {
    const stop = this.stopFor(end);
    const parts: Uint8Array[] = [];
    let pos = this.emitted;
    while (this.next < this.spans.length && (this.spans[this.next] as Replaceable).start < stop) {
      const index = this.next;
      const span = this.spans[index] as Replaceable;
      this.next += 1;
      if (span.start < pos) continue; // overlapping a span already taken
      const replacement = this.decide(index);
      if (replacement === undefined) continue;
      parts.push(this.body.subarray(pos, span.start), replacement);
      pos = span.end;
    }
    parts.push(this.body.subarray(pos, Math.max(pos, stop)));
    this.emitted = Math.max(this.emitted, stop);
    return parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(parts);
  }

  /** `end`, or the end of a replaced span it falls inside. */
  private stopFor(end: number): number {
    for (let index = this.next; index < this.spans.length; index += 1) {
      const span = this.spans[index] as Replaceable;
      if (span.start >= end) break;
      if (span.end > end && span.start >= this.emitted && this.decide(index) !== undefined) return span.end;
    }
    return end;
  }

  private decide(index: number): Uint8Array | undefined {
    if (!this.decided.has(index)) this.decided.set(index, (this.spans[index] as Replaceable).replace());
    return this.decided.get(index);
  }
}
