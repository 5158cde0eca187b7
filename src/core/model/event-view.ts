// Runs anywhere (pure core): the view of one event, made from its connection's table when asked for.
import type { BodyChunk } from '../capture/model';
import { parseMessages } from '../mcp/jsonrpc';
import type { JsonRpcEnvelope, JsonRpcMessage } from '../mcp/types';
import { eventData, eventDataPreview } from './event-data';
import type { EventTable } from './event-table';
import type { EventView } from './types';

/** The connection a run of events came from, as the event list knows it. */
export interface PlacedRun {
  connectionId: string;
  streamId: string;
  sessionKey: string;
  table: EventTable;
  /** The body the table was read from (the connection record's chunks), for the data. */
  chunks: readonly BodyChunk[];
}

/**
 * Own fields are plain values copied from the table (so views compare, print and clone as data); the data, the
 * messages and the envelopes are read from the table and the bytes when asked for.
 */
export class TableEventView implements EventView {
  index: number;
  connectionId: string;
  streamId: string;
  sessionKey: string;
  time: number;
  type: string;
  lastEventId: string;
  hasId: boolean;
  retry: number | undefined;
  start: number;
  end: number;
  firstChunk: number;
  lastChunk: number;
  dataLength: number;
  // Declared, not defined: present only when there is one (as an object literal would have it).
  declare parseError?: string;
  readonly #table: EventTable;
  readonly #row: number;
  readonly #chunks: readonly BodyChunk[];

  constructor(run: PlacedRun, row: number, index: number) {
    const { table } = run;
    const c = table.columns;
    this.index = index;
    this.connectionId = run.connectionId;
    this.streamId = run.streamId;
    this.sessionKey = run.sessionKey;
    this.time = table.time(row);
    this.type = table.type(row);
    this.lastEventId = table.lastEventId(row);
    this.hasId = table.hasId(row);
    const rare = table.rareAt(row);
    this.retry = rare?.retry;
    this.start = c.start.at(row);
    this.end = table.end(row);
    this.firstChunk = table.firstChunk(row);
    this.lastChunk = c.lastChunk.at(row);
    this.dataLength = c.dataLength.at(row);
    if (rare?.parseError !== undefined) this.parseError = rare.parseError;
    this.#table = table;
    this.#row = row;
    this.#chunks = run.chunks;
  }

  get data(): string {
    return this.dataLength === 0 ? '' : eventData(this.#chunks, this.#table, this.#row);
  }

  dataPreview(max: number): string {
    return this.dataLength === 0 ? '' : eventDataPreview(this.#chunks, this.#table, this.#row, max);
  }

  get messages(): JsonRpcMessage[] {
    if (this.#table.messageCount(this.#row) === 0) return [];
    const parsed = parseMessages(this.data);
    return parsed.ok ? parsed.messages : [];
  }

  get envelopes(): JsonRpcEnvelope[] {
    return this.#table.envelopes(this.#row);
  }
}

/**
 * One view that moves along a list's events, for readers that look at each event once and keep at most its index
 * (the rules' indexes): no view is made per event, and each field is read from the table only when asked for.
 */
export class MovingEventView implements EventView {
  #run: PlacedRun | undefined;
  #row = 0;
  #index = 0;

  /** Points this view at row `row` of `run`, event `index` of its list. */
  moveTo(run: PlacedRun, row: number, index: number): void {
    this.#run = run;
    this.#row = row;
    this.#index = index;
  }

  private get table(): EventTable {
    return (this.#run as PlacedRun).table;
  }

  get index(): number {
    return this.#index;
  }
  get connectionId(): string {
    return (this.#run as PlacedRun).connectionId;
  }
  get streamId(): string {
    return (this.#run as PlacedRun).streamId;
  }
  get sessionKey(): string {
    return (this.#run as PlacedRun).sessionKey;
  }
  get time(): number {
    return this.table.time(this.#row);
  }
  get type(): string {
    return this.table.type(this.#row);
  }
  get lastEventId(): string {
    return this.table.lastEventId(this.#row);
  }
  get hasId(): boolean {
    return this.table.hasId(this.#row);
  }
  get retry(): number | undefined {
    return this.table.rareAt(this.#row)?.retry;
  }
  get start(): number {
    return this.table.columns.start.at(this.#row);
  }
  get end(): number {
    return this.table.end(this.#row);
  }
  get firstChunk(): number {
    return this.table.firstChunk(this.#row);
  }
  get lastChunk(): number {
    return this.table.columns.lastChunk.at(this.#row);
  }
  get dataLength(): number {
    return this.table.columns.dataLength.at(this.#row);
  }
  get parseError(): string | undefined {
    return this.table.rareAt(this.#row)?.parseError;
  }
  get data(): string {
    return this.dataLength === 0 ? '' : eventData((this.#run as PlacedRun).chunks, this.table, this.#row);
  }
  dataPreview(max: number): string {
    return this.dataLength === 0 ? '' : eventDataPreview((this.#run as PlacedRun).chunks, this.table, this.#row, max);
  }
  get messages(): JsonRpcMessage[] {
    if (this.table.messageCount(this.#row) === 0) return [];
    const parsed = parseMessages(this.data);
    return parsed.ok ? parsed.messages : [];
  }
  get envelopes(): JsonRpcEnvelope[] {
    return this.table.envelopes(this.#row);
  }
}
