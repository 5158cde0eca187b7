// Secrets inside the MCP Inspector's relay reports stay out of exports: headers, URLs, bodies one escape level down and
// the backend's Mcp-Session-Id are masked in place, and the relayed sessions analyze as before.
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { parseCapture, serializeCapture } from '../capture/format';
import { exportHar } from '../capture/har-export';
import type { Capture } from '../capture/model';
import { redactCapture } from '../capture/redact/capture';
import { maskRelayLine } from '../capture/redact/relay';
import { rpc } from '../guard/transcript';
import {
  BACKEND_SESSION,
  bodyUpdate,
  fetchRequest,
  handshake,
  inspectorPage,
  relayedMessage,
  SSE,
} from './relay-inspector.fixture';

const SECRETS = {
  bearer: 'sk-live-relay-0001',
  customHeader: 'tok-relay-0002',
  cookie: 'sid=cookie-relay-0003',
  query: 'key-relay-0004',
  params: 'oauth-relay-0005',
  response: 'refresh-relay-0006',
  password: 'pw-relay-0007',
};

function planted(): Capture {
  const call = rpc.request(1, 'tools/call', {
    name: 'login',
    arguments: { password: SECRETS.password },
    _meta: { access_token: SECRETS.params },
  });
  const answer = rpc.result(1, { content: [], refresh_token: SECRETS.response });
  const headers = {
    Authorization: `Bearer ${SECRETS.bearer}`,
    'X-Auth-Token': SECRETS.customHeader,
    Cookie: SECRETS.cookie,
    'mcp-session-id': BACKEND_SESSION,
    'mcp-protocol-version': '2025-11-25',
  };
  return inspectorPage([
    ...handshake(),
    fetchRequest({
      id: 'f4',
      method: 'POST',
      url: `http://127.0.0.1:3001/mcp?api_key=${SECRETS.query}`,
      headers,
      body: call,
      responseHeaders: SSE,
    }),
    relayedMessage(answer),
    bodyUpdate('f4', `event: message\nid: e9\ndata: ${JSON.stringify(answer)}\n\n`),
  ]);
}

const bytesOf = (capture: Capture) =>
  capture.connections.flatMap((c) => c.chunks.map((k) => new TextDecoder().decode(k.bytes))).join('');

describe('secrets in relay reports', () => {
  it('are planted where the relay carries them', () => {
    const text = bytesOf(planted());
    for (const secret of Object.values(SECRETS)) expect(text).toContain(secret);
    expect(text).toContain(BACKEND_SESSION);
  });

  it('appear nowhere in an export: not in headers, URLs, bodies, nor the backend session id', () => {
    const exported = serializeCapture(planted());
    for (const secret of [...Object.values(SECRETS), BACKEND_SESSION]) expect(exported).not.toContain(secret);
    const text = bytesOf(parseCapture(exported));
    for (const secret of [...Object.values(SECRETS), BACKEND_SESSION]) expect(text).not.toContain(secret);
    const har = exportHar(planted());
    expect(har).toContain('fetch_request');
    for (const secret of [...Object.values(SECRETS), BACKEND_SESSION]) expect(har).not.toContain(secret);
  });

  it('are scrubbed from the findings written along with the export (a relayed session key is its session id)', () => {
    const capture = planted();
    const stray = inspectorPage([...handshake(), relayedMessage(rpc.result(41, {}))]);
    const both: Capture = {
      ...capture,
      connections: [...capture.connections, ...stray.connections.map((c) => ({ ...c, id: `x${c.id}` }))],
    };
    const findings = analyze(both).findings;
    expect(findings.some((f) => f.sessionKey === BACKEND_SESSION)).toBe(true);
    expect(serializeCapture(both, { findings })).not.toContain(BACKEND_SESSION);
  });

  it('keep every byte length, so the stream and the relayed sessions analyze as before', () => {
    const original = planted();
    const { capture } = redactCapture(original);
    const lengths = (c: Capture) => c.connections.map((r) => r.chunks.map((k) => k.bytes.length));
    expect(lengths(capture)).toEqual(lengths(original));
    const [before, after] = [analyze(original), analyze(capture)];
    expect(after.sessions.map((s) => [s.era, s.relayed?.via, s.connectionIds.length])).toEqual(
      before.sessions.map((s) => [s.era, s.relayed?.via, s.connectionIds.length]),
    );
    expect(after.sessions[0]?.sessionId).not.toBe(BACKEND_SESSION);
    expect(after.sessions[0]?.sessionId).toHaveLength(BACKEND_SESSION.length);
    const methods = (a: typeof before) => a.connections.map((c) => c.requestMessages.map((m) => m.method).join());
    expect(methods(after)).toEqual(methods(before));
    expect(after.findings.map((f) => f.rule)).toEqual(before.findings.map((f) => f.rule));
    expect(after.events.length).toBe(before.events.length);
  });

  it('change nothing when redacted twice', () => {
    const once = redactCapture(planted()).capture;
    const twice = redactCapture(once).capture;
    expect(bytesOf(twice)).toBe(bytesOf(once));
  });

  it('leave a line that is no whole report as it was, and mask the same secret the same way', () => {
    const torn = new TextEncoder().encode('data: {"type":"fetch_request","data":{"requestHeaders":{"x-api-key":"abcd');
    expect(maskRelayLine(torn)).toBe(torn);
    const line = (id: string) =>
      new TextEncoder().encode(
        `data: ${JSON.stringify({ type: 'fetch_request', data: { id, requestHeaders: { 'mcp-session-id': BACKEND_SESSION } } })}`,
      );
    const [a, b] = [maskRelayLine(line('a')), maskRelayLine(line('b'))].map((l) => new TextDecoder().decode(l));
    const masked = (text: string) => JSON.parse(text.slice(6)).data.requestHeaders['mcp-session-id'] as string;
    expect(masked(a ?? '')).toBe(masked(b ?? ''));
    expect(masked(a ?? '')).toMatch(/^\*\*\*[0-9a-f]+$/);
  });
});
