import { describe, expect, it } from 'vitest';
import { SseParser } from './parser';
import { concatBytes, parseChunks, pickKeysOf, randomChunks, seededRandom } from './test-support';

/*
 * Differential test: random streams, parsed by SseParser in random chunkings, against a reference
 * written straight from the spec text: decode the whole body at once with TextDecoder (the spec's
 * "UTF-8 decode", which also strips one leading BOM), split it into lines, run the field rules. Byte
 * offsets come from a separate byte-level line splitter: CR and LF bytes always decode to themselves,
 * so the k-th text line is the k-th byte line.
 */

interface RefEvent {
  type: string;
  data: string;
  lastEventId: string;
  hasId: boolean;
  retry: number | undefined;
  start: number;
  end: number;
}

interface RefTail {
  start: number;
  type?: string;
  id?: string;
  retry?: number;
  dataLines: string[];
  pendingLine: string;
  hasData: boolean;
}

function splitText(text: string): { lines: string[]; pending: string } {
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\r' || c === '\n') {
      lines.push(line);
      line = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else line += c;
  }
  return { lines, pending: line };
}

/** Start of every line and the offset just past its first terminator byte. */
function splitBytes(bytes: Uint8Array, from: number): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  let start = from;
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] === 13 || bytes[i] === 10) {
      lines.push({ start, end: i + 1 });
      if (bytes[i] === 13 && bytes[i + 1] === 10) i++;
      start = i + 1;
    }
  }
  return lines;
}

function reference(bytes: Uint8Array): { events: RefEvent[]; tail?: RefTail; lastEventId: string } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const { lines, pending } = splitText(new TextDecoder().decode(bytes));
  const places = splitBytes(bytes, bom);
  if (places.length !== lines.length) throw new Error('reference: text and byte lines disagree');
  const events: RefEvent[] = [];
  let data: string[] = [];
  let type = '';
  let idBuffer = '';
  let lastEventId = '';
  let hasId = false;
  let retry: number | undefined;
  let regionStart = -1;
  let regionHasField = false;
  const isBlank = (s: string): boolean => /^[ \t]*$/.test(s);
  lines.forEach((line, i) => {
    const place = places[i]!;
    if (line === '') {
      lastEventId = idBuffer;
      if (data.length > 0) {
        events.push({
          type: type || 'message',
          data: data.join('\n'),
          lastEventId: idBuffer,
          hasId,
          retry,
          start: regionStart,
          end: place.end,
        });
      }
      data = [];
      type = '';
      hasId = false;
      retry = undefined;
      regionStart = -1;
      regionHasField = false;
      return;
    }
    if (regionStart < 0) regionStart = place.start;
    if (line.startsWith(':')) return;
    if (!isBlank(line)) regionHasField = true;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') type = value;
    else if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) {
      idBuffer = value;
      hasId = true;
    } else if (name === 'retry' && /^[0-9]+$/.test(value)) retry = Number.parseInt(value, 10);
  });
  const pendingStart =
    places.length > 0
      ? places[places.length - 1]!.end +
        (bytes[places[places.length - 1]!.end - 1] === 13 && bytes[places[places.length - 1]!.end] === 10 ? 1 : 0)
      : bom;
  if (pending !== '' && regionStart < 0) regionStart = pendingStart;
  const pendingIsField = pending !== '' && !pending.startsWith(':') && !isBlank(pending);
  if (regionStart < 0 || (!regionHasField && !pendingIsField)) return { events, lastEventId };
  const tail: RefTail = {
    start: regionStart,
    dataLines: data,
    pendingLine: pending,
    hasData: data.length > 0 || pending === 'data' || pending.startsWith('data:'),
  };
  if (type !== '') tail.type = type;
  if (hasId) tail.id = idBuffer;
  if (retry !== undefined) tail.retry = retry;
  return { events, tail, lastEventId };
}

/** Pieces that exercise every rule; the exotic ones are non-ASCII, invalid UTF-8, U+0000 or a BOM. */
const PLAIN: string[] = [
  'data',
  'data:',
  'data: ',
  'event:',
  'event: ',
  'id:',
  'id: ',
  'retry:',
  'retry: ',
  ':',
  ' ',
  '\t',
  '\n',
  '\n',
  '\n',
  '\r',
  '\r\n',
  'x',
  'message',
  '42',
  '0',
  'Data',
  'foo',
];
const EXOTIC: (string | number[])[] = [
  'é',
  '処',
  '😀',
  '\u0000',
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f],
  [0x80],
  [0xef, 0xbb, 0xbf],
];

function randomStream(seed: number, pieces = 40, exotic = 0.3): Uint8Array {
  const random = seededRandom(seed);
  const parts: (string | number[])[] = [];
  if (random() < 0.2) parts.push([0xef, 0xbb, 0xbf]);
  const count = Math.floor(random() * pieces);
  for (let i = 0; i < count; i++) {
    const from = random() < exotic ? EXOTIC : PLAIN;
    parts.push(from[Math.floor(random() * from.length)]!);
  }
  return concatBytes(...parts);
}

describe('SseParser against a spec-text reference on random streams', () => {
  function check(bytes: Uint8Array, chunkings: Uint8Array[][], seed: number): void {
    const expected = reference(bytes);
    for (const chunking of chunkings) {
      const parser = new SseParser();
      const events = chunking.flatMap((chunk) => parser.push(chunk));
      const tail = parser.finish();
      const context = `seed ${seed}: ${JSON.stringify(new TextDecoder().decode(bytes))}`;
      expect(
        events.map(({ firstChunk: _f, lastChunk: _l, ...e }) => ({ ...e })),
        context,
      ).toEqual(expected.events);
      expect(parser.lastEventId, context).toBe(expected.lastEventId);
      const expectedTail = expected.tail && { ...expected.tail, bytes: bytes.slice(expected.tail.start) };
      expect(pickKeysOf(tail, expectedTail), context).toEqual(expectedTail);
    }
  }

  it('agrees on events, offsets, tail and last event id for 600 short streams in 3 chunkings each', () => {
    for (let seed = 1; seed <= 600; seed++) {
      const bytes = randomStream(seed);
      check(bytes, [[bytes], randomChunks(bytes, seed), randomChunks(bytes, seed + 10_000)], seed);
    }
  });

  it('agrees on 60 long streams, mostly ASCII, cut into chunks of many lines', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const bytes = randomStream(seed, 2000, seed % 2 === 0 ? 0.003 : 0.05);
      check(bytes, [[bytes], randomChunks(bytes, seed, 700), randomChunks(bytes, seed + 1, 3000)], seed);
    }
  });

  it('the tail read mid-stream equals the tail of the stream cut there', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const bytes = randomStream(seed);
      const chunks = randomChunks(bytes, seed);
      const parser = new SseParser();
      let read = 0;
      for (const chunk of chunks) {
        parser.push(chunk);
        read += chunk.length;
        // A prefix that could still become a BOM is not reported until the stream ends.
        if (read < 3 && bytes.subarray(0, read).every((b, i) => b === [0xef, 0xbb, 0xbf][i])) continue;
        expect(parser.tail, `seed ${seed} at ${read}`).toEqual(parseChunks([bytes.slice(0, read)]).tail);
      }
    }
  });
});
