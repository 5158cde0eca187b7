// The MCP Inspector's relay decoded: its backend's MCP exchanges become relayed sessions of what they are, byte rules
// stay silent on them, message rules speak. First the real recording (Inspector 2.12 against the lab's SDK server),
// then constructed captures for what a clean run cannot show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { parseCapture } from '../capture/format';
import { redactCapture } from '../capture/redact/capture';
import { FIXTURES_DIR } from '../fixtures-dir.fixture';
import { rpc } from '../guard/transcript';
import { rules } from '../guard/index';
import { BYTE_RULES, RELAY_RULES } from '../guard/relayed';
import { incompleteJson } from '../guard/rules/incomplete-json';
import { buildModel } from './build';
import {
  BACKEND_SESSION,
  bodyUpdate,
  fetchRequest,
  handshake,
  inSession,
  inspectorPage,
  relayedMessage,
  SERVER,
  SSE,
  UI,
} from './relay-inspector.fixture';

const methodsOf = (analysis: ReturnType<typeof analyze>) =>
  analysis.connections.map((c) => `${c.record.method} ${c.requestMessages.map((m) => m.method).join(',')}`.trim());

describe('a real recording: the Inspector 2.12 web UI connects to the lab server, lists tools, calls one', () => {
  const capture = parseCapture(readFileSync(join(FIXTURES_DIR, 'mcp-inspector.capture.json'), 'utf8'));
  const analysis = analyze(capture);

  it("shows the backend's one MCP session, relayed, at the era it negotiated", () => {
    expect(analysis.sessions).toHaveLength(1);
    const [session] = analysis.sessions;
    expect(session?.era).toBe('2025-11-25');
    expect(session?.endpoint).toBe('http://127.0.0.1:47394/mcp');
    expect(session?.relayed?.via).toBe('mcp-inspector');
    const carrier = capture.connections.find((c) => c.url.includes('/api/mcp/events'));
    expect(session?.relayed?.carrier).toBe(carrier?.id);
    expect(analysis.connections.every((c) => c.relayed?.carrier === carrier?.id)).toBe(true);
  });

  it('holds the exchanges the backend made, in order, with their statuses', () => {
    expect(methodsOf(analysis)).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'POST tools/list',
      'POST tools/call',
    ]);
    expect(analysis.connections.map((c) => c.record.status)).toEqual([200, 202, 200, 200, 200]);
    expect(analysis.connections.map((c) => c.role)).toEqual(['post', 'post', 'get', 'post', 'post']);
  });

  it("reads the POST streams' events from the bodies the backend reported: priming, progress, the answer", () => {
    const call = analysis.connections.at(-1);
    const events = [...(call?.eventIndexes ?? [])].map((i) => analysis.events.at(i));
    const kinds = events.map((e) => e?.envelopes.map((m) => m.method ?? m.kind).join(',') || 'priming');
    expect(kinds).toEqual(['priming', ...Array<string>(5).fill('notifications/progress'), 'response']);
  });

  it("keeps the envelope stream itself apart as the Inspector's, and finds no error or warning", () => {
    expect(analysis.otherStreams.filter((s) => s.kind === 'mcp-inspector')).toHaveLength(1);
    expect(analysis.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('analyzes the same after an export redacts it again: the relayed session, its exchanges and events', () => {
    const again = analyze(redactCapture(capture).capture);
    expect(methodsOf(again)).toEqual(methodsOf(analysis));
    expect(again.events.length).toBe(analysis.events.length);
    expect(again.sessions.map((s) => [s.era, s.relayed?.via])).toEqual([['2025-11-25', 'mcp-inspector']]);
    // Recorded through the exporter: the backend's session id is a mask already, and stays the same one.
    expect(again.sessions[0]?.sessionId).toBe(analysis.sessions[0]?.sessionId);
    expect(analysis.sessions[0]?.sessionId).toMatch(/^\*\*\*[0-9a-f]{33}$/);
    expect(again.findings).toEqual(analysis.findings);
  });

  it("has the UI's API token redacted in the page URL and the x-mcp-remote-auth header", () => {
    expect(capture.page?.url).toMatch(/MCP_INSPECTOR_API_TOKEN=‹redacted:[0-9a-f]{4}›$/);
    for (const c of capture.connections) {
      expect(c.url).not.toMatch(/TOKEN=(?!‹)/);
      const auth = c.requestHeaders.find((h) => h.name === 'x-mcp-remote-auth');
      expect(auth?.value).toMatch(/^Bearer ‹redacted:[0-9a-f]{4}›$/);
    }
  });
});

describe("a real recording of a fault: the lab cuts the call's POST stream mid-event, the backend resumes it", () => {
  const capture = parseCapture(readFileSync(join(FIXTURES_DIR, 'mcp-inspector-cut-mid-event.capture.json'), 'utf8'));
  const analysis = analyze(capture);
  const progressOf = (c: (typeof analysis.connections)[number] | undefined) =>
    [...(c?.eventIndexes ?? [])].map((i) =>
      analysis.events
        .at(i)
        ?.envelopes.map((m) => m.method ?? m.kind)
        .join(),
    );

  it('shows the resumption GET the backend sent, with its Last-Event-ID, in the one relayed session', () => {
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.sessions[0]?.relayed?.via).toBe('mcp-inspector');
    expect(methodsOf(analysis)).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'POST tools/list',
      'POST tools/call',
      'GET',
    ]);
    const resume = analysis.connections.at(-1);
    expect(resume?.lastEventIdSent).toMatch(/_\d+_\w+$/);
  });

  it('places what came before the cut on the POST (its body never came) and the rest on the resume', () => {
    const [call, resume] = analysis.connections.slice(-2);
    expect(call?.record.chunks.length).toBeGreaterThan(0);
    expect(progressOf(call)).toEqual(['notifications/progress', 'notifications/progress']);
    expect(progressOf(resume)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
  });

  it('links the resumption GET to the POST stream it resumes, as for direct traffic', () => {
    // The cursor is an id of the POST's stream, but the relayed POST holds no ids (its body never came): the rest of
    // the call's answer, relayed after the GET opened, says which stream the GET continued.
    const [call, resume] = analysis.connections.slice(-2);
    expect(resume?.resumes).toBe(call?.id);
    expect(resume?.streamId).toBe(call?.streamId);
    const stream = analysis.streams.find((s) => s.id === call?.streamId);
    expect(stream).toMatchObject({ kind: 'post', requestIds: [2], connectionIds: [call?.id, resume?.id] });
    // The call's stream now holds its whole answer, in order: progress 1 to 5, then the result.
    const progress = [...analysis.events]
      .filter((e) => e.streamId === stream?.id)
      .flatMap((e) => e.messages)
      .map((m) => (m.kind === 'response' ? 'result' : (m.value as { params: { progress: number } }).params.progress));
    expect(progress).toEqual([1, 2, 3, 4, 5, 'result']);
    // The standalone GET stays a stream of its own: four streams, the relayed session's connections all placed.
    expect(analysis.streams.map((s) => s.kind)).toEqual(['post', 'get', 'post', 'post']);
  });

  it('reports nothing it cannot see: the torn event never reached the page, so no byte rule speaks', () => {
    expect(analysis.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

describe('constructed relays', () => {
  it("places a message no reported body holds on the backend's GET stream", () => {
    const changed = rpc.notification('notifications/tools/list_changed');
    const analysis = analyze(inspectorPage([...handshake(), relayedMessage(changed)]));
    const get = analysis.connections.find((c) => c.role === 'get');
    const events = [...(get?.eventIndexes ?? [])].map((i) => analysis.events.at(i)?.messages[0]?.method);
    expect(events).toEqual(['notifications/tools/list_changed']);
    // The initialize result came in the relay and in the body the backend reported: it counts once.
    const init = analysis.connections[0];
    expect(init?.eventIndexes).toHaveLength(2);
    expect(analysis.findings).toEqual([]);
  });

  it('gives a POST whose body was never reported the answer the backend relayed for its request', () => {
    const call = rpc.request(1, 'tools/call', { name: 'echo', arguments: {} });
    const analysis = analyze(
      inspectorPage([
        ...handshake(),
        fetchRequest({ id: 'f4', method: 'POST', headers: inSession, body: call, responseHeaders: SSE }),
        relayedMessage(rpc.result(1, { content: [] })),
      ]),
    );
    const post = analysis.connections.at(-1);
    expect(post?.requestMessages[0]?.method).toBe('tools/call');
    expect([...(post?.eventIndexes ?? [])].map((i) => analysis.events.at(i)?.envelopes[0]?.kind)).toEqual(['response']);
    expect(post?.record.end).toBe('open');
    expect(analysis.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('runs no byte rule on relayed sessions: a torn body reported as read is not an incomplete-json error', () => {
    const call = rpc.request(1, 'tools/call', { name: 'echo', arguments: {} });
    const torn = `event: message\nid: e2\ndata: {"jsonrpc":"2.0","id":1,"res\n\n`;
    const events = [
      ...handshake(),
      fetchRequest({ id: 'f4', method: 'POST', headers: inSession, body: call, responseHeaders: SSE }),
      bodyUpdate('f4', torn),
    ];
    const capture = inspectorPage(events);
    const relayed = analyze(capture);
    expect(relayed.sessions[0]?.relayed).toBeDefined();
    expect(relayed.findings.map((f) => f.rule)).not.toContain('incomplete-json');
    // The rule itself sees the torn data: the engine drops its report because the session is relayed.
    const reports = incompleteJson.check(buildModel(capture));
    expect(reports.map((r) => r.sessionKey)).toEqual([BACKEND_SESSION]);
  });

  it('runs message rules: an answer to a request the backend never sent is unsolicited-response', () => {
    const analysis = analyze(inspectorPage([...handshake(), relayedMessage(rpc.result(41, {}))]));
    expect(analysis.findings.map((f) => f.rule)).toContain('unsolicited-response');
    expect(analysis.findings.find((f) => f.rule === 'unsolicited-response')?.sessionKey).toBe(BACKEND_SESSION);
  });

  it('turns a failed fetch into a network error of its own, and ignores what is not an envelope', () => {
    const analysis = analyze(
      inspectorPage([
        ...handshake(),
        'data: not json\n\n',
        'data: {"type":"fetch_request","data":{"url":"http://x/mcp"}}\n\n',
        fetchRequest({
          id: 'f9',
          method: 'POST',
          headers: inSession,
          body: rpc.request(2, 'ping'),
          error: 'fetch failed',
        }),
      ]),
    );
    const failed = analysis.connections.at(-1);
    expect(failed?.record.end).toBe('network-error');
    expect(failed?.record.error).toBe('fetch failed');
    expect(analysis.connections).toHaveLength(4);
  });

  it("ends the GET stream when Inspector 2.12's fetch_stream_update says it closed", () => {
    const closed = new Date(1_500).toISOString();
    const analysis = analyze(
      inspectorPage([
        ...handshake(),
        `event: fetch_stream_update\ndata: ${JSON.stringify({ type: 'fetch_stream_update', data: { id: 'f3', eventCount: 0, closedAt: closed } })}\n\n`,
      ]),
    );
    const get = analysis.connections.find((c) => c.role === 'get');
    expect(get?.record.end).toBe('complete');
    expect(analysis.sessions[0]?.endpoint).toBe(SERVER);
    expect(analysis.connections.every((c) => !c.record.url.startsWith(UI))).toBe(true);
  });
});

describe('which rules judge relayed sessions', () => {
  it('puts every rule in exactly one list: message rules run on relayed sessions, byte rules do not', () => {
    for (const { id } of rules) expect([RELAY_RULES.has(id), BYTE_RULES.has(id)], id).toSatisfy(([a, b]) => a !== b);
    expect(RELAY_RULES.size + BYTE_RULES.size).toBe(rules.length);
  });
});
