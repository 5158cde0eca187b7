// Runs anywhere (pure core): an event's data, read again from the bytes it came in (the model does not keep it).
import type { BodyChunk } from '../capture/model';
import { copyRange } from '../sse/bytes';
import { TextDecoder } from '../web/globals';
import type { EventTable } from './event-table';

// ignoreBOM: a U+FEFF inside the stream is content (only the stream's first bytes can be a BOM, and no event
// starts there: the parser stripped it before).
const TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/** The bytes [start, end) of a body, as one array (a view of the chunk when they lie in one). */
export function bodyRange(
  chunks: readonly BodyChunk[],
  table: EventTable,
  first: number,
  last: number,
  start: number,
  end: number,
): Uint8Array {
  const base = table.chunkStarts[first] as number;
  const only = chunks[first]?.bytes;
  if (first === last && only) return only.subarray(start - base, end - base);
  const views: Uint8Array[] = [];
  for (let k = first; k <= last; k++) {
    const bytes = chunks[k]?.bytes;
    if (bytes) views.push(bytes);
  }
  return copyRange(views, base, start, end);
}

/**
 * The data of an event from its bytes: its lines up to the blank line that dispatched it, the `data` fields'
 * values joined with LF, as the parser built it. The range starts at a line start and ends at a line end, both
 * ASCII, so decoding it alone gives the characters decoding the whole stream gave there (an unfinished UTF-8
 * sequence before a line end is one U+FFFD either way).
 */
export function dataFromBytes(bytes: Uint8Array): string {
  const text = TEXT.decode(bytes);
  let data: string | undefined;
  let from = 0;
  while (from < text.length) {
    let to = from;
    while (to < text.length) {
      const c = text.charCodeAt(to);
      if (c === 10 || c === 13) break;
      to++;
    }
    if (to === from) break; // the blank line
    const value = dataValue(text, from, to);
    if (value !== undefined) data = data === undefined ? value : `${data}\n${value}`;
    from = to + 1;
    if (text.charCodeAt(to) === 13 && text.charCodeAt(from) === 10) from++;
  }
  return data ?? '';
}

/** The value of the line text[from, to) when it is a `data` field (WHATWG: name up to the first colon). */
function dataValue(text: string, from: number, to: number): string | undefined {
  if (to - from < 4 || !text.startsWith('data', from)) return undefined;
  if (to - from === 4) return '';
  if (text.charCodeAt(from + 4) !== 58) return undefined;
  const value = from + (text.charCodeAt(from + 5) === 32 && from + 5 < to ? 6 : 5);
  return text.slice(value, to);
}

/** The data of row `row` of `table`, decoded from `chunks` (the body the table was read from). */
export function eventData(chunks: readonly BodyChunk[], table: EventTable, row: number): string {
  const { start, lastChunk } = table.columns;
  const bytes = bodyRange(chunks, table, table.firstChunk(row), lastChunk.at(row), start.at(row), table.end(row));
  return dataFromBytes(bytes);
}

/** The bytes of a body between two offsets, as the chunk views they lie in (nothing copied). */
interface Span {
  views: Uint8Array[];
  /** Body offset where views[0] starts. */
  base: number;
}

function spanOf(chunks: readonly BodyChunk[], table: EventTable, first: number, last: number): Span {
  const views: Uint8Array[] = [];
  for (let k = first; k <= last; k++) {
    const bytes = chunks[k]?.bytes;
    if (bytes) views.push(bytes);
  }
  return { views, base: table.chunkStarts[first] as number };
}

/** The byte at body offset `at` (the span covers it). */
function byteAt(span: Span, at: number): number {
  let start = span.base;
  for (const view of span.views) {
    if (at < start + view.length) return view[at - start] as number;
    start += view.length;
  }
  return -1;
}

/** The first CR or LF in [from, to), or -1: a native scan of each chunk, no decoding. */
function lineEndIn(span: Span, from: number, to: number): number {
  let start = span.base;
  for (const view of span.views) {
    const end = start + view.length;
    if (end > from && start < to) {
      const part = view.subarray(Math.max(from, start) - start, Math.min(to, end) - start);
      const lf = part.indexOf(10);
      const cr = lf === 0 ? -1 : (lf < 0 ? part : part.subarray(0, lf)).indexOf(13);
      const hit = cr >= 0 ? cr : lf;
      if (hit >= 0) return Math.max(from, start) + hit;
    }
    start = end;
  }
  return -1;
}

const DATA = [100, 97, 116, 97]; // "data"

/** Where the value of the line at `from` starts when it is a `data` field (as dataValue, on bytes), else -1. */
function dataValueAt(span: Span, from: number, to: number): number {
  if (from + 4 > to || DATA.some((b, i) => byteAt(span, from + i) !== b)) return -1;
  if (from + 4 === to) return from + 4;
  const after = byteAt(span, from + 4);
  if (after === 10 || after === 13) return from + 4;
  if (after !== 58) return -1;
  return from + 5 < to && byteAt(span, from + 5) === 32 ? from + 6 : from + 5;
}

/**
 * The first `max` UTF-16 units of row `row`'s data (eventData(...).slice(0, max)), decoding only the bytes they come
 * from: a table row shows 240 characters of an event, and decoding a 4 MiB event whole for them on every analysis
 * pass took 4.7 s of a 20 x 4 MiB stream's 5.8 s. Lines are split on the bytes (CR and LF are ASCII, so splitting
 * the bytes and the text agree); a data value longer than needed is decoded only as far as the units left can
 * reach (4 bytes a unit at most, and 4 more so a sequence cut at the bound lands past them).
 */
export function eventDataPreview(chunks: readonly BodyChunk[], table: EventTable, row: number, max: number): string {
  const { start, lastChunk } = table.columns;
  const span = spanOf(chunks, table, table.firstChunk(row), lastChunk.at(row));
  const to = table.end(row);
  let data: string | undefined;
  let from = start.at(row);
  while (from < to) {
    const first = byteAt(span, from);
    if (first === 10 || first === 13) break; // the blank line that dispatched it
    const value = dataValueAt(span, from, to);
    let lineEnd: number;
    if (value >= 0) {
      const room = max - (data === undefined ? 0 : data.length + 1);
      const bound = Math.min(to, value + Math.max(0, room) * 4 + 4);
      lineEnd = lineEndIn(span, value, bound);
      const text = TEXT.decode(copyRange(span.views, span.base, value, lineEnd < 0 ? bound : lineEnd));
      data = data === undefined ? text.slice(0, room) : `${data}\n${text.slice(0, Math.max(0, room))}`;
      if (lineEnd < 0 || data.length >= max) break; // the rest is past what is shown
    } else {
      lineEnd = lineEndIn(span, from, to);
      if (lineEnd < 0) break;
    }
    from = lineEnd + (byteAt(span, lineEnd) === 13 && byteAt(span, lineEnd + 1) === 10 ? 2 : 1);
  }
  return (data ?? '').slice(0, max);
}
