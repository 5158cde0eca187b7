// Runs anywhere (pure; bridge, panel worker): how a bounded record gives up body bytes, shared by the bridge's
// per-frame buffer and the panel's per-tab budget so both trim alike: a body keeps its head (the priming event and
// first answers make sense of the rest) and its newest bytes, and the chunks given up in between become a gap.
import type { BodyChunk, CaptureGap, ConnectionRecord, GapCause } from '../core/capture/model';

/** The first body bytes of a connection are never trimmed while something else can be. */
export const HEAD_KEEP_BYTES = 64 * 1024;

/** Whether a chunk arriving after `bodyBefore` body bytes still belongs to the head. */
export function inHead(bodyBefore: number): boolean {
  return bodyBefore < HEAD_KEEP_BYTES;
}

/**
 * The items to give up for `excess` bytes, oldest first: from `from` up to (not including) `limit`, taking sized
 * items (chunks; `sizeAt` gives undefined for anything else) until `excess` is freed. Returns the end of the run:
 * the index after the last chunk taken (`from` when none), so an unsized item after it stays where it is.
 */
export function middleRun(
  from: number,
  limit: number,
  excess: number,
  sizeAt: (index: number) => number | undefined,
): { end: number; freed: number } {
  let freed = 0;
  let end = from;
  for (let i = from; i < limit && freed < excess; i++) {
    const size = sizeAt(i);
    if (size === undefined) continue;
    freed += size;
    end = i + 1;
  }
  return { end, freed };
}

/** `gap` grown by `bytes` given up at its end, or a new gap at body offset `offset` when there is none yet. */
export function widenGap(
  gap: CaptureGap | undefined,
  offset: number,
  bytes: number,
  t: number,
  cause: GapCause,
): CaptureGap {
  if (gap) {
    gap.bytes += bytes;
    return gap;
  }
  return { offset, bytes, t, cause };
}

/**
 * The record with chunks [from, to) given up: each run of them between the record's own gaps becomes a gap of
 * `cause` at its body offset (merged with a neighbour of the same cause), so offsets still count the page's body.
 */
export function gapChunks(record: ConnectionRecord, from: number, to: number, cause: GapCause): ConnectionRecord {
  if (to <= from) return record;
  const old = record.gaps ?? [];
  const gaps: CaptureGap[] = [];
  const chunks: BodyChunk[] = [];
  const push = (gap: CaptureGap) => {
    const last = gaps.at(-1);
    if (last && last.cause === gap.cause && last.offset + last.bytes === gap.offset) last.bytes += gap.bytes;
    else gaps.push({ ...gap });
  };
  let g = 0;
  let offset = 0;
  const passGaps = () => {
    for (; g < old.length && (old[g] as CaptureGap).offset <= offset; g++) {
      push(old[g] as CaptureGap);
      offset += (old[g] as CaptureGap).bytes;
    }
  };
  record.chunks.forEach((chunk, i) => {
    passGaps();
    if (i < from || i >= to) chunks.push(chunk);
    else if (chunk.bytes.byteLength > 0) push({ offset, bytes: chunk.bytes.byteLength, t: chunk.t, cause });
    offset += chunk.bytes.byteLength;
  });
  passGaps();
  for (; g < old.length; g++) push(old[g] as CaptureGap);
  return { ...record, chunks, gaps };
}

/** Body bytes recorded in chunks (gaps not counted). */
export function recordedBytes(chunks: readonly BodyChunk[]): number {
  let total = 0;
  for (const chunk of chunks) total += chunk.bytes.byteLength;
  return total;
}

/**
 * The chunks with a boundary at recorded byte `offset`: a chunk across it becomes two copies (so a big buffer
 * that only partly stays is not kept alive by a view of it), both with its time.
 */
function splitAt(chunks: readonly BodyChunk[], offset: number): BodyChunk[] {
  let at = 0;
  for (let k = 0; k < chunks.length; k++) {
    const chunk = chunks[k] as BodyChunk;
    const length = chunk.bytes.byteLength;
    if (at < offset && offset < at + length) {
      const cut = offset - at;
      return [
        ...chunks.slice(0, k),
        { t: chunk.t, bytes: chunk.bytes.slice(0, cut) },
        { t: chunk.t, bytes: chunk.bytes.slice(cut) },
        ...chunks.slice(k + 1),
      ];
    }
    at += length;
  }
  return chunks.slice();
}

/** The index of the first chunk that starts at or after recorded byte `offset`. */
function chunkAt(chunks: readonly BodyChunk[], offset: number): number {
  let at = 0;
  let k = 0;
  while (k < chunks.length && at < offset) at += (chunks[k++] as BodyChunk).bytes.byteLength;
  return k;
}

/**
 * The record keeping only its first `head` and last `tail` recorded bytes; what lies between becomes a gap of
 * `cause` (byte-exact: a chunk across either edge is split). The same record when it already fits.
 */
export function keepEnds(record: ConnectionRecord, head: number, tail: number, cause: GapCause): ConnectionRecord {
  const length = recordedBytes(record.chunks);
  const [h, t] = [Math.max(0, Math.floor(head)), Math.max(0, Math.floor(tail))];
  if (h + t >= length) return record;
  const chunks = splitAt(splitAt(record.chunks, h), length - t);
  return gapChunks({ ...record, chunks }, chunkAt(chunks, h), chunkAt(chunks, length - t), cause);
}
