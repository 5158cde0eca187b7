// Runs anywhere (test support, pure): builds captures from short transcripts so rule tests read like the traffic.
import { TextEncoder } from '../web/globals';
import type { BodyChunk, Capture, ConnectionRecord, EndReason, HttpHeader } from '../capture/model';

const encoder = new TextEncoder();

export interface ExchangeSpec {
  method?: string;
  url?: string;
  /** JSON-RPC body (object or batch) for POSTs. */
  body?: unknown;
  headers?: Record<string, string>;
  status?: number;
  /** SSE body, one string per chunk. */
  sse?: string[];
  /** JSON response body. */
  json?: unknown;
  responseHeaders?: Record<string, string>;
  end?: EndReason;
}

/** An SSE event block: `event('1', {jsonrpc...})` -> "id: 1\ndata: {...}\n\n". */
export function sseEvent(id: string | undefined, data: unknown, type = 'message'): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `event: ${type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${text}\n\n`;
}

export const rpc = {
  request: (id: number | string, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params }),
  notification: (method: string, params: unknown = {}) => ({ jsonrpc: '2.0', method, params }),
  result: (id: number | string, result: unknown = {}) => ({ jsonrpc: '2.0', id, result }),
  error: (id: number | string, code = -32000, message = 'failed') => ({ jsonrpc: '2.0', id, error: { code, message } }),
  progress: (token: number, progress: number) => ({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: token, progress },
  }),
};

export class Transcript {
  private readonly records: ConnectionRecord[] = [];
  private clock = 1_000;

  constructor(private readonly origin = 'http://127.0.0.1:3000') {}

  /** Adds one exchange; `session` sets Mcp-Session-Id on request and response; era sets MCP-Protocol-Version. */
  exchange(spec: ExchangeSpec, session?: string, era?: string): string {
    const id = `c${this.records.length + 1}`;
    const start = (this.clock += 10);
    const requestHeaders: HttpHeader[] = [];
    if (session !== undefined) requestHeaders.push({ name: 'mcp-session-id', value: session });
    if (era !== undefined) requestHeaders.push({ name: 'mcp-protocol-version', value: era });
    for (const [name, value] of Object.entries(spec.headers ?? {})) requestHeaders.push({ name, value });
    const responseHeaders: HttpHeader[] = [];
    if (session !== undefined) responseHeaders.push({ name: 'mcp-session-id', value: session });
    if (spec.sse) responseHeaders.push({ name: 'content-type', value: 'text/event-stream' });
    else if (spec.json !== undefined) responseHeaders.push({ name: 'content-type', value: 'application/json' });
    for (const [name, value] of Object.entries(spec.responseHeaders ?? {})) responseHeaders.push({ name, value });
    const chunks: BodyChunk[] = [];
    const pieces = spec.sse ?? (spec.json !== undefined ? [JSON.stringify(spec.json)] : []);
    for (const piece of pieces) chunks.push({ t: (this.clock += 5), bytes: encoder.encode(piece) });
    const record: ConnectionRecord = {
      id,
      source: 'fetch',
      method: spec.method ?? (spec.body === undefined ? 'GET' : 'POST'),
      url: spec.url ?? `${this.origin}/mcp`,
      requestHeaders,
      startTime: start,
      status: spec.status ?? (spec.body !== undefined && !spec.sse && spec.json === undefined ? 202 : 200),
      statusText: '',
      responseHeaders,
      responseTime: start + 1,
      chunks,
      endTime: (this.clock += 5),
      end: spec.end ?? 'complete',
    };
    if (spec.body !== undefined) record.requestBody = JSON.stringify(spec.body);
    this.records.push(record);
    return id;
  }

  capture(): Capture {
    return { tool: { name: 'test', version: '0' }, createdAt: 0, connections: [...this.records] };
  }
}

/** A session helper bound to one Mcp-Session-Id and era. */
export function session(t: Transcript, id: string | undefined, era = '2025-11-25') {
  return (spec: ExchangeSpec) => t.exchange(spec, id, era);
}

/**
 * Reads a written transcript, the form of the rule docs' examples, in the manner of `curl -v`:
 *
 *     > POST /mcp                          a request: method and URL (a path gets the origin)
 *     > Mcp-Session-Id: s1                 request headers
 *     > {"jsonrpc":"2.0","id":1,...}       the request body, one JSON line
 *     < 200                                the response status,
 *     < Content-Type: text/event-stream    its headers,
 *     id: 1                                then the body: every other line, verbatim, each ending in LF
 *     data: {...}
 *
 *     ? gap 4096 bytes                     the recorder lost that many body bytes here (a capture gap)
 *     ! network-error                      how the body ended (aborted, network-error, open); else complete
 *     ~ +2000 ms                           time passing before the next exchange (ends the body before it)
 *     . +2000 ms                           time passing within an exchange: before its response head, or between
 *                                          two chunks of its body (the lines above arrived as one chunk)
 *
 * A body runs to the next `>`, `!` or `~` line, blank lines included (a body of blank lines only is none): an event
 * cut before its blank line is torn.
 */
export function parseTranscript(text: string, origin = 'http://127.0.0.1:3000'): Capture {
  const records: ConnectionRecord[] = [];
  let clock = 1_000;
  let current: ConnectionRecord | undefined;
  let body: string[] | undefined;
  const close = () => {
    if (!current) return;
    // A body of blank lines only is the space between two exchanges, not bytes of the response.
    if (body?.some((l) => l !== ''))
      current.chunks.push({ t: (clock += 5), bytes: encoder.encode(body.map((l) => `${l}\n`).join('')) });
    if (current.end !== 'open') current.endTime = clock += 5;
    current = undefined;
    body = undefined;
  };
  for (const [index, line] of text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n').entries()) {
    const fail = (why: string) => new Error(`transcript line ${index + 1}: ${why}: ${line}`);
    const request = /^> (.*)$/.exec(line)?.[1];
    if (request !== undefined && (!current || body !== undefined || current.status !== undefined)) {
      close();
      const start = /^([A-Z]+) (\S+)$/.exec(request);
      if (!start?.[1] || !start[2]) throw fail('expected "> METHOD URL"');
      const url = start[2].startsWith('/') ? origin + start[2] : start[2];
      const startTime = (clock += 10);
      current = {
        id: `c${records.length + 1}`,
        source: 'fetch',
        method: start[1],
        url,
        requestHeaders: [],
        startTime,
        chunks: [],
        end: 'complete',
      };
      records.push(current);
    } else if (request !== undefined && current) {
      if (/^[[{]/.test(request)) current.requestBody = request;
      else current.requestHeaders.push(header(request, fail));
    } else if (line.startsWith('< ') && current && body === undefined) {
      const status = /^< (\d{3})(?: (.*))?$/.exec(line);
      if (status?.[1] && current.status === undefined) {
        current.status = Number(status[1]);
        current.statusText = status[2] ?? '';
        current.responseHeaders = [];
        current.responseTime = clock + 1;
      } else if (current.responseHeaders) current.responseHeaders.push(header(line.slice(2), fail));
      else throw fail('expected "< STATUS" first');
    } else if (/^~ \+\d+ ms$/.test(line)) {
      close();
      clock += Number(/\d+/.exec(line)?.[0]);
    } else if (/^\. \+\d+ ms$/.test(line) && current) {
      // `. +N ms`: time passing within the exchange: what the body had so far arrived as one chunk, the rest later.
      if (body?.some((l) => l !== ''))
        current.chunks.push({ t: (clock += 5), bytes: encoder.encode(body.map((l) => `${l}\n`).join('')) });
      if (body) body = [];
      clock += Number(/\d+/.exec(line)?.[0]);
    } else if (line.startsWith('! ') && current) {
      const end = line.slice(2).trim();
      if (end !== 'aborted' && end !== 'network-error' && end !== 'open' && end !== 'complete')
        throw fail('unknown end');
      current.end = end;
      if (end === 'aborted' || end === 'network-error') current.error = end;
      close();
    } else if (current?.status !== undefined && /^\? gap \d+ bytes$/.test(line)) {
      // `? gap N bytes`: the recorder lost N bytes here (a capture gap, ConnectionRecord.gaps).
      const t = (clock += 5);
      if (body?.some((l) => l !== ''))
        current.chunks.push({ t, bytes: encoder.encode(body.map((l) => `${l}\n`).join('')) });
      body = [];
      const offset =
        current.chunks.reduce((sum, c) => sum + c.bytes.byteLength, 0) +
        (current.gaps ?? []).reduce((sum, g) => sum + g.bytes, 0);
      (current.gaps ??= []).push({ offset, bytes: Number(/\d+/.exec(line)?.[0]), t, cause: 'evicted' });
    } else if (current?.status !== undefined) {
      (body ??= []).push(line);
    } else if (line.trim() !== '') {
      throw fail('outside an exchange');
    }
  }
  close();
  return { tool: { name: 'transcript', version: '0' }, createdAt: 0, connections: records };
}

function header(text: string, fail: (why: string) => Error): HttpHeader {
  const colon = text.indexOf(':');
  if (colon <= 0) throw fail('expected "Name: value"');
  return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
}
