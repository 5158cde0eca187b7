// Runs anywhere (pure core): an input file read piece by piece into a capture (the panel's worker reads a dropped
// file in slices), never as one buffer or one text: a HAR or capture goes through the streaming JSON reader entry by
// entry, a raw event stream keeps its pieces as the body's chunks.
import { concatBytes } from './bytes';
import { JsonInputStream } from './json-stream';
import { sniffInput } from './load';
import type { Capture } from './model';
import { RawStreamReader } from './raw';
import type { AbortSignal, Blob } from '../web/globals';

/** How much is read before deciding what the file is (its first line, or a saved head's status line). */
export const SNIFF_BYTES = 64 * 1024;

/** An input's first pieces, read to tell what it is, and the whole of it again from its start. */
export interface OpenedInput {
  /** The pieces read to decide (at least {@link SNIFF_BYTES}, unless the input is shorter). */
  opening: Uint8Array[];
  /** The opening pieces as one (what {@link sniffInput} looks at). */
  first: Uint8Array;
  /** The pieces after the opening ones. */
  rest: AsyncIterable<Uint8Array>;
  /** Every piece from the first: the opening ones, then the rest (once). */
  all(): AsyncIterable<Uint8Array>;
}

/** Reads the opening of `pieces`, so that its kind can be told before the rest is read. */
export async function openInput(pieces: AsyncIterable<Uint8Array>): Promise<OpenedInput> {
  const iterator = pieces[Symbol.asyncIterator]();
  const opening: Uint8Array[] = [];
  let openingBytes = 0;
  while (openingBytes < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    opening.push(next.value);
    openingBytes += next.value.length;
  }
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  return {
    opening,
    first: concatBytes(opening),
    rest,
    async *all() {
      yield* opening;
      yield* rest;
    },
  };
}

export interface StreamReadOptions {
  /** Told after each piece: the bytes read so far. */
  onProgress?: (bytes: number) => void;
  /** Stops the read between two pieces (with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Reads a capture v1 file, a HAR or a raw event stream from its pieces, as loadInput reads the whole file (same
 * capture, same errors), holding only what the capture keeps: no copy of the file, no text of it.
 * @throws InputError as loadInput does; the signal's reason when it is aborted.
 */
export async function readCaptureStream(
  pieces: AsyncIterable<Uint8Array>,
  name: string,
  options: StreamReadOptions = {},
): Promise<Capture> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const input = await openInput(pieces);
  const kind = sniffInput(input.first, name);
  const { first } = input;
  const sink = kind === 'raw' ? rawSink(name) : jsonSink(first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf);
  let bytes = 0;
  for await (const piece of input.all()) {
    signal?.throwIfAborted();
    sink.write(piece);
    bytes += piece.length;
    onProgress?.(bytes);
  }
  signal?.throwIfAborted();
  return sink.end();
}

/** Where the pieces of one kind of input go, and the capture they make. */
interface CaptureSink {
  write(piece: Uint8Array): void;
  end(): Capture;
}

function rawSink(name: string): CaptureSink {
  const reader = new RawStreamReader();
  return { write: (piece) => reader.push(piece), end: () => reader.finish(name) };
}

function jsonSink(bom: boolean): CaptureSink {
  const stream = new JsonInputStream(false, bom);
  return { write: (piece) => stream.write(piece), end: () => stream.end().capture };
}

/** A Blob's bytes as pieces of `size` bytes, each read when asked for (so a Worker never holds the whole file). */
export async function* blobPieces(blob: Blob, size = 1 << 20): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < blob.size; at += size) {
    yield new Uint8Array(await blob.slice(at, at + size).arrayBuffer());
  }
}
