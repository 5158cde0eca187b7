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
  progress: (token: number, progress: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress } }),
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
