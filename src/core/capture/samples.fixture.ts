// Test fixtures (Node tests only): small hand-built captures covering every optional field.
import type { Capture } from './model';

const enc = new TextEncoder();

/** A two-connection capture: a torn POST SSE response with an error, and a GET that resumed it. */
export function sampleCapture(): Capture {
  return {
    tool: { name: 'mcp-stream-inspector', version: '0.1.0' },
    createdAt: 1795967690000.25,
    page: { url: 'http://127.0.0.1:8080/app', title: 'Demo app' },
    connections: [
      {
        id: 'p1',
        source: 'fetch',
        method: 'POST',
        url: 'http://127.0.0.1:8080/mcp?debug=1&x=a%20b',
        requestHeaders: [
          { name: 'content-type', value: 'application/json' },
          { name: 'Mcp-Session-Id', value: 'sess-1' },
        ],
        requestBody: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}',
        startTime: 1795967688303.125,
        status: 200,
        statusText: 'OK',
        responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }],
        responseTime: 1795967688311.4851,
        chunks: [
          { t: 1795967688311.6, bytes: enc.encode('id: 1\ndata: \n\n') },
          { t: 1795967688561.333, bytes: enc.encode('id: 2\ndata: {"jsonrpc":"2.0","method":"n"}\n\n') },
          { t: 1795967688812.5, bytes: enc.encode('id: 3\ndata: {"jsonr') },
        ],
        endTime: 1795967689314.743,
        end: 'network-error',
        error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING',
        documentUrl: 'http://127.0.0.1:8080/app',
      },
      {
        id: 'g2',
        source: 'fetch',
        method: 'GET',
        url: 'http://127.0.0.1:8080/mcp',
        requestHeaders: [
          { name: 'mcp-session-id', value: 'sess-1' },
          { name: 'last-event-id', value: '2' },
        ],
        startTime: 1795967689719.388,
        status: 200,
        statusText: 'OK',
        responseHeaders: [{ name: 'Content-Type', value: 'text/event-stream' }],
        responseTime: 1795967689729.303,
        // Not valid UTF-8 (a lone 0xff byte): HAR export must fall back to base64.
        chunks: [{ t: 1795967689729.423, bytes: new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a]) }],
        end: 'open',
      },
      {
        id: 'x3',
        source: 'eventsource',
        method: 'GET',
        url: 'http://127.0.0.1:8080/sse',
        requestHeaders: [],
        startTime: 1795967689800,
        chunks: [],
        endTime: 1795967689801,
        end: 'aborted',
        error: 'AbortError: The user aborted a request.',
      },
    ],
  };
}
