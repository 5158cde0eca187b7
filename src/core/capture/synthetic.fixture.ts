// Tests, benchmarks and dev scripts (pure, any runtime): a large synthetic capture for performance checks: one
// 2025-11-25 session, a tools/call POST stream carrying `events` progress notifications in 64-event chunks, cut
// mid-event and resumed with Last-Event-ID (replayed from the event boundary, as the SDK's store does), plus the
// initialize exchange. Event ids are the event numbers, or what `idOf` makes of them (sdkStyleId: the MCP SDK
// example store's `<stream>_<ms>_<random>`).
import type { BodyChunk, Capture, ConnectionRecord } from './model';

const enc = new TextEncoder();
const SESSION = 'synthetic-0000-4000-8000-000000000001';
const ORIGIN = 'http://127.0.0.1:8080';

/** The MCP SDK example event store's id for event n: `<stream id>_<ms>_<random base 36>`. */
export const sdkStyleId = (n: number): string =>
  `5f0c7a3e-1b2d-4c8e-9a6f-0d3b2e1c4a5b_${1_795_967_688_000 + Math.floor(n / 5)}_${((n * 2_654_435_761) % 2 ** 32).toString(36).slice(0, 8)}`;

export function syntheticCapture(
  events: number,
  t0 = 1_795_967_688_000,
  idOf: (n: number) => string = String,
): Capture {
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
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'synthetic', version: '1' } },
    }),
    startTime: t0,
    status: 200,
    statusText: 'OK',
    responseHeaders: sse,
    responseTime: t0 + 5,
    chunks: [
      {
        t: t0 + 6,
        bytes: enc.encode(
          `id: 0\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'synthetic', version: '1' } } })}\n\n`,
        ),
      },
    ],
    endTime: t0 + 7,
    end: 'complete',
  };
  const event = (n: number) =>
    `id: ${idOf(n)}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: n, total: events } })}\n\n`;
  const perEvent = 0.2; // ms between events: 100k events span 20 s
  const callStart = t0 + 20;
  /** Events from..to (inclusive) in 64-event chunks, the first arriving at `at`. */
  const chunked = (from: number, to: number, at: number): BodyChunk[] => {
    const out: BodyChunk[] = [];
    for (let n = from; n <= to; n += 64) {
      const last = Math.min(to, n + 63);
      let text = '';
      for (let k = n; k <= last; k++) text += event(k);
      out.push({ t: at + (last - from) * perEvent, bytes: enc.encode(text) });
    }
    return out;
  };
  // The connection dies 30 bytes into the event after the last 64-event chunk before 60% of the stream.
  const resumeFrom = Math.floor((events * 0.6) / 64) * 64;
  const first = chunked(1, resumeFrom, callStart + 10);
  const cutTime = callStart + 10 + resumeFrom * perEvent;
  first.push({ t: cutTime, bytes: enc.encode(event(resumeFrom + 1).slice(0, 30)) });
  const resumeStart = cutTime + 150;
  // The server replays from the event boundary: the torn event again, whole, with its id, then the rest.
  const resumedChunks = chunked(resumeFrom + 1, events, resumeStart + 10);
  const resultTime = (resumedChunks[resumedChunks.length - 1]?.t ?? resumeStart) + 5;
  resumedChunks.push({
    t: resultTime,
    bytes: enc.encode(
      `id: ${idOf(events + 1)}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`,
    ),
  });
  const call: ConnectionRecord = {
    id: 'c2',
    source: 'fetch',
    method: 'POST',
    url: `${ORIGIN}/mcp`,
    requestHeaders: head([{ name: 'mcp-session-id', value: SESSION }]),
    requestBody: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'count', arguments: { n: events }, _meta: { progressToken: 7 } },
    }),
    startTime: callStart,
    status: 200,
    statusText: 'OK',
    responseHeaders: sse,
    responseTime: callStart + 5,
    chunks: first,
    endTime: cutTime + 1,
    end: 'network-error',
    error: 'net::ERR_CONNECTION_RESET',
  };
  const resume: ConnectionRecord = {
    id: 'c3',
    source: 'fetch',
    method: 'GET',
    url: `${ORIGIN}/mcp`,
    requestHeaders: [
      { name: 'accept', value: 'text/event-stream' },
      { name: 'mcp-session-id', value: SESSION },
      { name: 'mcp-protocol-version', value: '2025-11-25' },
      { name: 'last-event-id', value: idOf(resumeFrom) },
    ],
    startTime: resumeStart,
    status: 200,
    statusText: 'OK',
    responseHeaders: sse,
    responseTime: resumeStart + 5,
    chunks: resumedChunks,
    endTime: resultTime + 1,
    end: 'complete',
  };
  return {
    tool: { name: 'mcp-stream-inspector', version: 'synthetic' },
    createdAt: t0,
    page: { url: `${ORIGIN}/app` },
    connections: [init, call, resume],
  };
}
