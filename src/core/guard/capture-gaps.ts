// Runs anywhere (pure core): capture gaps are the recorder's losses, never the server's. A finding located in a
// connection's body at or after the event that a gap cut into is about bytes the capture spliced together: dropped.
import { recordedOffset } from '../capture/gaps';
import type { BodyChunk } from '../capture/model';
import type { Model } from '../model/types';
import type { Finding } from './types';

/** The rule that reports the gaps themselves (its findings are never dropped). */
export const CAPTURE_GAP_RULE = 'capture-gap';

/** A test: is this finding judged across a capture gap (so it says nothing about the server)? */
export function judgedAcross(model: Model): (finding: Finding) => boolean {
  const from = new Map<string, number>();
  for (const conn of model.connections) {
    const gaps = conn.record.gaps;
    if (!gaps || gaps.length === 0) continue;
    from.set(conn.id, eventStartBefore(conn.record.chunks, recordedOffset(gaps, 0)));
  }
  if (from.size === 0) return () => false;
  return (f) => {
    if (f.rule === CAPTURE_GAP_RULE || f.connectionId === undefined || f.byteOffset === undefined) return false;
    const start = from.get(f.connectionId);
    return start !== undefined && f.byteOffset >= start;
  };
}

/**
 * The offset where the event holding recorded byte `offset` began: just after the last blank line before it (LF LF,
 * CR CR or CRLF CRLF), or 0. Read backwards from the gap, so it costs the event's length, not the body's.
 */
export function eventStartBefore(chunks: readonly BodyChunk[], offset: number): number {
  let k = 0;
  let start = 0;
  while (k < chunks.length && start + (chunks[k] as BodyChunk).bytes.byteLength < offset) {
    start += (chunks[k] as BodyChunk).bytes.byteLength;
    k++;
  }
  // Bytes from the gap backwards: the current chunk from `offset - start`, then earlier chunks whole.
  const back: number[] = [];
  for (let pos = Math.min(offset, totalBytes(chunks)) - 1; pos >= 0; pos--) {
    while (k > 0 && pos < start) {
      k--;
      start -= (chunks[k] as BodyChunk).bytes.byteLength;
    }
    const b = (chunks[k] as BodyChunk).bytes[pos - start] as number;
    back.push(b);
    const n = back.length;
    const [b1, b2] = [back[n - 2], back[n - 3]];
    // `back` holds the bytes after pos in reverse: b (at pos), then what followed it.
    if (n >= 2 && b === 0x0a && b1 === 0x0a) return pos + 2;
    if (n >= 2 && b === 0x0d && b1 === 0x0d) return pos + 2;
    if (n >= 3 && b === 0x0a && b1 === 0x0d && b2 === 0x0a) return pos + 3;
    if (n > 3) back.shift();
  }
  return 0;
}

function totalBytes(chunks: readonly BodyChunk[]): number {
  let total = 0;
  for (const chunk of chunks) total += chunk.bytes.byteLength;
  return total;
}
