// Runs anywhere (pure core): a raw event-stream file (what `curl -N` saves) as a one-connection capture.
// With `curl -i` / `-D -` the response head comes first; it is parsed and the body follows it.
import type { BodyChunk, Capture, ConnectionRecord, HttpHeader } from './model';
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
  const reader = new RawStreamReader();
  reader.push(bytes);
  return reader.finish(name);
}

/**
 * A raw event-stream file read piece by piece (the CLI's fixed-size reads): the pieces become the body's chunks
 * as they are, so no piece is copied or joined and the SSE parser decodes each event from them. The first
 * {@link HEAD_WINDOW} bytes are held until the saved head, if any, can be told from the body.
 */
export class RawStreamReader {
  private readonly chunks: BodyChunk[] = [];
  private prefix: Uint8Array[] | undefined = [];
  private prefixBytes = 0;
  /** The file offset of the next piece's first byte. */
  private offset = 0;
  private head: RawHead | undefined;
  private saved: Uint8Array = new Uint8Array(0);

  /**
   * @param chunkOf the body chunk to keep for the body bytes `bytes` found at `offset` of the file: by default
   * the bytes themselves; the CLI keeps chunks that read the file again when asked (src/cli/file-chunks.ts).
   */
  constructor(
    private readonly chunkOf: (bytes: Uint8Array, offset: number) => BodyChunk = (bytes) => ({ t: 0, bytes }),
  ) {}

  /** Adds the next piece of the file (kept as it is: the caller must not reuse its buffer). */
  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (!this.prefix) {
      this.chunks.push(this.chunkOf(bytes, this.offset));
      this.offset += bytes.length;
      return;
    }
    this.prefix.push(bytes);
    this.prefixBytes += bytes.length;
    if (this.prefixBytes >= HEAD_WINDOW) this.settleHead();
  }

  /** The saved head(s) in front of the body (empty without one), once {@link finish} has been called. */
  get headBytes(): Uint8Array {
    return this.saved;
  }

  /** The one-connection capture of the file read. */
  finish(name: string): Capture {
    this.settleHead();
    const { head } = this;
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
      chunks: this.chunks,
      endTime: 0,
      end: 'complete',
    };
    return { tool: { name: TOOL_NAME, version: '' }, createdAt: 0, connections: [connection] };
  }

  /** Parses the head from the bytes held, and hands what follows it to the body. */
  private settleHead(): void {
    const pieces = this.prefix;
    if (!pieces) return;
    this.prefix = undefined;
    const first = pieces.length === 1 ? pieces[0] : joinBytes(pieces, this.prefixBytes);
    if (first === undefined) return;
    this.head = parseRawHead(first);
    const bodyStart = this.head?.bodyStart ?? 0;
    this.saved = first.subarray(0, bodyStart);
    const body = first.subarray(bodyStart);
    if (body.length > 0) this.chunks.push(this.chunkOf(body, bodyStart));
    this.offset = this.prefixBytes;
  }
}

/** How much of a raw file is held before its head is parsed: heads are far shorter (curl's lines, a few KiB). */
const HEAD_WINDOW = 1 << 20;

function joinBytes(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
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
