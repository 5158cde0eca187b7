// Runs anywhere (pure core): the columns an event table keeps per event, in pages that are each as narrow as their
// values allow.

/**
 * One row per dispatched event. Typed arrays, not objects: 100k events as objects (SSE event, parsed event, view,
 * messages array, parsed JSON, data string) kept 7x their bytes. Flat Float64 columns kept 57 bytes an event and,
 * growing by copies, up to 2.5 times that while a long stream was read: a 1 GB stream of 5M progress events peaked at
 * 700 MB. Pages of narrow integers keep about 20 bytes an event and never copy more than one page.
 */
export interface Columns {
  /** Byte offset of the event in its connection body, and how many bytes it spans (its end is start + span). */
  start: NumberColumn;
  span: NumberColumn;
  /** The chunk that dispatched the event (its time is the event's; the first chunk is found from `start`). */
  lastChunk: NumberColumn;
  /** Bit set: see event-table.ts. */
  flags: NumberColumn;
  /** Code (index into the table's texts) of the event type. */
  type: NumberColumn;
  /** The last event id: texts[idText] followed by idNumber, or texts[idText] alone when idNumber is NaN. */
  idText: NumberColumn;
  idNumber: NumberColumn;
  /** Of the one message an event carries (the usual case): its numeric id (NaN: none) and method code (NaN: none). */
  messageId: NumberColumn;
  method: NumberColumn;
  /** Length of the data in UTF-16 code units. */
  dataLength: NumberColumn;
}

type Page = Uint8Array | Uint16Array | Uint32Array | Float64Array;

const PAGE_BITS = 12;
/** Rows a full page holds; the first page starts small and grows to this, so a short connection costs little. */
const PAGE_ROWS = 1 << PAGE_BITS;
const ROW_MASK = PAGE_ROWS - 1;
const FIRST_ROWS = 16;
/** A page whose first value is at least this keeps its values relative to it. */
const BASE_FROM = 0xffff;

/** The integer pages, narrowest first; each keeps its largest value to stand for NaN ("none", in every column). */
const INTEGER_KINDS = [
  { make: (rows: number): Page => new Uint8Array(rows), none: 0xff },
  { make: (rows: number): Page => new Uint16Array(rows), none: 0xffff },
  { make: (rows: number): Page => new Uint32Array(rows), none: 0xffffffff },
] as const;
const WIDE = INTEGER_KINDS.length;
/** A Float64 page holds NaN itself: no stored value equals NaN, so none is ever read as "none". */
const WIDE_NONE = Number.NaN;

/** The narrowest kind holding `value` (NaN fits every kind, as its "none"). */
function kindFor(value: number): number {
  if (value !== value) return 0;
  if (value >= 0 && value <= 0xfffffffe && Math.floor(value) === value) {
    if (value < 0xff) return 0;
    return value < 0xffff ? 1 : 2;
  }
  return WIDE;
}

function makePage(kind: number, rows: number): Page {
  return kind === WIDE ? new Float64Array(rows) : (INTEGER_KINDS[kind] as (typeof INTEGER_KINDS)[number]).make(rows);
}

function noneOf(kind: number): number {
  return kind === WIDE ? WIDE_NONE : (INTEGER_KINDS[kind] as (typeof INTEGER_KINDS)[number]).none;
}

/**
 * Numbers by row, appended only. A page whose first value is large keeps its values less that one (offsets and
 * counters then fit 16 or 32 bits; a smaller value later widens the page to Float64), and each page is widened (copied into a wider kind) when a value does not fit it; a new page starts as wide as the one
 * before, so a column is widened a few times in all. Snapshots hold the column itself: a row once written reads the
 * same from then on, whatever is added or widened. The pages are private fields, so deep equality (tests) compares
 * tables by their rows' views, not by page layout.
 */
export class NumberColumn {
  readonly #pages: Page[] = [];
  readonly #kinds: number[] = [];
  /** The value standing for NaN in each page. */
  readonly #nones: number[] = [];
  /** What each page's stored values are relative to (0 in a Float64 page: it keeps values as they are). */
  readonly #bases: number[] = [];

  at(row: number): number {
    const page = row >>> PAGE_BITS;
    const value = (this.#pages[page] as Page)[row & ROW_MASK] as number;
    return value === this.#nones[page] ? Number.NaN : value + (this.#bases[page] as number);
  }

  /** Writes row `row`: rows are written in order, each once. */
  set(row: number, value: number): void {
    const pageIndex = row >>> PAGE_BITS;
    const slot = row & ROW_MASK;
    let page = this.#pages[pageIndex];
    if (page === undefined) page = this.#addPage(pageIndex, value);
    else if (slot >= page.length) page = this.#resize(pageIndex, this.#kinds[pageIndex] as number, page.length * 2);
    if (value !== value) {
      page[slot] = this.#nones[pageIndex] as number;
      return;
    }
    const kind = this.#kinds[pageIndex] as number;
    let stored = value - (this.#bases[pageIndex] as number);
    if (kind !== WIDE) {
      const needed = kindFor(stored);
      if (needed > kind) {
        page = this.#resize(pageIndex, needed, page.length);
        if (needed === WIDE) stored = value;
      }
    }
    page[slot] = stored;
  }

  /** Bytes the pages take (what the memory benchmarks and tests count). */
  get byteLength(): number {
    let bytes = 0;
    for (const page of this.#pages) bytes += page.byteLength;
    return bytes;
  }

  /** No more rows: the last page keeps only its `rows` rows. */
  trim(rows: number): void {
    const last = this.#pages.length - 1;
    if (last < 0) return;
    const used = rows - last * PAGE_ROWS;
    const page = this.#pages[last] as Page;
    if (used > 0 && used < page.length) this.#pages[last] = page.slice(0, used);
  }

  #addPage(pageIndex: number, first: number): Page {
    const kind = pageIndex === 0 ? 0 : (this.#kinds[pageIndex - 1] as number);
    const page = makePage(kind, pageIndex === 0 ? FIRST_ROWS : PAGE_ROWS);
    this.#pages[pageIndex] = page;
    this.#kinds[pageIndex] = kind;
    this.#nones[pageIndex] = noneOf(kind);
    // Only large first values are a base: offsets, indexes and counters rise; small codes and lengths go up and down.
    this.#bases[pageIndex] = kind !== WIDE && first >= BASE_FROM && Number.isSafeInteger(first) ? first : 0;
    return page;
  }

  /**
   * The page copied into `kind` with room for `rows`: "none" values become the new kind's; into a Float64 page,
   * values are stored as they are (base 0).
   */
  #resize(pageIndex: number, kind: number, rows: number): Page {
    const old = this.#pages[pageIndex] as Page;
    const oldKind = this.#kinds[pageIndex] as number;
    const oldNone = this.#nones[pageIndex] as number;
    const newNone = noneOf(kind);
    const page = makePage(kind, Math.min(PAGE_ROWS, rows));
    if (kind === oldKind) page.set(old);
    else {
      const shift = kind === WIDE ? (this.#bases[pageIndex] as number) : 0;
      for (let i = 0; i < old.length; i++) page[i] = old[i] === oldNone ? newNone : (old[i] as number) + shift;
      if (kind === WIDE) this.#bases[pageIndex] = 0;
    }
    this.#pages[pageIndex] = page;
    this.#kinds[pageIndex] = kind;
    this.#nones[pageIndex] = newNone;
    return page;
  }
}

export function allocateColumns(): Columns {
  return {
    start: new NumberColumn(),
    span: new NumberColumn(),
    lastChunk: new NumberColumn(),
    flags: new NumberColumn(),
    type: new NumberColumn(),
    idText: new NumberColumn(),
    idNumber: new NumberColumn(),
    messageId: new NumberColumn(),
    method: new NumberColumn(),
    dataLength: new NumberColumn(),
  };
}

export function trimColumns(columns: Columns, rows: number): void {
  for (const column of Object.values(columns)) column.trim(rows);
}
