// Runs in Node (CLI), pure: keeps a JSON input's bodies in memory up to a budget, and past it moves each record's
// body chunks into a scratch file, read again when the core asks for them (as a raw stream's chunks read their file).
// A 1 GB HAR used to be held whole once its entries were decoded: 1.4 GB of RSS.

import type { ConnectionRecord } from '../core/capture/model';
import { FileChunks, type ScratchFile } from './file-chunks';

/** Bodies held in memory before the rest go to the scratch file: small inputs never touch the disk. */
export const HOLD_BYTES = 16 * 2 ** 20;

export class BodySpill {
  private held = 0;
  private file: { scratch: ScratchFile; chunks: FileChunks } | undefined;

  /** @param scratch opens the scratch file, on the first body past the budget; undefined: bodies stay in memory. */
  constructor(
    private readonly scratch: () => ScratchFile | undefined,
    private readonly holdBytes = HOLD_BYTES,
  ) {}

  /** The record as the capture keeps it: as it is while the budget lasts, else with file-backed chunks. */
  keep = (record: ConnectionRecord): ConnectionRecord => {
    let bytes = 0;
    for (const chunk of record.chunks) bytes += chunk.bytes.length;
    const file = this.held + bytes <= this.holdBytes ? undefined : this.open();
    if (!file) {
      this.held += bytes;
      return record;
    }
    const chunks = record.chunks.map((chunk) =>
      file.chunks.chunk(chunk.bytes, file.scratch.append(chunk.bytes), chunk.t),
    );
    return { ...record, chunks };
  };

  private open(): { scratch: ScratchFile; chunks: FileChunks } | undefined {
    if (!this.file) {
      const scratch = this.scratch();
      if (scratch) this.file = { scratch, chunks: new FileChunks(scratch) };
    }
    return this.file;
  }
}
