// Runs anywhere (pure core): a recorded body given again chunk by chunk, with some spans replaced (ids that follow
// the new client, the replay's origin in an endpoint URL). Every other byte is the recording's, and every chunk ends
// where the recorded one did, unless that end falls inside a replaced span: then the span goes whole with the chunk
// it starts in, so a cut stays at the same byte of the event around it.
import { concatBytes } from '../capture/bytes';
import type { Span } from './json-sites';

/**
 * The spans a replay may replace, sorted by start (made once per recorded exchange), and what span `index` becomes
 * when its chunk is sent (undefined: as recorded). One function, not a closure per span: a 64 MB stream of progress
 * notifications has a span in every event, and a closure each made every replay of it churn the collector.
 */
export interface Replacements {
  spans: readonly Span[];
  replace(index: number): Uint8Array | undefined;
}

export class BodyRewriter {
  private emitted = 0;
  private next: number;
  /** Replacements decided ahead of their turn (a span the chunk end falls in), by span index; dropped once used. */
  private readonly decided = new Map<number, Uint8Array | undefined>();

  /** `from`: the body offset the replay starts at (a resume continued after its cursor). */
  constructor(
    private readonly body: Uint8Array,
    private readonly replacements: Replacements,
    from = 0,
  ) {
    this.next = firstAtOrAfter(replacements.spans, from);
    this.emitted = from;
  }

  /** The bytes from where the last chunk stopped to `end` (a recorded chunk's end offset), replaced. */
  take(end: number): Uint8Array {
    const { spans } = this.replacements;
    const stop = this.stopFor(end);
    let parts: Uint8Array[] | undefined;
    let pos = this.emitted;
    while (this.next < spans.length && (spans[this.next] as Span).start < stop) {
      const index = this.next;
      const span = spans[index] as Span;
      this.next += 1;
      const replacement = span.start < pos ? undefined : this.decide(index); // overlapping a span already taken
      if (this.decided.size > 0) this.decided.delete(index);
      if (replacement === undefined) continue;
      (parts ??= []).push(this.body.subarray(pos, span.start), replacement);
      pos = span.end;
    }
    const rest = this.body.subarray(pos, Math.max(pos, stop));
    this.emitted = Math.max(this.emitted, stop);
    if (!parts) return rest;
    parts.push(rest);
    return concatBytes(parts);
  }

  /** `end`, or the end of a replaced span it falls inside. */
  private stopFor(end: number): number {
    const { spans } = this.replacements;
    for (let index = this.next; index < spans.length; index += 1) {
      const span = spans[index] as Span;
      if (span.start >= end) break;
      if (span.end > end && span.start >= this.emitted && this.decide(index) !== undefined) return span.end;
    }
    return end;
  }

  private decide(index: number): Uint8Array | undefined {
    if (!this.decided.has(index)) this.decided.set(index, this.replacements.replace(index));
    return this.decided.get(index);
  }
}

/** The index of the first span starting at or after `offset` (spans sorted by start). */
function firstAtOrAfter(spans: readonly Span[], offset: number): number {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((spans[mid] as Span).start < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}
