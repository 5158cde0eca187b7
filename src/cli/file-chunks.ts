// Runs in Node (CLI), pure: a raw event stream's body chunks that hold no bytes, read again from the file when the
// core asks for them. A raw stream used to keep every piece it was read in, so a 1 GB file held 1 GB; now the
// analysis holds its tables and the few chunks it reads at a time. The core reads each chunk's `bytes` once to
// parse it and again only for the events whose data a rule or the report reads.

import { InputError } from '../core/capture/errors';
import type { BodyChunk } from '../core/capture/model';

/** Reads byte ranges of one open file, synchronously (the core's reads are synchronous). */
export interface RangeReader {
  read(offset: number, length: number): Uint8Array;
  close(): void;
}

/** A temporary file the CLI writes bodies to and reads them back from; gone once closed (or the process ends). */
export interface ScratchFile extends RangeReader {
  /** Writes `bytes` at the end of the file; where they start. */
  append(bytes: Uint8Array): number;
}

/**
 * How many bytes of chunks read stay in memory (at least the last two chunks): what one event spanning chunks or a
 * rule's look back needs. 32 of a raw file's 256 KiB pieces, two of a HAR's 4 MB bodies.
 */
const KEPT_BYTES = 8 * 2 ** 20;
const KEPT_AT_LEAST = 2;

/** The chunks of one file: each remembers where it is; the last few read are kept. */
export class FileChunks {
  private readonly kept: { chunk: FileChunk; bytes: Uint8Array }[] = [];
  private keptBytes = 0;
  /** Masks laid over the file's bytes (redaction), by file offset: few, and each within one chunk. */
  private readonly patches: { at: number; bytes: Uint8Array }[] = [];
  private patchesSorted = true;

  constructor(private readonly ranges: RangeReader) {}

  /** From now on the file reads as if `bytes` stood at `at` (a redaction mask; kept chunks get it at once). */
  patch(at: number, bytes: Uint8Array): void {
    const last = this.patches.at(-1);
    if (last && last.at > at) this.patchesSorted = false;
    this.patches.push({ at, bytes });
    for (const { chunk, bytes: held } of this.kept) overlay(held, chunk.offset, at, bytes);
  }

  /**
   * The chunk of `bytes`, read at `offset` of the file and delivered at `t` (raw files carry no times, see
   * importRawStream); those bytes are kept until more recent reads push them out.
   */
  chunk(bytes: Uint8Array, offset: number, t = 0): BodyChunk {
    const chunk = new FileChunk(this, offset, bytes.length, t);
    this.keep(chunk, bytes);
    return chunk;
  }

  bytesOf(chunk: FileChunk): Uint8Array {
    const at = this.kept.findIndex((k) => k.chunk === chunk);
    if (at !== -1) {
      const [entry] = this.kept.splice(at, 1);
      if (entry) {
        this.kept.push(entry);
        return entry.bytes;
      }
    }
    const bytes = this.ranges.read(chunk.offset, chunk.length);
    if (bytes.length !== chunk.length)
      throw new InputError('', `the file changed while it was analyzed: byte ${chunk.offset + bytes.length} is gone`);
    this.applyPatches(bytes, chunk.offset);
    this.keep(chunk, bytes);
    return bytes;
  }

  private applyPatches(bytes: Uint8Array, offset: number): void {
    if (this.patches.length === 0) return;
    if (!this.patchesSorted) {
      this.patches.sort((a, b) => a.at - b.at);
      this.patchesSorted = true;
    }
    // The first patch ending past `offset`: masks do not overlap, so their ends are in order too.
    let lo = 0;
    let hi = this.patches.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const p = this.patches[mid] as { at: number; bytes: Uint8Array };
      if (p.at + p.bytes.length <= offset) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.patches.length; i++) {
      const p = this.patches[i] as { at: number; bytes: Uint8Array };
      if (p.at >= offset + bytes.length) break;
      overlay(bytes, offset, p.at, p.bytes);
    }
  }

  private keep(chunk: FileChunk, bytes: Uint8Array): void {
    this.kept.push({ chunk, bytes });
    this.keptBytes += bytes.length;
    while (this.kept.length > KEPT_AT_LEAST && this.keptBytes > KEPT_BYTES)
      this.keptBytes -= (this.kept.shift() as { bytes: Uint8Array }).bytes.length;
  }
}

/** Writes the part of `patch` (at file offset `at`) that falls in `bytes` (at file offset `offset`). */
function overlay(bytes: Uint8Array, offset: number, at: number, patch: Uint8Array): void {
  const from = Math.max(at, offset);
  const to = Math.min(at + patch.length, offset + bytes.length);
  if (from < to) bytes.set(patch.subarray(from - at, to - at), from - offset);
}

class FileChunk implements BodyChunk {
  constructor(
    private readonly file: FileChunks,
    readonly offset: number,
    readonly length: number,
    readonly t: number,
  ) {}

  get bytes(): Uint8Array {
    return this.file.bytesOf(this);
  }
}
