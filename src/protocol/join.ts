// Worker (pure): joins chunk pieces that a bridge split to stay below message limits (`more: true`), and gives
// frame-scoped connection ids, so the panel sees each chunk exactly as the tap recorded it.
import { concatBytes } from '../core/capture/bytes';
import type { ConnectionDelta } from './records';

/** Connection ids of subframes get a frame prefix: two frames' taps can never collide (or pose as each other). */
export function scopeId(frameId: number, id: string): string {
  return frameId === 0 ? id : `f${frameId}.${id}`;
}

function withId(delta: ConnectionDelta, frameId: number): ConnectionDelta {
  if (frameId === 0) return delta;
  if (delta.kind === 'start') return { kind: 'start', conn: { ...delta.conn, id: scopeId(frameId, delta.conn.id) } };
  return { ...delta, id: scopeId(frameId, delta.id) };
}

/** One per bridge port: pieces of one chunk arrive consecutively, possibly across messages. */
export class DeltaJoiner {
  private readonly pending = new Map<string, { t: number; pieces: Uint8Array[] }>();

  constructor(private readonly frameId: number) {}

  push(deltas: ConnectionDelta[]): ConnectionDelta[] {
    const out: ConnectionDelta[] = [];
    for (const delta of deltas) {
      if (delta.kind !== 'chunk') {
        out.push(withId(delta, this.frameId));
        continue;
      }
      const held = this.pending.get(delta.id);
      if (delta.more) {
        if (held) held.pieces.push(delta.bytes);
        else this.pending.set(delta.id, { t: delta.t, pieces: [delta.bytes] });
        continue;
      }
      this.pending.delete(delta.id);
      const bytes = held ? concatBytes([...held.pieces, delta.bytes]) : delta.bytes;
      out.push(withId({ kind: 'chunk', id: delta.id, t: held ? held.t : delta.t, bytes }, this.frameId));
    }
    return out;
  }
}
