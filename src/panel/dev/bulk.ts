// Dev (pure, any runtime): a capture of big events for the panel's perf runs: one 2025-11-25 session, a tools/call
// POST whose event stream carries `events` progress notifications of about `eventBytes` each, the last one the call's
// result, delivered in `chunkBytes` chunks (what fetch hands a reader on loopback). Built in the page, so no
// 100 MB capture file has to be parsed before the panel is measured.
import type { BodyChunk, Capture, ConnectionRecord } from '../../core/capture/model';

export interface BulkShape {
  events: number;
  eventBytes: number;
  chunkBytes: number;
}

export const BULK_4MB: BulkShape = { events: 20, eventBytes: 4 * 1024 * 1024, chunkBytes: 64 * 1024 };

const SESSION = 'bulk-0000-4000-8000-000000000001';
const ORIGIN = 'http://127.0.0.1:8080';
const FILLER = ' lorem ipsum dolor sit amet, consectetur adipiscing elit';

function eventText(n: number, total: number, size: number): string {
  const skeleton = (text: string) => {
    const message =
      n === total
        ? { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } }
        : { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: n, total, text } };
    return `event: message\nid: ${n}\ndata: ${JSON.stringify(message)}\n\n`;
  };
  const base = `step ${n} of ${total}`;
  const missing = Math.max(0, size - skeleton(base).length);
  return skeleton(base + FILLER.repeat(Math.ceil(missing / FILLER.length)).slice(0, missing));
}

export function bulkCapture(shape: BulkShape = BULK_4MB, t0 = 1_795_967_688_000): Capture {
  const enc = new TextEncoder();
  const headers = [
    { name: 'content-type', value: 'application/json' },
    { name: 'accept', value: 'application/json, text/event-stream' },
    { name: 'mcp-protocol-version', value: '2025-11-25' },
  ];
  const sse = [
    { name: 'content-type', value: 'text/event-stream' },
    { name: 'mcp-session-id', value: SESSION },
  ];
  const init: ConnectionRecord = {
    id: 'b1',
    source: 'fetch',
    method: 'POST',
    url: `${ORIGIN}/mcp`,
    requestHeaders: headers,
    requestBody: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bulk', version: '1' } },
    }),
    startTime: t0,
    status: 200,
    statusText: 'OK',
    responseHeaders: sse,
    responseTime: t0 + 2,
    chunks: [
      {
        t: t0 + 3,
        bytes: enc.encode(
          `id: 0\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'bulk', version: '1' } } })}\n\n`,
        ),
      },
    ],
    endTime: t0 + 4,
    end: 'complete',
  };
  const chunks: BodyChunk[] = [];
  let t = t0 + 20;
  for (let n = 1; n <= shape.events; n++) {
    const bytes = enc.encode(eventText(n, shape.events, shape.eventBytes));
    for (let at = 0; at < bytes.length; at += shape.chunkBytes) {
      chunks.push({ t, bytes: bytes.slice(at, at + shape.chunkBytes) });
      t += 0.5;
    }
  }
  const call: ConnectionRecord = {
    id: 'b2',
    source: 'fetch',
    method: 'POST',
    url: `${ORIGIN}/mcp`,
    requestHeaders: [...headers, { name: 'mcp-session-id', value: SESSION }],
    requestBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bulk' } }),
    startTime: t0 + 10,
    status: 200,
    statusText: 'OK',
    responseHeaders: sse,
    responseTime: t0 + 15,
    chunks,
    endTime: t + 1,
    end: 'complete',
  };
  return {
    tool: { name: 'mcp-stream-inspector', version: 'bulk' },
    createdAt: t0,
    page: { url: `${ORIGIN}/app` },
    connections: [init, call],
  };
}
