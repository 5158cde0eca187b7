// Runs anywhere (pure): cuts delta batches into messages below a size limit; one oversized chunk becomes pieces
// flagged `more` that the background joins again (so chunk boundaries survive the trip).
import type { ConnectionDelta } from './records';
import { deltaSize } from './size';

/** Runtime messages stay well below browser limits (Chrome: 64 MiB per message). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

type Chunk = Extract<ConnectionDelta, { kind: 'chunk' }>;

/** Pieces are copies (slice): a structured clone of a view sends its whole buffer, not just the view's bytes. */
function pieces(delta: Chunk, max: number): Chunk[] {
  const step = Math.max(1, max - 128);
  const out: Chunk[] = [];
  for (let i = 0; i < delta.bytes.byteLength; i += step) {
    const bytes = delta.bytes.slice(i, i + step);
    const more = i + step < delta.bytes.byteLength;
    out.push({ kind: 'chunk', id: delta.id, t: delta.t, bytes, ...(more ? { more: true } : {}) });
  }
  return out;
}

export function splitIntoMessages(deltas: ConnectionDelta[], max: number = MAX_MESSAGE_BYTES): ConnectionDelta[][] {
  const messages: ConnectionDelta[][] = [];
  let current: ConnectionDelta[] = [];
  let size = 0;
  const push = (d: ConnectionDelta): void => {
    const s = deltaSize(d);
    if (current.length > 0 && size + s > max) {
      messages.push(current);
      current = [];
      size = 0;
    }
    current.push(d);
    size += s;
  };
  for (const d of deltas) {
    if (d.kind === 'chunk' && deltaSize(d) > max) pieces(d, max).forEach(push);
    else push(d);
  }
  if (current.length > 0) messages.push(current);
  return messages;
}
