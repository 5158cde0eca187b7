// Runs anywhere (pure core): the typed arrays an event table keeps per event, allocated, grown and cut together.

/**
 * One row per dispatched event. Typed arrays, not objects: 100k events as objects (SSE event, parsed event, view,
 * messages array, parsed JSON, data string) kept 7x their bytes; as columns they keep ~50 bytes per event.
 */
export interface Columns {
  /** Byte offsets of the event in its connection body: [start, end). */
  start: Float64Array;
  end: Float64Array;
  /** The chunk that dispatched the event (its time is the event's; the first chunk is found from `start`). */
  lastChunk: Uint32Array;
  /** Bit set: see event-table.ts. */
  flags: Uint8Array;
  /** Code (index into the table's texts) of the event type. */
  type: Uint32Array;
  /** The last event id: texts[idText] followed by idNumber, or texts[idText] alone when idNumber is NaN. */
  idText: Uint32Array;
  idNumber: Float64Array;
  /** Of the one message an event carries (the usual case): its numeric id (NaN: none) and method code. */
  messageId: Float64Array;
  method: Uint32Array;
  /** Length of the data in UTF-16 code units. */
  dataLength: Uint32Array;
}

type Column = Columns[keyof Columns];

export function allocateColumns(capacity: number): Columns {
  return {
    start: new Float64Array(capacity),
    end: new Float64Array(capacity),
    lastChunk: new Uint32Array(capacity),
    flags: new Uint8Array(capacity),
    type: new Uint32Array(capacity),
    idText: new Uint32Array(capacity),
    idNumber: new Float64Array(capacity),
    messageId: new Float64Array(capacity),
    method: new Uint32Array(capacity),
    dataLength: new Uint32Array(capacity),
  };
}

function mapColumns(columns: Columns, each: (column: Column, name: keyof Columns) => Column): Columns {
  const out = {} as Record<keyof Columns, Column>;
  for (const name of Object.keys(columns) as (keyof Columns)[]) out[name] = each(columns[name], name);
  return out as Columns;
}

/** New columns of `capacity` rows holding the first `count` rows of `columns`. */
export function copyColumns(columns: Columns, count: number, capacity: number): Columns {
  const fresh = allocateColumns(capacity);
  return mapColumns(columns, (column, name) => {
    const target = fresh[name];
    target.set(column.subarray(0, count));
    return target;
  });
}

/** Views of the first `count` rows (no copy): rows written later, past `count`, stay out of them. */
export function viewColumns(columns: Columns, count: number): Columns {
  return mapColumns(columns, (column) => column.subarray(0, count));
}
