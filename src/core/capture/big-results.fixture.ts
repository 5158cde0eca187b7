// Tests, benchmarks and dev scripts (pure, any runtime): a capture of big tool results: one 2025-11-25 session,
// the initialize exchange, then `calls` tools/call POSTs each answered by an SSE stream of one result event whose
// text content is padded to `eventBytes` on the wire, read in 64 KiB chunks (the per-byte case of panel-4mb).
import type { BodyChunk, Capture, ConnectionRecord } from './model';

const enc = new TextEncoder();
const SESSION = 'big-results-0000-4000-8000-000000000001';
const ORIGIN = 'http://127.0.0.1:8080';
const CHUNK = 64 * 1024;
const FILLER = ' lorem ipsum dolor sit amet, consectetur adipiscing elit';

/** One `id: n` event of about `size` bytes whose data answers request `id` with one text content block. */
function resultEvent(n: number, id: number, size: number): string {
  const wire = (text: string) =>
    `id: ${n}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } })}\n\n`;
  const base = `document ${n}:`;
  // ASCII without JSON escapes: one character is one byte, so the bare event's length says how much to add.
  const missing = size - wire(base).length;
  return missing <= 0 ? wire(base) : wire(base + FILLER.repeat(Math.ceil(missing / FILLER.length)).slice(0, missing));
}

function chunked(bytes: Uint8Array, t: number): BodyChunk[] {
  const out: BodyChunk[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK)
    out.push({ t: t + out.length, bytes: bytes.subarray(at, at + CHUNK) });
  return out;
}

export function bigResultsCapture(calls = 20, eventBytes = 4 * 1024 * 1024, t0 = 1_795_967_688_000): Capture {
  const head = (extra: Array<{ name: string; value: string }> = []) => [
    { name: 'content-type', value: 'application/json' },
    { name: 'accept', value: 'application/json, text/event-stream' },
    { name: 'mcp-protocol-version', value: '2025-11-25' },
    ...extra,
  ];
  const sse = [
    { name: 'content-type', value: 'text/event-stream' },
    { name: 'mcp-session-id', value: SESSION },
  ];
  const init: ConnectionRecord = {
    id: 'c1',
    source: 'fetch',
    method: 'POST',
    url: `${ORIGIN}/mcp`,
    requestHeaders: head(),
    requestBody: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'big', version: '1' } },
    }),
    startTime: t0,
    status: 200,
    statusText: 'OK',
    responseHeaders: sse,
    responseTime: t0 + 5,
    chunks: chunked(enc.encode(resultEvent(0, 0, 0)), t0 + 6),
    endTime: t0 + 7,
    end: 'complete',
  };
  const connections = [init];
  for (let call = 1; call <= calls; call++) {
    const start = t0 + 1_000 * call;
    const chunks = chunked(enc.encode(resultEvent(call, call, eventBytes)), start + 10);
    const endTime = (chunks.at(-1)?.t ?? start) + 1;
    connections.push({
      id: `c${call + 1}`,
      source: 'fetch',
      method: 'POST',
      url: `${ORIGIN}/mcp`,
      requestHeaders: head([{ name: 'mcp-session-id', value: SESSION }]),
      requestBody: JSON.stringify({
        jsonrpc: '2.0',
        id: call,
        method: 'tools/call',
        params: { name: 'fetch-document', arguments: { n: call } },
      }),
      startTime: start,
      status: 200,
      statusText: 'OK',
      responseHeaders: sse,
      responseTime: start + 5,
      chunks,
      endTime,
      end: 'complete',
    });
  }
  return {
    tool: { name: 'mcp-stream-inspector', version: 'synthetic' },
    createdAt: t0,
    page: { url: `${ORIGIN}/app` },
    connections,
  };
}
