// Runs anywhere (pure core): one connection's dispatched events as read so far, one row each, never changed.
import { counterFrom, counterStart } from '../ids/counter';
import type { JsonRpcEnvelope, JsonRpcMessage } from '../mcp/types';
import type { Columns } from './columns';
import { idAt, idEquals } from './id-pool';

export const HAS_ID = 1;
/** The row has a Rare entry: a retry, a parse error, or envelopes the columns cannot hold. */
export const HAS_RARE = 2;
/** Bits 2-4: the kind of the one message the event carries (KIND_NONE: none; KIND_RARE: see the Rare entry). */
export const KIND_SHIFT = 2;
export const KIND_MASK = 7 << KIND_SHIFT;
export const KIND_NONE = 0;
export const KIND_RARE = 7;
/** Kind codes 1-4. */
export const KINDS: readonly JsonRpcMessage['kind'][] = ['request', 'notification', 'response', 'error'];
/** The row's last event id is in the id pool: idText is where it starts, idNumber its length. */
export const ID_POOLED = 32;
/** A text code not yet known (the builder's "nothing looked up"); the columns write NaN for "no method". */
export const NO_TEXT = 0xffffffff;

/** What few events have, kept apart from the columns. */
export interface Rare {
  retry?: number;
  parseError?: string;
  /** A batch, a string id or a cancellation: envelopes as they are. */
  envelopes?: JsonRpcEnvelope[];
}

/**
 * A snapshot of one connection's events (see EventTableBuilder): `count` rows, each column cut to them. Tables of
 * one builder share their rows: a later snapshot holds every row of an earlier one, unchanged, and more.
 */
export class EventTable {
  /** The builder this snapshot came from: tables of one lineage extend each other. */
  readonly #lineage: object;

  constructor(
    lineage: object,
    readonly count: number,
    readonly columns: Columns,
    /** Byte offset in the body where each chunk read so far starts, and the chunk's time. */
    readonly chunkStarts: Float64Array,
    readonly chunkTimes: Float64Array,
    /** Event types, methods, id prefixes, and ids that are neither a prefix and a counter nor Latin-1. */
    readonly texts: readonly string[],
    /** The characters of ids that are not a prefix and a counter (see IdPool). */
    readonly idPool: Uint8Array,
    /** Rows (ascending) that have a Rare entry, and those entries. */
    readonly rareRows: readonly number[],
    readonly rare: readonly Rare[],
  ) {
    this.#lineage = lineage;
  }

  /** Whether this table holds every row of `older` as it was (it is the same table, or a later snapshot of it). */
  continues(older: EventTable): boolean {
    return this.#lineage === older.#lineage && this.count >= older.count;
  }

  /** Epoch ms of the chunk that dispatched the event. */
  time(row: number): number {
    return this.chunkTimes[this.columns.lastChunk.at(row)] as number;
  }

  /** Where the event's bytes end in the body (exclusive). */
  end(row: number): number {
    return this.columns.start.at(row) + this.columns.span.at(row);
  }

  /** The chunk holding the event's first byte: the last chunk starting at or before it (an empty one holds none). */
  firstChunk(row: number): number {
    const start = this.columns.start.at(row);
    const starts = this.chunkStarts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((starts[mid] as number) <= start) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }

  hasId(row: number): boolean {
    return (this.columns.flags.at(row) & HAS_ID) !== 0;
  }

  lastEventId(row: number): string {
    const code = this.columns.idText.at(row);
    const n = this.columns.idNumber.at(row);
    if ((this.columns.flags.at(row) & ID_POOLED) !== 0) return idAt(this.idPool, code, n);
    const text = this.texts[code] as string;
    return Number.isNaN(n) ? text : text + String(n);
  }

  type(row: number): string {
    return this.texts[this.columns.type.at(row)] as string;
  }

  /** How many JSON-RPC messages the event carries, without building their envelopes. */
  messageCount(row: number): number {
    const kind = (this.columns.flags.at(row) & KIND_MASK) >> KIND_SHIFT;
    if (kind === KIND_NONE) return 0;
    return kind === KIND_RARE ? (this.rareAt(row)?.envelopes?.length ?? 0) : 1;
  }

  /** The envelopes of the event's messages (a new array each call). */
  envelopes(row: number): JsonRpcEnvelope[] {
    const kind = (this.columns.flags.at(row) & KIND_MASK) >> KIND_SHIFT;
    if (kind === KIND_NONE) return [];
    if (kind === KIND_RARE) return (this.rareAt(row)?.envelopes ?? []).map((envelope) => ({ ...envelope }));
    const envelope: JsonRpcEnvelope = { kind: KINDS[kind - 1] as JsonRpcMessage['kind'] };
    const id = this.columns.messageId.at(row);
    if (!Number.isNaN(id)) envelope.id = id;
    const method = this.columns.method.at(row);
    if (!Number.isNaN(method)) envelope.method = this.texts[method] as string;
    return [envelope];
  }

  rareAt(row: number): Rare | undefined {
    if ((this.columns.flags.at(row) & HAS_RARE) === 0) return undefined;
    const rows = this.rareRows;
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((rows[mid] as number) < row) low = mid + 1;
      else high = mid;
    }
    return rows[low] === row ? this.rare[low] : undefined;
  }

  /** Whether an event that carried its own id carried `id`; a scan of the id columns, no strings made. */
  hasOwnId(id: string): boolean {
    const { flags, idText, idNumber } = this.columns;
    const start = counterStart(id);
    const prefix = start === undefined ? id : id.slice(0, start);
    const n = start === undefined ? Number.NaN : counterFrom(id, start);
    const texts = this.texts;
    for (let row = 0; row < this.count; row++) {
      const f = flags.at(row);
      if ((f & HAS_ID) === 0) continue;
      const code = idText.at(row);
      const number = idNumber.at(row);
      if ((f & ID_POOLED) !== 0) {
        if (idEquals(this.idPool, code, number, id)) return true;
      } else if (Number.isNaN(number) ? texts[code] === id : number === n && texts[code] === prefix) return true;
    }
    return false;
  }
}
