// Runs anywhere (pure core): what the SSE parser reports.

/** A dispatched event, as WHATWG "interpreting an event stream" defines it, plus where its bytes were. */
export interface SseEvent {
  /** Event type; "message" when no `event:` field was given. */
  type: string;
  /** Data lines joined with LF (the final LF removed). */
  data: string;
  /** The stream's last event id buffer at dispatch (persists across events). */
  lastEventId: string;
  /** True when this event carried its own valid `id` field. */
  hasId: boolean;
  /** The `retry` value set while this event was being read, if any (valid digits only). */
  retry?: number;
  /** Byte offset in the connection body of the event's first line (after a stripped BOM counts as offset 3). */
  start: number;
  /** Byte offset just past the blank line that dispatched it. */
  end: number;
  /** Index of the chunk holding `start` and of the chunk holding the dispatching blank line. */
  firstChunk: number;
  lastChunk: number;
}

/** The undispatched part of a stream: what a torn connection was holding when it ended. */
export interface SseTail {
  /** Byte offset where the undispatched event (or pending line) begins. */
  start: number;
  /** Copy of the undispatched bytes, from `start` to the end of input. */
  bytes: Uint8Array;
  /** Fields already parsed from complete lines of the undispatched event. */
  type?: string;
  dataLines: string[];
  id?: string;
  retry?: number;
  /** The decoded text of an incomplete last line (no line terminator yet), "" when none. */
  pendingLine: string;
  /** True when the event holds data: a complete `data` field or a pending line that is a `data` field. */
  hasData: boolean;
}
