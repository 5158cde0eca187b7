// Runs anywhere (pure): cuts delta batches into messages below a size limit; one oversized chunk becomes pieces
// flagged `more` that the background joins again (so chunk boundaries survive the trip).
import type { ConnectionDelta } from './records';
import { deltaSize } from './size';

/** Runtime messages stay well below browser limits (Chrome: 64 MiB per message). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

function pieces(delta: Extract<ConnectionDelta, { kind: 'chunk' }>, max: number): ConnectionDelta[] {
  const step = Math.max(4, Math.floor((max - 128) / 4) * 4);
  const out: ConnectionDelta[] = [];
  for (let i = 0; i < delta.b64.length; i += step) {
    const b64 = delta.b64.slice(i, i + step);
    const more = i + step < delta.b64.length;
    out.push({ kind: 'chunk', id: delta.id, t: delta.t, b64, ...(more ? { more: true } : {}) });
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
