// Runs in Node (CLI): an input file read piece by piece into a capture, never as one buffer or one text.
// Raw event streams keep their pieces as the body's chunks (the core's SSE parser decodes each event from them), or,
// read from a file, chunks that read it again when asked;
// captures and HARs go through the streaming JSON reader, entry by entry.
import { concatBytes } from '../core/capture/bytes';
import { openInput } from '../core/capture/read-stream';
import { InputError } from '../core/capture/errors';
import { loadInput, sniffInput } from '../core/capture/load';
import type { BodyChunk, Capture } from '../core/capture/model';
import { SseBodyReader } from '../core/model/connection';
import { RawStreamReader } from '../core/capture/raw';
import type { Redactor } from '../core/capture/redact/capture';
import { BodySpill } from './body-spill';
import { FileChunks, type RangeReader, type ScratchFile } from './file-chunks';
import { JsonInputStream, MAX_ENTRY_BYTES } from '../core/capture/json-stream';
import { elementLines, type InputSource } from './locate';

export interface ReadInput {
  capture: Capture;
  source: InputSource;
  /** Records whose bodies the options' redactor masked as they were read (its `redact` keeps them). */
  bodyMasked?: ReadonlySet<string>;
  /** Records whose SSE bodies were parsed as they were read (for analyzeRead). */
  bodies?: ReadonlyMap<string, SseBodyReader>;
}

/** A raw stream's piece, where it is in the file and which of the body's chunks it is. */
interface Piece {
  bytes: Uint8Array;
  offset: number;
  index: number;
}

export interface ReadOptions {
  /** The chunks.ndjson companion's text: such a HAR is read whole (the companion's clock needs every entry's start). */
  chunksNdjson?: string;
  /** Note where each JSON list element opens (for the CI formats' locations). */
  lines: boolean;
  /** Told after each piece: the bytes read so far and the list elements read (JSON input). */
  onProgress?: (bytes: number, elements: number) => void;
  /** The file read again on demand: a raw stream's chunks then keep no bytes (see file-chunks.ts). */
  ranges?: RangeReader;
  /** Opens where a HAR's or capture's bodies go past what is held in memory (see body-spill.ts). */
  scratch?: () => ScratchFile | undefined;
  /** Masks a raw stream's body as it is read, so that redacting it needs no read of its own. */
  redactor?: Redactor;
}

export async function readInput(
  pieces: AsyncIterable<Uint8Array>,
  name: string,
  options: ReadOptions,
): Promise<ReadInput> {
  const { opening, first, rest, all } = await openInput(pieces);
  if (options.chunksNdjson !== undefined) return readWhole(opening, rest, name, options.chunksNdjson);
  const kind = sniffInput(first, name);
  let bytes = 0;
  if (kind === 'raw') {
    const { ranges } = options;
    const file = ranges && new FileChunks(ranges);
    // Masks land in the pieces held, and in the file's patches for the chunks read again (file-chunks.ts).
    const masker = options.redactor?.bodyMasker<Piece>((piece, from, mask) =>
      file ? file.patch(piece.offset + from, mask) : piece.bytes.set(mask, from),
    );
    // The body is parsed as it is read, each chunk once its masks are final, while its bytes are still held.
    const body = new SseBodyReader();
    const made: BodyChunk[] = [];
    const final: BodyChunk[] = [];
    const parseFinal = (): void => {
      const held = masker?.firstHeld?.index ?? made.length;
      for (let i = final.length; i < held; i++) final.push(made[i] as BodyChunk);
      body.read(final);
    };
    const reader = new RawStreamReader((piece, offset) => {
      const chunk = file ? file.chunk(piece, offset) : { t: 0, bytes: piece };
      masker?.push({ bytes: piece, offset, index: made.length }, piece);
      made.push(chunk);
      return chunk;
    });
    const guard = new EventSpanGuard();
    for await (const piece of all()) {
      guard.check(piece, bytes);
      reader.push(piece);
      parseFinal();
      bytes += piece.length;
      options.onProgress?.(bytes, 0);
    }
    const capture = reader.finish(name);
    masker?.end();
    parseFinal();
    const ids = capture.connections.map((c) => c.id);
    const bodyMasked = new Set(masker ? ids : []);
    const bodies = new Map(ids.map((id) => [id, body]));
    return { capture, source: { kind: 'raw', head: reader.headBytes }, bodyMasked, bodies };
  }
  const bom = first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf;
  const json = new JsonInputStream(options.lines, bom, options.scratch && new BodySpill(options.scratch).keep);
  for await (const piece of all()) {
    json.write(piece);
    bytes += piece.length;
    options.onProgress?.(bytes, json.elements);
  }
  const { capture, list, lines } = json.end();
  return { capture, source: { kind: 'json', list, lines } };
}

/** A HAR with a chunks.ndjson companion, read whole as before streaming (these come from recorders, and are small). */
async function readWhole(
  opening: Uint8Array[],
  rest: AsyncIterable<Uint8Array>,
  name: string,
  chunksNdjson: string,
): Promise<ReadInput> {
  const pieces = [...opening];
  for await (const piece of rest) pieces.push(piece);
  const bytes = concatBytes(pieces);
  const capture = loadInput(bytes, name, { chunksNdjson });
  return { capture, source: { kind: 'json', list: 'log.entries', lines: elementLines(bytes) } };
}

/**
 * Refuses a raw stream whose one event runs past {@link MAX_ENTRY_BYTES}: its data would be decoded into one string,
 * and V8's longest is 512 MiB. Watches only where the last blank line (an event's end) of each piece is.
 */
class EventSpanGuard {
  private eventStart = 0;
  /** The last two bytes of the pieces so far: a blank line may be cut between two pieces. */
  private tail = new Uint8Array(0);

  check(piece: Uint8Array, base: number): void {
    const end = lastBlankLineEnd(piece);
    if (end !== -1) this.eventStart = base + end;
    else if (this.tail.length > 0) {
      const seam = new Uint8Array([...this.tail, ...piece.subarray(0, 2)]);
      const seamEnd = lastBlankLineEnd(seam);
      if (seamEnd > this.tail.length) this.eventStart = base + seamEnd - this.tail.length;
    }
    if (piece.length >= 2) this.tail = piece.slice(-2);
    else if (piece.length === 1) this.tail = new Uint8Array([...this.tail.subarray(-1), ...piece]);
    if (base + piece.length - this.eventStart > MAX_ENTRY_BYTES) {
      throw new InputError(
        '',
        `the event starting at byte ${this.eventStart} runs past ${MAX_ENTRY_BYTES / 2 ** 20} MiB with no blank line to end it: larger than one event the CLI holds (its data is decoded whole)`,
      );
    }
  }
}

const LF = 0x0a;
const CR = 0x0d;
const LF_LF = new Uint8Array([LF, LF]);
const CR_ENDINGS = [new Uint8Array([LF, CR, LF]), new Uint8Array([CR, CR])];

/** Where the bytes after the piece's last blank line start, or -1 when it has none. */
function lastBlankLineEnd(piece: Uint8Array): number {
  const view = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
  const lf = view.lastIndexOf(LF_LF);
  let end = lf === -1 ? -1 : lf + 2;
  // Most streams end lines with LF alone: a search for a byte that is absent is a quick memchr.
  if (view.indexOf(CR) === -1) return end;
  for (const needle of CR_ENDINGS) {
    const at = view.lastIndexOf(needle);
    if (at !== -1) end = Math.max(end, at + needle.length);
  }
  return end;
}
