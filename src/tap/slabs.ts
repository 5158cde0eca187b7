// Page MAIN world: where the tap keeps its copy of each chunk until the batch leaves. Copies go into 2 MiB slabs that
// the bridge hands back once it is done with them, so the page's thread keeps writing to memory it already touched.
//
// Why: measured in Chromium 156 on this project's machine, copying 64 MB into fresh buffers (`new Uint8Array(chunk)`)
// costs the page 230-440 ms, nearly all of it first-touch page faults; the same copy into a buffer written before
// costs 4-13 ms. That copy was almost all of the tap's cost on a 64 MB stream (260 of 268 ms added), and a page
// reading at full speed is bound by its own thread, so it read 23% slower.
import { viewOf } from './intrinsics';
import type { Natives } from './natives';
import { SLAB_BYTES } from './wire';

// SLAB_BYTES (wire.ts) is 2 MiB: Chromium hands a fetch body over in chunks of up to 2 MiB (on a 64 MB stream:
// 64 KiB to 2 MiB, median 1 MB; all 2 MiB once the page falls behind), so a slab holds one chunk or a few.
/**
 * A chunk below this gets a buffer of its own, as small allocations reuse warm memory anyway: a slab per small
 * chunk would move 2 MiB per batch for a few bytes (1,000 recorded POSTs then cost 1.26x, from 0.99x), and each
 * fresh 2 MiB buffer counts towards the page's GC pressure.
 */
const SMALL_CHUNK_BYTES = 64 * 1024;
/** Slabs kept for reuse (twice as many while a panel watches: batches are bigger); the rest are let go. */
const MAX_FREE_SLABS = 4;

export class Slabs {
  private slab: ArrayBuffer | null = null;
  private used = 0;
  private readonly free: ArrayBuffer[] = [];
  /** How many free slabs to keep. */
  keep = MAX_FREE_SLABS;
  /** Buffers written since the last take(), in order. */
  private written: ArrayBuffer[] = [];

  constructor(private readonly natives: Natives) {}

  /** A copy of `bytes` (in a slab, or for a small or huge chunk a buffer of its own), valid until take() moves it. */
  copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
    const { natives } = this;
    const length = natives.byteLength(bytes);
    if (length < SMALL_CHUNK_BYTES || length > SLAB_BYTES) {
      const own = new natives.ArrayBuffer(length);
      this.written[this.written.length] = own;
      const view = viewOf(own, 0, length);
      natives.setBytes(view, bytes, 0);
      return view;
    }
    if (!this.slab || this.used + length > SLAB_BYTES) this.startSlab();
    const slab = this.slab as ArrayBuffer;
    const view = viewOf(slab, this.used, length);
    natives.setBytes(view, bytes, 0);
    this.used += length;
    return view;
  }

  /** The buffers holding every copy since the last call, to transfer; later copies go to other buffers. */
  take(): ArrayBuffer[] {
    const written = this.written;
    this.written = [];
    this.slab = null;
    this.used = 0;
    return written;
  }

  /** A buffer coming back from the bridge: reused when it is one of ours, still whole, and room is left. */
  give(buffer: unknown): void {
    const { natives } = this;
    if (!(buffer instanceof natives.ArrayBuffer) || this.free.length >= this.keep) return;
    if (natives.bufferLength(buffer) !== SLAB_BYTES) return;
    this.free[this.free.length] = buffer;
  }

  /** Keeps more slabs while batches are big; lets the extra ones go otherwise. */
  setLive(live: boolean): void {
    this.keep = live ? 2 * MAX_FREE_SLABS : MAX_FREE_SLABS;
    if (this.free.length > this.keep) this.free.length = this.keep;
  }

  private startSlab(): void {
    // Not Array.prototype.pop: the page may have replaced it.
    const last = this.free.length - 1;
    const slab = last >= 0 ? (this.free[last] as ArrayBuffer) : new this.natives.ArrayBuffer(SLAB_BYTES);
    if (last >= 0) this.free.length = last;
    this.slab = slab;
    this.used = 0;
    this.written[this.written.length] = slab;
  }
}
