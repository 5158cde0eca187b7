// Test fixture (pure, any runtime): pages that stream SSE that is not MCP beside a real MCP session: an AI chat
// app's LLM completions (OpenAI and Anthropic wire shapes, as their streaming APIs send them) and the MCP
// Inspector 2.x web UI talking to its own backend. Built with the rule tests' transcript helper.
import { rpc, sseEvent, Transcript } from '../guard/transcript';
import type { Capture } from '../capture/model';

export const PAGE = 'http://127.0.0.1:5173';
export const MCP_URL = `${PAGE}/mcp`;
export const OPENAI_URL = `${PAGE}/api/openai/v1/chat/completions`;
export const ANTHROPIC_URL = `${PAGE}/api/anthropic/v1/messages`;
export const INSPECTOR_EVENTS_URL = 'http://localhost:6274/api/mcp/events?sessionId=ui-7f3a';

const SESSION = '2f0b8c1e-6d4a-4b7e-9c3f-5a1d0e8b7c6f';

/** `data:` only, no event type (an OpenAI-style stream). */
const dataOnly = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function openAiChunk(delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: 'chatcmpl-B9x2Kq7',
    object: 'chat.completion.chunk',
    created: 1795967688,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_0ba0d124f1',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

/** The events of an OpenAI chat completion stream: role, three content deltas, the stop chunk, `[DONE]`. */
export function openAiStream(): string[] {
  return [
    dataOnly(openAiChunk({ role: 'assistant', content: '', refusal: null })),
    dataOnly(openAiChunk({ content: 'The' })) + dataOnly(openAiChunk({ content: ' weather' })),
    dataOnly(openAiChunk({ content: ' is fine.' })),
    dataOnly(openAiChunk({}, 'stop')),
    dataOnly('[DONE]'),
  ];
}

/** The events of an Anthropic Messages stream, each typed by `event:`. */
export function anthropicStream(): string[] {
  const typed = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    typed('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-sonnet-4-5',
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    }),
    typed('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    typed('ping', { type: 'ping' }),
    typed('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Hello' },
    }),
    typed('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '!' } }),
    typed('content_block_stop', { type: 'content_block_stop', index: 0 }),
    typed('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 15 },
    }),
    typed('message_stop', { type: 'message_stop' }),
  ];
}

/**
 * An `/api/mcp/events` stream of `{"type": ..., "data": ...}` envelopes (default `message` events, no ids) whose
 * reports are not the Inspector's fetch tracker entries (no `id`, no `timestamp`): nothing in it is decoded as a
 * relayed exchange, so it shows the stream kept apart on its own. The real format is in relay-inspector.fixture.ts.
 */
export function inspectorStream(): string[] {
  const envelope = (type: string, data: unknown) => dataOnly({ type, data });
  const server = 'http://127.0.0.1:3001/mcp';
  return [
    envelope('connected', { sessionId: 'ui-7f3a' }),
    envelope('fetch_request', {
      url: server,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(rpc.request(0, 'initialize', { protocolVersion: '2025-11-25' })),
    }),
    envelope('fetch_response', {
      status: 200,
      headers: { 'mcp-session-id': 'f00d', 'content-type': 'text/event-stream' },
    }),
    envelope('message', rpc.result(0, { protocolVersion: '2025-11-25', capabilities: { tools: {} } })),
    envelope('message', rpc.notification('notifications/initialized')),
    envelope('message', rpc.request(1, 'tools/list')),
    envelope('message', rpc.result(1, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] })),
    ': keep-alive\n\n',
  ];
}

/** The page's own MCP session (2025-11-25, one server-issued session), on the transcript `t`. */
export function addMcpSession(t: Transcript): void {
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  t.exchange({
    url: MCP_URL,
    headers: json,
    body: rpc.request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    sse: [sseEvent('0', rpc.result(0, { protocolVersion: '2025-11-25', capabilities: { tools: {} } }))],
    responseHeaders: { 'mcp-session-id': SESSION },
  });
  t.exchange(
    { url: MCP_URL, headers: json, body: rpc.notification('notifications/initialized') },
    SESSION,
    '2025-11-25',
  );
  t.exchange(
    {
      url: MCP_URL,
      headers: json,
      body: rpc.request(1, 'tools/call', { name: 'weather', arguments: { city: 'Oslo' } }),
      sse: ['id: 1\ndata: \n\n', sseEvent('2', rpc.progress(1, 1)), sseEvent('3', rpc.result(1, { content: [] }))],
    },
    SESSION,
    '2025-11-25',
  );
}

/** An AI chat page: its MCP session, an OpenAI-style and an Anthropic-style completion stream between its calls. */
export function aiChatCapture(): Capture {
  const t = new Transcript(PAGE);
  addMcpSession(t);
  const ask = { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'weather in Oslo?' }] };
  t.exchange({
    method: 'POST',
    url: OPENAI_URL,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: ask,
    sse: openAiStream(),
    responseHeaders: { 'openai-processing-ms': '212', 'x-request-id': 'req_9f2c' },
  });
  t.exchange({
    method: 'POST',
    url: ANTHROPIC_URL,
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
    body: { model: 'claude-sonnet-4-5', max_tokens: 256, stream: true, messages: ask.messages },
    sse: anthropicStream(),
    responseHeaders: { 'request-id': 'req_011CV' },
  });
  return t.capture();
}

/**
 * The MCP Inspector 2.x web UI: its SSE from the backend (whose events wrap JSON-RPC), the calls it posts to its
 * backend (JSON that is not JSON-RPC, with an `x-mcp-remote-auth` header that is not an MCP header), and an
 * EventSource reconnect of the events stream with `Last-Event-ID` (no MCP session id: the browser's hop has none).
 */
export function inspectorCapture(): Capture {
  const t = new Transcript('http://localhost:6274');
  const auth = { 'x-mcp-remote-auth': 'Bearer 3c1f9e', 'content-type': 'application/json' };
  t.exchange({
    method: 'POST',
    url: 'http://localhost:6274/api/mcp/connect',
    headers: auth,
    body: { serverUrl: 'http://127.0.0.1:3001/mcp', transportType: 'streamable-http' },
    json: { sessionId: 'ui-7f3a' },
  });
  t.exchange({ url: INSPECTOR_EVENTS_URL, headers: { 'x-mcp-remote-auth': 'Bearer 3c1f9e' }, sse: inspectorStream() });
  t.exchange({
    method: 'POST',
    url: 'http://localhost:6274/api/mcp/send',
    headers: auth,
    body: { sessionId: 'ui-7f3a', message: rpc.request(2, 'tools/call', { name: 'echo', arguments: {} }) },
    json: { ok: true },
  });
  t.exchange({
    url: INSPECTOR_EVENTS_URL,
    headers: { 'x-mcp-remote-auth': 'Bearer 3c1f9e', 'last-event-id': '' },
    sse: [dataOnly({ type: 'message', data: rpc.result(2, { content: [{ type: 'text', text: 'hi' }] }) })],
    end: 'open',
  });
  return t.capture();
}
