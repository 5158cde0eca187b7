// Runs anywhere (pure core): `rewrite-response-id`'s bytes: the JSON-RPC response on an SSE response stream, carried
// under the id `pick` gives (the planner chooses it: another request's, see planner.ts). Each frame is held until it
// ends (its data must be read whole to be rewritten), at most HOLD_CAP bytes: a bigger frame passes as it comes.
// The first response frame is rewritten (its data lines become one `data:` line of the same JSON with the new id,
// its other lines kept, LF line ends) or, when `pick` gives none, passed as it came; every byte after it passes.
import { concatBytes } from '../capture/bytes';
import { TextDecoder, TextEncoder } from '../web/globals';
import type { ByteRewriter } from './fault-stream';
import { classifyFrame } from './frame-kind';
import { type Frame, SseFramer } from './sse-framer';

/** The most bytes of one frame held back (the framer keeps this much of a data value to read). */
const HOLD_CAP = 64 * 1024;
/** A numeric id becomes this much bigger: an id the client has not sent on this stream. */
export const RESPONSE_ID_OFFSET = 1000;

export type RpcId = string | number;

/** The id the fault gives a response answering `id`. */
export function otherId(id: RpcId): RpcId {
  return typeof id === 'number' ? id + RESPONSE_ID_OFFSET : `${id}-other`;
}

export class ResponseIdRewriter implements ByteRewriter {
  private readonly framer = new SseFramer();
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /** The current frame outgrew HOLD_CAP: it passes as it comes. */
  private passing = false;
  /** A response was rewritten: the rest of the stream passes. */
  private done = false;

  constructor(private readonly pick: (from: RpcId) => RpcId | undefined) {}

  push(chunk: Uint8Array): Uint8Array[] {
    if (this.done) return [chunk];
    const out: Uint8Array[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      const result = this.framer.scan(chunk, pos);
      const piece = chunk.subarray(pos, result.stop);
      pos = result.stop;
      if (this.passing) out.push(piece);
      else this.hold(piece, out);
      if (!result.ended) continue;
      if (!this.passing) out.push(this.rewrite(result.ended));
      this.held = [];
      this.heldBytes = 0;
      this.passing = false;
      if (this.done) {
        if (pos < chunk.length) out.push(chunk.subarray(pos));
        return out;
      }
    }
    return out;
  }

  flush(): Uint8Array[] {
    const held = this.held;
    this.held = [];
    return held;
  }

  private hold(piece: Uint8Array, out: Uint8Array[]): void {
    if (piece.length === 0) return;
    // A copy (never a view: the chunk may be a Node Buffer the caller reuses).
    this.held.push(new Uint8Array(piece));
    this.heldBytes += piece.length;
    if (this.heldBytes <= HOLD_CAP) return;
    out.push(...this.held);
    this.held = [];
    this.passing = true;
  }

  /** The held frame, rewritten when it is a JSON-RPC response with an id. */
  private rewrite(frame: Frame): Uint8Array {
    const bytes = concatBytes(this.held);
    if (frame.dataTruncated || classifyFrame(frame) !== 'response') return bytes;
    const message = parseObject(frame.dataHead);
    const id = message?.['id'];
    if (!message || (typeof id !== 'number' && typeof id !== 'string')) return bytes;
    this.done = true;
    const to = this.pick(id);
    if (to === undefined) return bytes;
    const data = `data: ${JSON.stringify({ ...message, id: to })}`;
    const lines = new TextDecoder().decode(bytes).split(/\r\n|\r|\n/);
    const kept: string[] = [];
    let placed = false;
    for (const line of lines) {
      if (line === '') continue;
      if (!/^data(:|$)/.test(line)) kept.push(line);
      else if (!placed) {
        kept.push(data);
        placed = true;
      }
    }
    return new TextEncoder().encode(`${kept.join('\n')}\n\n`);
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
