// Runs anywhere (pure core, used by tests only): feeds one byte stream to SseParser in many chunkings.
import { SseParser } from './parser';
import type { SseEvent, SseTail } from './types';

/** Small seeded PRNG (mulberry32): the same seed gives the same chunking on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts `bytes` at random places; some chunks are empty, most are short, a few are long (up to `longest`). */
export function randomChunks(bytes: Uint8Array, seed: number, longest = 64): Uint8Array[] {
  const random = seededRandom(seed);
  const chunks: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const roll = random();
    const size = roll < 0.1 ? 0 : roll < 0.8 ? 1 + Math.floor(random() * 7) : 1 + Math.floor(random() * longest);
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  return chunks;
}

export interface Feeding {
  name: string;
  chunks: Uint8Array[];
}

/** Whole, byte by byte, and `seeds.length` random chunkings. */
export function feedings(bytes: Uint8Array, seeds: readonly number[] = [1, 2, 3, 4, 5]): Feeding[] {
  const bytewise: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) bytewise.push(bytes.slice(i, i + 1));
  return [
    { name: 'whole', chunks: [bytes.slice()] },
    { name: 'byte by byte', chunks: bytewise },
    ...seeds.map((seed) => ({ name: `random chunks (seed ${seed})`, chunks: randomChunks(bytes, seed) })),
  ];
}

export interface Parsed {
  events: SseEvent[];
  tail: SseTail | undefined;
  /** Stream offset where each chunk starts, to check chunk indexes against byte offsets. */
  chunkStarts: number[];
}

export function parseChunks(chunks: readonly Uint8Array[]): Parsed {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  const chunkStarts: number[] = [];
  for (const chunk of chunks) {
    chunkStarts.push(parser.bytesRead);
    events.push(...parser.push(chunk));
  }
  return { events, tail: parser.finish(), chunkStarts };
}

/** The events without their chunk indexes, which legitimately depend on the chunking. */
export function chunkFree(events: readonly SseEvent[]): Omit<SseEvent, 'firstChunk' | 'lastChunk'>[] {
  return events.map(({ firstChunk: _first, lastChunk: _last, ...rest }) => rest);
}

/** Index of the chunk holding byte `offset` (the last chunk starting at or before it that is non-empty). */
export function chunkHolding(parsed: Parsed, chunks: readonly Uint8Array[], offset: number): number {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const start = parsed.chunkStarts[i]!;
    if (start <= offset && offset < start + chunks[i]!.length) return i;
  }
  return -1;
}

export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function concatBytes(...parts: (Uint8Array | string | readonly number[])[]): Uint8Array {
  const arrays = parts.map((p) => (typeof p === 'string' ? bytesOf(p) : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v));
}

/**
 * Parses `bytes` in every feeding; returns the whole-stream result and a list of disagreements:
 * events (but for chunk indexes) and tail must be identical in all feedings, and each event's chunk
 * indexes must name the chunks holding its first byte and its last byte.
 */
export function parseEveryWay(bytes: Uint8Array, seeds?: readonly number[]): { result: Parsed; problems: string[] } {
  const problems: string[] = [];
  let reference: Parsed | undefined;
  for (const { name, chunks } of feedings(bytes, seeds)) {
    const parsed = parseChunks(chunks);
    reference ??= parsed;
    if (stable(chunkFree(parsed.events)) !== stable(chunkFree(reference.events))) {
      problems.push(
        `${name}: events ${stable(chunkFree(parsed.events))} differ from ${stable(chunkFree(reference.events))}`,
      );
    }
    if (stable(parsed.tail) !== stable(reference.tail)) {
      problems.push(`${name}: tail ${stable(parsed.tail)} differs from ${stable(reference.tail)}`);
    }
    parsed.events.forEach((event, i) => {
      const first = chunkHolding(parsed, chunks, event.start);
      const last = chunkHolding(parsed, chunks, event.end - 1);
      if (event.firstChunk !== first || event.lastChunk !== last) {
        problems.push(`${name}: event ${i} chunks ${event.firstChunk}..${event.lastChunk}, expected ${first}..${last}`);
      }
    });
  }
  return { result: reference!, problems };
}

/**
 * `actual` cut down to the keys `shape` names, so one unconditional toEqual checks "absent when expected absent,
 * else these fields": an actual value where none is expected, or none where one is, still fails.
 */
export function pickKeysOf<T extends object>(actual: T | undefined, shape: object | undefined): Partial<T> | undefined {
  if (actual === undefined || shape === undefined) return actual;
  const picked: Partial<T> = {};
  for (const key of Object.keys(shape) as (keyof T)[]) picked[key] = actual[key];
  return picked;
}
