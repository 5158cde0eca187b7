// Runs anywhere (pure core): a raw event-stream file (what `curl -N` saves) as a one-connection capture.
// With `curl -i` / `-D -` the response head comes first; it is parsed and the body follows it.
import type { Capture, ConnectionRecord, HttpHeader } from './model';
import { headerValue } from './headers';
import { TOOL_NAME } from './model';

/** A status line `HTTP/1.1 200 OK`, `HTTP/2 200`; what marks a head saved in front of the body. */
const STATUS_LINE = /^HTTP\/\d(?:\.\d)? (\d{3})(?: (.*))?$/;

export interface RawHead {
  status: number;
  statusText: string;
  headers: HttpHeader[];
  /** Byte offset where the body starts. */
  bodyStart: number;
}

/**
 * Imports the file. Without a saved head the file holds only the body, and a file saved this way is by
 * definition an event stream: status 200 with `content-type: text/event-stream` is recorded so the
 * core reads it as one. Raw files carry no times: every time is 0 (the file's own epoch).
 */
export function importRawStream(bytes: Uint8Array, name: string): Capture {
  const head = parseRawHead(bytes);
  const body = head ? bytes.subarray(head.bodyStart) : bytes;
  const responseHeaders = head ? head.headers : [{ name: 'content-type', value: 'text/event-stream' }];
  const connection: ConnectionRecord = {
    id: 'c1',
    source: 'raw',
    method: 'GET',
    url: urlFromHeaders(responseHeaders) ?? `file://${name}`,
    requestHeaders: [],
    startTime: 0,
    status: head ? head.status : 200,
    statusText: head ? head.statusText : 'OK',
    responseHeaders,
    responseTime: 0,
    chunks: body.length > 0 ? [{ t: 0, bytes: body }] : [],
    endTime: 0,
    end: 'complete',
  };
  return { tool: { name: TOOL_NAME, version: '' }, createdAt: 0, connections: [connection] };
}

/** True when the bytes start with an HTTP status line (a head saved by `curl -i` or `-D -`). */
export function startsWithStatusLine(bytes: Uint8Array): boolean {
  return STATUS_LINE.test(readLine(bytes, 0).text);
}

/**
 * Parses the saved head(s). curl writes every head it got (`100 Continue`, a proxy's
 * `200 Connection established`, redirects with -L): the last one before the body is the answer.
 */
export function parseRawHead(bytes: Uint8Array): RawHead | undefined {
  let at = 0;
  let head: RawHead | undefined;
  for (;;) {
    const statusLine = readLine(bytes, at);
    const match = STATUS_LINE.exec(statusLine.text);
    if (!match) return head;
    const headers: HttpHeader[] = [];
    at = statusLine.next;
    for (;;) {
      const line = readLine(bytes, at);
      at = line.next;
      if (line.text === '') break;
      const colon = line.text.indexOf(':');
      if (colon > 0) headers.push({ name: line.text.slice(0, colon).trim(), value: line.text.slice(colon + 1).trim() });
    }
    head = { status: Number(match[1]), statusText: match[2]?.trim() ?? '', headers, bodyStart: at };
  }
}

/** One Latin-1 line starting at `at` (head lines are ASCII), without its CRLF or LF. */
function readLine(bytes: Uint8Array, at: number): { text: string; next: number } {
  let end = bytes.indexOf(0x0a, at);
  const next = end === -1 ? bytes.length : end + 1;
  if (end === -1) end = bytes.length;
  if (end > at && bytes[end - 1] === 0x0d) end--;
  // Head lines are short; a body line is only tested against the status line, so its start suffices.
  const textEnd = Math.min(end, at + MAX_HEAD_LINE);
  let text = '';
  for (let i = at; i < textEnd; i++) text += String.fromCharCode(bytes[i]!);
  return { text, next };
}

const MAX_HEAD_LINE = 16384;

/** `Content-Location` with an absolute URL names the resource; nothing else in a response head does. */
function urlFromHeaders(headers: HttpHeader[]): string | undefined {
  const location = headerValue(headers, 'content-location');
  return location && /^[a-z][a-z0-9+.-]*:\/\//i.test(location) ? location : undefined;
}
