// Runs anywhere (pure core): fills one connection's event table row by row as its body is read.
import { counterFrom, counterStart } from '../ids/counter';
import type { JsonRpcEnvelope } from '../mcp/types';
import type { SseEvent } from '../sse/types';
import { allocateColumns, trimColumns, type Columns } from './columns';
import {
  EventTable,
  HAS_ID,
  HAS_RARE,
  ID_POOLED,
  KIND_RARE,
  KIND_SHIFT,
  KINDS,
  NO_TEXT,
  type Rare,
} from './event-table';
import { IdPool, isLatin1 } from './id-pool';

/** What reading an event's data as JSON-RPC gave (the parsed JSON itself is not kept). */
export interface DataReading {
  envelopes: JsonRpcEnvelope[];
  parseError: string | undefined;
}

const FIRST_CAPACITY = 16;
/**
 * Id prefixes a table interns. Beyond them an id is not split (`<stream>_<ms>_<random>` may end in digits, and then
 * every id has a prefix of its own: a map entry each would cost more than the id).
 */
const MAX_ID_PREFIXES = 64;

function resized(array: Float64Array, count: number, capacity: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(capacity);
  out.set(array.subarray(0, count));
  return out;
}

/**
 * The rows of one connection's events. Snapshots share the columns (each reads only its own row count), so a
 * live connection's next analysis copies nothing; rows are only ever appended, so a snapshot never changes. Texts
 * (types, methods, id prefixes) are interned: an event of a counter-numbered stream keeps no string of its own.
 */
export class EventTableBuilder {
  private readonly lineage = {};
  private readonly columns: Columns = allocateColumns();
  private count = 0;
  private chunkStarts = new Float64Array(FIRST_CAPACITY);
  private chunkTimes = new Float64Array(FIRST_CAPACITY);
  private chunkCount = 0;
  private readonly texts: string[] = [];
  private readonly codes = new Map<string, number>();
  private readonly prefixes = new Map<string, number>();
  private readonly ids = new IdPool();
  private readonly rareRows: number[] = [];
  private readonly rare: Rare[] = [];
  private last: EventTable | undefined;
  // The last row's texts, so that a stream of alike events looks nothing up.
  private lastType = '';
  private lastTypeCode = NO_TEXT;
  private lastMethod = '';
  private lastMethodCode = NO_TEXT;
  private lastId = '';
  private lastIdText = NO_TEXT;
  private lastIdNumber = Number.NaN;
  private lastIdFlags = 0;
  private lastPrefix = '';
  private lastPrefixCode: number | undefined;

  /** Notes where the next chunk starts in the body, and when it arrived (the time of the events it dispatches). */
  addChunk(start: number, time: number): void {
    if (this.chunkCount === this.chunkStarts.length) {
      this.chunkStarts = resized(this.chunkStarts, this.chunkCount, this.chunkCount * 2);
      this.chunkTimes = resized(this.chunkTimes, this.chunkCount, this.chunkCount * 2);
    }
    this.chunkStarts[this.chunkCount] = start;
    this.chunkTimes[this.chunkCount++] = time;
  }

  /** Adds an event the last chunk noted dispatched. */
  add(event: SseEvent, reading: DataReading): void {
    const row = this.count++;
    const c = this.columns;
    c.start.set(row, event.start);
    c.span.set(row, event.end - event.start);
    c.lastChunk.set(row, event.lastChunk);
    c.dataLength.set(row, event.data.length);
    if (event.type !== this.lastType || this.lastTypeCode === NO_TEXT) {
      this.lastType = event.type;
      this.lastTypeCode = this.intern(event.type);
    }
    c.type.set(row, this.lastTypeCode);
    this.setId(row, event.lastEventId);
    let flags = (event.hasId ? HAS_ID : 0) | this.lastIdFlags;
    const { envelopes, parseError } = reading;
    const only = envelopes.length === 1 ? envelopes[0] : undefined;
    // One message with a numeric id (or none) fits the columns; the rest goes to the Rare entry.
    const numericId = typeof only?.id === 'number' ? only.id : undefined;
    const columnar =
      only !== undefined && (only.id === undefined || numericId !== undefined) && only.cancels === undefined;
    c.messageId.set(row, columnar && numericId !== undefined ? numericId : Number.NaN);
    c.method.set(row, columnar && only.method !== undefined ? this.methodCode(only.method) : Number.NaN);
    if (columnar) flags |= (KINDS.indexOf(only.kind) + 1) << KIND_SHIFT;
    else if (envelopes.length > 0) flags |= KIND_RARE << KIND_SHIFT;
    if (event.retry !== undefined || parseError !== undefined || (!columnar && envelopes.length > 0)) {
      const rare: Rare = {};
      if (event.retry !== undefined) rare.retry = event.retry;
      if (parseError !== undefined) rare.parseError = parseError;
      if (!columnar && envelopes.length > 0) rare.envelopes = envelopes;
      flags |= HAS_RARE;
      this.rareRows.push(row);
      this.rare.push(rare);
    }
    c.flags.set(row, flags);
  }

  /** The rows so far; the same object while nothing was added. */
  snapshot(): EventTable {
    const last = this.last;
    if (last && last.count === this.count && last.chunkStarts.length === this.chunkCount) return last;
    // Texts and rare entries are copied only when they grew (a few strings, usually).
    const texts = last && last.texts.length === this.texts.length ? last.texts : this.texts.slice();
    const sameRare = last && last.rare.length === this.rare.length;
    this.last = new EventTable(
      this.lineage,
      this.count,
      this.columns,
      this.chunkStarts.subarray(0, this.chunkCount),
      this.chunkTimes.subarray(0, this.chunkCount),
      texts,
      this.ids.view(),
      sameRare ? last.rareRows : this.rareRows.slice(),
      sameRare ? last.rare : this.rare.slice(),
    );
    return this.last;
  }

  /** No more rows will come (the body ended): keeps exactly the rows there are, no room to grow. */
  seal(): void {
    trimColumns(this.columns, this.count);
    this.ids.seal();
    if (this.chunkStarts.length !== this.chunkCount) {
      this.chunkStarts = resized(this.chunkStarts, this.chunkCount, this.chunkCount);
      this.chunkTimes = resized(this.chunkTimes, this.chunkCount, this.chunkCount);
    }
    this.last = undefined;
  }

  private methodCode(method: string): number {
    if (method !== this.lastMethod || this.lastMethodCode === NO_TEXT) {
      this.lastMethod = method;
      this.lastMethodCode = this.intern(method);
    }
    return this.lastMethodCode;
  }

  private intern(text: string): number {
    let code = this.codes.get(text);
    if (code === undefined) {
      code = this.texts.push(text) - 1;
      this.codes.set(text, code);
    }
    return code;
  }

  /**
   * An id ending in a canonical counter is kept as its prefix's code and the number; others (and counters under
   * too many prefixes) as their characters in the id pool, or as a text when they are not Latin-1. The row's
   * idText and idNumber are written here, its ID_POOLED flag is left in lastIdFlags.
   */
  private setId(row: number, id: string): void {
    if (id !== this.lastId || this.lastIdText === NO_TEXT) {
      this.lastId = id;
      this.lastIdFlags = 0;
      const start = counterStart(id);
      const prefix = start === undefined ? undefined : this.prefixCode(start === 0 ? '' : id.slice(0, start));
      if (start !== undefined && prefix !== undefined) {
        this.lastIdText = prefix;
        this.lastIdNumber = counterFrom(id, start);
      } else if (id !== '' && isLatin1(id)) {
        this.lastIdText = this.ids.append(id);
        this.lastIdNumber = id.length;
        this.lastIdFlags = ID_POOLED;
      } else {
        // '' (a stream without ids) is interned; other texts are not (a map entry would cost more than the id).
        this.lastIdText = id === '' ? this.intern(id) : this.texts.push(id) - 1;
        this.lastIdNumber = Number.NaN;
      }
    }
    this.columns.idText.set(row, this.lastIdText);
    this.columns.idNumber.set(row, this.lastIdNumber);
  }

  /** The code of an id prefix, undefined once MAX_ID_PREFIXES others were interned. */
  private prefixCode(prefix: string): number | undefined {
    if (prefix === this.lastPrefix && this.lastPrefixCode !== undefined) return this.lastPrefixCode;
    let code = this.prefixes.get(prefix);
    if (code === undefined && this.prefixes.size < MAX_ID_PREFIXES) {
      code = this.intern(prefix);
      this.prefixes.set(prefix, code);
    }
    this.lastPrefix = prefix;
    this.lastPrefixCode = code;
    return code;
  }
}
