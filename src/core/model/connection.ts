// Runs anywhere (pure core): one raw connection record -> its parsed body (SSE events and tail, JSON messages).
import { TextDecoder } from '../web/globals';
import type { BodyChunk, CaptureGap, ConnectionRecord, EndReason } from '../capture/model';
import { recordedOffset } from '../capture/gaps';
import { detectScheme } from '../ids/scheme';
import { headerValue, mediaType } from '../mcp/headers';
import { asEra, metaProtocolVersion } from '../mcp/era';
import { envelopeOf, parseMessages } from '../mcp/jsonrpc';
import { scanEnvelopes } from '../mcp/envelope-scan';
import { scanEnvelopeParts } from '../mcp/envelope-parts';
import { SseParser } from '../sse/parser';
import type { SseEvent, SseTail } from '../sse/types';
import { EventTableBuilder, type DataReading } from './event-table-builder';
import { NO_SIGNALS, SignalCollector, type BodySignals } from './signals';
import type { EventTable } from './event-table';
import type { ConnectionRole } from './types';
import type { IdScheme } from '../ids/scheme';
import type { Era, JsonRpcMessage } from '../mcp/types';

export interface ParsedConnection {
  record: ConnectionRecord;
  role: ConnectionRole;
  isSse: boolean;
  sessionId?: string;
  /** The MCP-Protocol-Version request header. */
  protocolVersion?: string;
  /** The era the request itself declares: its `_meta` version (2026-07-28), else the MCP-Protocol-Version header. */
  requestEra?: Era;
  lastEventIdSent?: string;
  requestMessages: JsonRpcMessage[];
  responseMessages: JsonRpcMessage[];
  /** The dispatched events, one row each, with their JSON-RPC reading (done once; the JSON is not kept). */
  table: EventTable;
  /** The data of the first `endpoint` event (2024-11-05 announces the POST endpoint so), noted while reading. */
  endpointData?: string;
  /** The scheme this connection's own event ids share (detectScheme over them; combine with combineSchemes). */
  idScheme: IdScheme;
  tail?: SseTail;
  /** The stream's last event id when the body ended: an id-only block moves it without dispatching an event. */
  finalLastEventId?: string;
  bytes: number;
  /** What the SSE events say about whether this is MCP (nothing for a body that is not SSE). */
  signals: BodySignals;
  /** Why the connection is MCP traffic (settled by the session grouping, as 2024-11-05 roles are). */
  evidence?: string;
  /** Lookups over this parse's event ids, built on first use and shared by copies of it. */
  lookup: EventIdLookup;
}

export interface EventIdLookup {
  /** Stream keys of the ids the connection's events carried, when they are SDK-style. */
  sdkKeys?: Set<string>;
}

/** What the request and response heads say; the body is read separately (and, for a live SSE body, in steps). */
export type ParsedHead = Omit<ParsedConnection, BodyPart | 'responseMessages' | 'lookup'>;

/** What reading an SSE body gives. */
type BodyPart = 'table' | 'endpointData' | 'idScheme' | 'tail' | 'bytes' | 'finalLastEventId' | 'signals';

function roleOf(record: ConnectionRecord, isSse: boolean): ConnectionRole {
  const method = record.method.toUpperCase();
  if (method === 'DELETE') return 'delete';
  if (method === 'POST') return 'post';
  if (method === 'GET') return isSse || record.status === undefined || record.status >= 400 ? 'get' : 'other';
  return 'other';
}

const TEXT = new TextDecoder();
/** How much of a chunk is parsed at a time (see read). */
const PARSE_SLICE = 256 * 1024;

function decodeBody(chunks: readonly BodyChunk[]): string {
  const total = chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk.bytes, offset);
    offset += chunk.bytes.byteLength;
  }
  return TEXT.decode(joined);
}

/** Parses the heads. Roles of 2024-11-05 connections are settled later by the session grouping. */
export function parseHead(record: ConnectionRecord): ParsedHead {
  const isSse = mediaType(record.responseHeaders) === 'text/event-stream' || record.source === 'eventsource';
  const head: ParsedHead = {
    record,
    role: roleOf(record, isSse),
    isSse,
    requestMessages: record.requestBody ? messagesOrEmpty(record.requestBody) : [],
  };
  const sessionId =
    headerValue(record.requestHeaders, 'mcp-session-id') ?? headerValue(record.responseHeaders, 'mcp-session-id');
  if (sessionId !== undefined) head.sessionId = sessionId;
  const version = headerValue(record.requestHeaders, 'mcp-protocol-version');
  if (version !== undefined) head.protocolVersion = version;
  const declared = head.requestMessages.map(metaProtocolVersion).find((v) => v !== undefined);
  const era = asEra(declared ?? version);
  if (era) head.requestEra = era;
  const lastEventId = headerValue(record.requestHeaders, 'last-event-id');
  if (lastEventId !== undefined) head.lastEventIdSent = lastEventId;
  return head;
}

/** The scheme of two id sequences read one after the other (detectScheme is a fold, so this is exact). */
export function combineSchemes(a: IdScheme, b: IdScheme): IdScheme {
  if (a === 'none') return b;
  if (b === 'none' || a === b) return a;
  return 'opaque';
}

const NOTHING: DataReading = { envelopes: [], parseError: undefined };

/**
 * The event's data read as JSON-RPC, once: what the table keeps of it (the parsed JSON is dropped here), and
 * whether the data was not even JSON (what classification asks of data that is not JSON-RPC).
 */
function readData(
  event: SseEvent,
  parts: readonly string[] | undefined,
): { reading: DataReading; unparsable: boolean } {
  if (event.data === '') return { reading: NOTHING, unparsable: false };
  // A long data line read from its parts: its data is made one string only if the exact path needs it.
  const scanned = parts ? scanEnvelopeParts(parts) : scanEnvelopes(event.data);
  if (scanned) return { reading: { envelopes: scanned, parseError: undefined }, unparsable: false };
  const parsed = parseMessages(event.data);
  if (parsed.ok)
    return { reading: { envelopes: parsed.messages.map(envelopeOf), parseError: undefined }, unparsable: false };
  const reading = event.type === 'message' ? { envelopes: [], parseError: parsed.error } : NOTHING;
  return { reading, unparsable: !parsed.json };
}

/**
 * An SSE body read chunk by chunk. A live connection keeps one so that each new analysis parses only the
 * chunks that arrived since the last one (the parser state carries torn lines and events across chunks).
 */
export class SseBodyReader {
  private readonly parser = new SseParser();
  private readonly table = new EventTableBuilder();
  private readonly signals = new SignalCollector();
  private endpointData: string | undefined;
  private chunkCount = 0;
  private byteCount = 0;
  /** Capture gaps the reader has passed. */
  private gapsPassed = 0;
  private scheme: IdScheme = 'none';
  private ended = false;

  get chunksRead(): number {
    return this.chunkCount;
  }

  get finished(): boolean {
    return this.ended;
  }

  /**
   * Reads chunks[chunksRead..]: the caller guarantees the earlier chunks are the ones already read. At a capture
   * gap (`gaps`, the record's) the parser resyncs: an event the gap cut into is not joined across it.
   */
  read(chunks: readonly BodyChunk[], gaps: readonly CaptureGap[] = []): void {
    for (let i = this.chunkCount; i < chunks.length; i++) {
      const chunk = chunks[i] as BodyChunk;
      for (; this.gapsPassed < gaps.length; this.gapsPassed++) {
        if (recordedOffset(gaps, this.gapsPassed) > this.byteCount) break;
        this.parser.resync();
      }
      this.table.addChunk(this.byteCount, chunk.t);
      this.byteCount += chunk.bytes.byteLength;
      // In slices: a 4 MB chunk's 20k events pushed at once outlived a young-generation collection each, and the
      // old generation grew by all of them (a 1 GB HAR's peak RSS, not its live memory).
      let from = 0;
      do this.rows(this.parser.push(chunk.bytes.subarray(from, from + PARSE_SLICE), from > 0));
      while ((from += PARSE_SLICE) < chunk.bytes.length);
    }
    this.chunkCount = chunks.length;
  }

  private rows(dispatched: readonly SseEvent[]): void {
    if (dispatched.length === 0) return;
    const ids: string[] = [];
    for (const event of dispatched) {
      const { reading, unparsable } = readData(event, this.parser.dataPartsOf(event));
      this.table.add(event, reading);
      this.signals.note(event, reading.envelopes, unparsable);
      if (event.hasId) ids.push(event.lastEventId);
      if (event.type === 'endpoint') this.endpointData ??= event.data;
    }
    if (this.scheme !== 'opaque') this.scheme = combineSchemes(this.scheme, detectScheme(ids));
  }

  /** The body as read so far; a connection that is no longer open ends the stream for good. */
  body(end: EndReason): Pick<ParsedConnection, BodyPart> {
    let tail: SseTail | undefined;
    if (end === 'open') tail = this.parser.tail;
    else if (!this.ended) {
      tail = this.parser.finish();
      this.ended = true;
      this.table.seal();
    } else tail = this.parser.tail;
    // A snapshot: results handed out stay as they were while this reader keeps growing.
    const body: Pick<ParsedConnection, BodyPart> = {
      table: this.table.snapshot(),
      idScheme: this.scheme,
      bytes: this.byteCount,
      signals: this.signals.snapshot(),
    };
    if (this.endpointData !== undefined) body.endpointData = this.endpointData;
    if (tail) body.tail = tail;
    if (this.parser.lastEventId !== '') body.finalLastEventId = this.parser.lastEventId;
    return body;
  }
}

/** The events of a connection that is not SSE. */
const EMPTY_TABLE = new EventTableBuilder().snapshot();

/** A parsed connection from its head and, for SSE, a reader that has read all of the record's chunks. */
export function assembleConnection(head: ParsedHead, reader: SseBodyReader | undefined): ParsedConnection {
  const { record } = head;
  if (reader) return { ...head, responseMessages: [], ...reader.body(record.end), lookup: {} };
  const bytes = record.chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
  const json = mediaType(record.responseHeaders) === 'application/json' && bytes > 0;
  return {
    ...head,
    responseMessages: json ? messagesOrEmpty(decodeBody(record.chunks)) : [],
    table: EMPTY_TABLE,
    idScheme: 'none',
    bytes,
    signals: { ...NO_SIGNALS },
    lookup: {},
  };
}

/**
 * Parses what one connection carried: from scratch, or on from `reader`, which has read the record's first chunks
 * already (a body parsed as it was read, see analyzeRead).
 */
export function parseConnection(record: ConnectionRecord, reader?: SseBodyReader): ParsedConnection {
  const head = parseHead(record);
  if (!head.isSse) return assembleConnection(head, undefined);
  const body = reader ?? new SseBodyReader();
  body.read(record.chunks, record.gaps);
  return assembleConnection(head, body);
}

function messagesOrEmpty(text: string): JsonRpcMessage[] {
  const parsed = parseMessages(text);
  return parsed.ok ? parsed.messages : [];
}

export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}
