// Test fixture (pure, any runtime). CONSTRUCTED, not recorded: captures of the MCP Inspector's web UI built from the
// documented envelope format (modelcontextprotocol/inspector core/mcp/remote/types.ts, the fetch tracker's entry in
// core/mcp/fetchTracking.ts, `fetch_stream_update` of 2.12), for the cases a clean real run cannot show: a torn body,
// an answer whose body report never came, a GET stream's messages, planted secrets. The real recording is
// fixtures/mcp-inspector.capture.json (e2e/lab/inspector/record.ts).
import type { Capture } from '../capture/model';
import { rpc, Transcript } from '../guard/transcript';

export const UI = 'http://127.0.0.1:6274';
export const SERVER = 'http://127.0.0.1:3001/mcp';
export const BACKEND_SESSION = '7a4e2c10-93b1-4f0e-8d2a-61c5e0f9b3d7';

/** One envelope event as the backend writes it: `event: <type>` and the whole envelope as JSON in `data:`. */
export const envelope = (type: string, data: unknown): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, data })}\n\n`;

interface Fetch {
  id: string;
  method: string;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
  responseHeaders?: Record<string, string>;
  url?: string;
  error?: string;
}

/** A `fetch_request` report: the tracker's entry with its ISO timestamp. */
export function fetchRequest(f: Fetch, at = 1_000): string {
  const data: Record<string, unknown> = {
    id: f.id,
    timestamp: new Date(at).toISOString(),
    method: f.method,
    url: f.url ?? SERVER,
    requestHeaders: f.headers ?? {},
    duration: 3,
  };
  if (f.body !== undefined) data.requestBody = JSON.stringify(f.body);
  if (f.error !== undefined) data.error = f.error;
  else {
    data.responseStatus = f.status ?? 200;
    data.responseStatusText = 'OK';
    data.responseHeaders = f.responseHeaders ?? {};
  }
  return envelope('fetch_request', data);
}

export const bodyUpdate = (id: string, responseBody: string): string =>
  envelope('fetch_request_body_update', { id, responseBody });
export const relayedMessage = (message: unknown): string => envelope('message', message);

const SSE = { 'content-type': 'text/event-stream' };
const inSession = { 'mcp-session-id': BACKEND_SESSION, 'mcp-protocol-version': '2025-11-25' };

/** The backend's handshake, reported: initialize (SSE answer), initialized (202), the GET stream. */
export function handshake(): string[] {
  const init = rpc.request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
  const result = rpc.result(0, { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } } });
  return [
    ': \n\n',
    fetchRequest({
      id: 'f1',
      method: 'POST',
      body: init,
      responseHeaders: { ...SSE, 'mcp-session-id': BACKEND_SESSION },
    }),
    relayedMessage(result),
    bodyUpdate('f1', `id: p1\ndata: \n\nevent: message\nid: e1\ndata: ${JSON.stringify(result)}\n\n`),
    fetchRequest({
      id: 'f2',
      method: 'POST',
      headers: inSession,
      body: rpc.notification('notifications/initialized'),
      status: 202,
    }),
    bodyUpdate('f2', ''),
    fetchRequest({
      id: 'f3',
      method: 'GET',
      headers: { ...inSession, accept: 'text/event-stream' },
      responseHeaders: SSE,
    }),
  ];
}

/** The UI's page: its `/api/mcp/events` stream carrying `events`, and the posts it sends its backend. */
export function inspectorPage(events: string[], sends: unknown[] = []): Capture {
  const t = new Transcript(UI);
  const auth = { 'x-mcp-remote-auth': 'Bearer 5f0c1d2e3a4b', 'content-type': 'application/json' };
  t.exchange({ method: 'POST', url: `${UI}/api/mcp/connect`, headers: auth, body: {}, json: { sessionId: 'ui-1' } });
  t.exchange({ url: `${UI}/api/mcp/events?sessionId=ui-1`, headers: auth, sse: events, end: 'open' });
  for (const message of sends)
    t.exchange({
      method: 'POST',
      url: `${UI}/api/mcp/send`,
      headers: auth,
      body: { sessionId: 'ui-1', message },
      json: { ok: true },
    });
  return t.capture();
}

export { inSession, SSE };
