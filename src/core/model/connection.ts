// Runs anywhere (pure core): one raw connection record -> its parsed body (SSE events and tail, JSON messages).
import type { ConnectionRecord } from '../capture/model';
import { headerValue, mediaType } from '../mcp/headers';
import { parseMessages } from '../mcp/jsonrpc';
import { SseParser } from '../sse/parser';
import type { SseEvent, SseTail } from '../sse/types';
import type { ConnectionRole, JsonRpcMessage } from './types';

export interface ParsedConnection {
  record: ConnectionRecord;
  role: ConnectionRole;
  isSse: boolean;
  sessionId?: string;
  protocolVersion?: string;
  lastEventIdSent?: string;
  requestMessages: JsonRpcMessage[];
  responseMessages: JsonRpcMessage[];
  events: { event: SseEvent; time: number }[];
  tail?: SseTail;
  bytes: number;
}

function roleOf(record: ConnectionRecord, isSse: boolean): ConnectionRole {
  const method = record.method.toUpperCase();
  if (method === 'DELETE') return 'delete';
  if (method === 'POST') return 'post';
  if (method === 'GET') return isSse || record.status === undefined || record.status >= 400 ? 'get' : 'other';
  return 'other';
}

const TEXT = new TextDecoder();

function decodeBody(record: ConnectionRecord): string {
  const total = record.chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of record.chunks) {
    joined.set(chunk.bytes, offset);
    offset += chunk.bytes.byteLength;
  }
  return TEXT.decode(joined);
}

/** Parses what one connection carried. Roles of 2024-11-05 connections are settled later by the session grouping. */
export function parseConnection(record: ConnectionRecord): ParsedConnection {
  const isSse = mediaType(record.responseHeaders) === 'text/event-stream' || record.source === 'eventsource';
  const requestMessages = record.requestBody ? messagesOrEmpty(record.requestBody) : [];
  const events: ParsedConnection['events'] = [];
  let tail: SseTail | undefined;
  let responseMessages: JsonRpcMessage[] = [];
  let bytes = 0;
  if (isSse) {
    const parser = new SseParser();
    for (const chunk of record.chunks) {
      bytes += chunk.bytes.byteLength;
      for (const event of parser.push(chunk.bytes)) events.push({ event, time: chunk.t });
    }
    tail = record.end === 'open' ? parser.tail : parser.finish();
  } else {
    bytes = record.chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
    if (mediaType(record.responseHeaders) === 'application/json' && bytes > 0) {
      responseMessages = messagesOrEmpty(decodeBody(record));
    }
  }
  const sessionId = headerValue(record.requestHeaders, 'mcp-session-id') ?? headerValue(record.responseHeaders, 'mcp-session-id');
  const parsed: ParsedConnection = {
    record,
    role: roleOf(record, isSse),
    isSse,
    requestMessages,
    responseMessages,
    events,
    bytes,
  };
  if (sessionId !== undefined) parsed.sessionId = sessionId;
  const version = headerValue(record.requestHeaders, 'mcp-protocol-version');
  if (version !== undefined) parsed.protocolVersion = version;
  const lastEventId = headerValue(record.requestHeaders, 'last-event-id');
  if (lastEventId !== undefined) parsed.lastEventIdSent = lastEventId;
  if (tail) parsed.tail = tail;
  return parsed;
}

function messagesOrEmpty(text: string): JsonRpcMessage[] {
  const parsed = parseMessages(text);
  return parsed.ok ? parsed.messages : [];
}

export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}
