// Page MAIN world: one recorded connection. Body branches (the response and its clones) offer the bytes they
// deliver to the page; the record keeps each byte once, at the time it first reached the page.
import type { HttpHeader, WireConnectionStart } from '../protocol/records';
import type { DeltaSink } from './channel';
import { viewOf } from './intrinsics';
import type { Natives } from './natives';

export type EndReason = 'complete' | 'aborted' | 'network-error';

export class ConnectionTap {
  private recordedBytes = 0;
  private openBranches = 0;
  private ended = false;
  /** Runs once when the record ends: lets go of what only an open record needs (the abort listener). */
  onEnd: (() => void) | null = null;

  constructor(
    readonly id: string,
    private readonly sink: DeltaSink,
    private readonly natives: Natives,
  ) {}

  get isEnded(): boolean {
    return this.ended;
  }

  start(conn: Omit<WireConnectionStart, 'id'>): void {
    // Redacted when sent (TapChannel): the bridge may not have said yet whether the user opted in.
    this.sink.push({ kind: 'start', conn: { ...conn, id: this.id } });
  }

  response(status: number, statusText: string, headers: HttpHeader[], time = this.sink.now()): void {
    this.sink.push({ kind: 'response', id: this.id, status, statusText, responseHeaders: headers, responseTime: time });
  }

  /** A body branch the page can read; each ends the record when it completes or fails, or when all are cancelled. */
  openBranch(): void {
    this.openBranches++;
  }

  /** `offset` is where `bytes` start in the body as this branch delivered it. */
  offer(offset: number, bytes: Uint8Array, time = this.sink.now()): void {
    if (this.ended) return;
    const { natives } = this;
    const length = natives.byteLength(bytes);
    const end = offset + length;
    if (end <= this.recordedBytes || offset > this.recordedBytes) return;
    const skip = this.recordedBytes - offset;
    // Natives, not bytes.subarray: the page may have replaced it (or Uint8Array[Symbol.species]).
    const fresh =
      skip === 0
        ? bytes
        : viewOf(natives.bufferOf(bytes) as ArrayBuffer, natives.byteOffset(bytes) + skip, length - skip);
    this.recordedBytes = end;
    this.sink.push({ kind: 'chunk', id: this.id, t: time, bytes: fresh });
  }

  branchCancelled(): void {
    this.openBranches--;
    if (this.openBranches <= 0) this.end('aborted', 'the page cancelled the body');
  }

  end(reason: EndReason, error?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.sink.push({ kind: 'end', id: this.id, end: reason, endTime: this.sink.now(), ...(error ? { error } : {}) });
    const onEnd = this.onEnd;
    this.onEnd = null;
    onEnd?.();
  }
}
