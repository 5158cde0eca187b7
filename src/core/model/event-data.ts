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
  const { start, end, lastChunk } = table.columns;
  const bytes = bodyRange(
    chunks,
    table,
    table.firstChunk(row),
    lastChunk[row] as number,
    start[row] as number,
    end[row] as number,
  );
  return dataFromBytes(bytes);
}
