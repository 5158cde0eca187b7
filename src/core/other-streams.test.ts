// SSE that is not MCP (LLM completions, the MCP Inspector's own backend stream) is set apart as "other streams":
// never a session, never a finding. Each ambiguous reading of docs/traffic-classification.md is pinned here.
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { importRawStream } from './capture/raw';
import { rpc, sseEvent, Transcript } from './guard/transcript';
import { otherStreamEvents } from './model/other-streams';
import {
  aiChatCapture,
  ANTHROPIC_URL,
  INSPECTOR_EVENTS_URL,
  inspectorCapture,
  MCP_URL,
  OPENAI_URL,
  openAiStream,
} from './model/other-streams.fixture';

const encoder = new TextEncoder();

describe('an AI chat page: an MCP session beside OpenAI- and Anthropic-style completion streams', () => {
  const analysis = analyze(aiChatCapture());

  it('has one MCP session, no session without an id, and no finding', () => {
    expect(analysis.sessions.map((s) => s.sessionId ?? '(none)')).toEqual(['2f0b8c1e-6d4a-4b7e-9c3f-5a1d0e8b7c6f']);
    expect(analysis.findings).toEqual([]);
    expect(analysis.connections.map((c) => c.record.url)).toEqual([MCP_URL, MCP_URL, MCP_URL]);
    expect([...analysis.events].every((e) => e.sessionKey === analysis.sessions[0]?.key)).toBe(true);
  });

  it('lists the completion streams apart, with their URL, event count and why they are not MCP', () => {
    expect(analysis.otherStreams.map((s) => [s.url, s.method, s.status, s.events, s.kind])).toEqual([
      [OPENAI_URL, 'POST', 200, 6, 'openai-chat'],
      [ANTHROPIC_URL, 'POST', 200, 8, 'anthropic-messages'],
    ]);
    expect(analysis.otherStreams[0]?.reason).toContain('not JSON-RPC');
    expect(analysis.otherStreams[0]?.connectionId).toBe('c4');
  });

  it("reads an other stream's events back from its record, for a view that shows them", () => {
    const events = otherStreamEvents(analysis.otherStreams[1]!.record);
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(otherStreamEvents(analysis.otherStreams[0]!.record).at(-1)?.data).toBe('[DONE]');
  });

  it('says why each MCP exchange is MCP', () => {
    expect(analysis.connections.map((c) => c.mcpEvidence)).toEqual([
      'Mcp-Session-Id response header',
      'Mcp-Session-Id request header',
      'Mcp-Session-Id request header',
    ]);
  });
});

describe('the MCP Inspector 2.x web UI talking to its own backend', () => {
  const analysis = analyze(inspectorCapture());

  it('gives no session and no finding: its envelopes are not JSON-RPC, x-mcp-remote-auth is not an MCP header', () => {
    expect(analysis.sessions).toEqual([]);
    expect(analysis.findings).toEqual([]);
    expect(analysis.connections).toEqual([]);
  });

  it('lists both events streams (the reconnect too) as other streams of the Inspector', () => {
    expect(analysis.otherStreams.map((s) => [s.url, s.events, s.kind])).toEqual([
      [INSPECTOR_EVENTS_URL, 7, 'mcp-inspector'],
      [INSPECTOR_EVENTS_URL, 1, 'mcp-inspector'],
    ]);
  });
});

describe('ambiguous signals, read as docs/traffic-classification.md says', () => {
  const sse = (t: Transcript, url: string, pieces: string[], headers: Record<string, string> = {}) =>
    t.exchange({ url, headers, sse: pieces });

  it('JSON-RPC 2.0 answers on a stream without any MCP header: MCP (a sessionless session)', () => {
    const t = new Transcript();
    sse(t, 'http://127.0.0.1:3000/rpc', [sseEvent('1', rpc.result(1, {}))]);
    const analysis = analyze(t.capture());
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.otherStreams).toEqual([]);
    expect(analysis.connections[0]?.mcpEvidence).toBe('JSON-RPC 2.0 message in the SSE events');
  });

  it('JSON-RPC 2.0 whose methods are none of MCP, without an MCP header: not MCP (an Ethereum node)', () => {
    const t = new Transcript();
    t.exchange({
      url: 'http://127.0.0.1:8545/',
      body: rpc.request(1, 'eth_subscribe', ['newHeads']),
      sse: [sseEvent(undefined, rpc.notification('eth_subscription', { result: {} }))],
    });
    t.exchange({ url: 'http://127.0.0.1:8545/', body: rpc.request(2, 'eth_blockNumber'), json: rpc.result(2, '0x1') });
    const analysis = analyze(t.capture());
    expect(analysis.sessions).toEqual([]);
    expect(analysis.findings).toEqual([]);
    expect(analysis.otherStreams.map((s) => s.reason)).toEqual(['JSON-RPC 2.0 without an MCP method (eth_subscribe)']);
  });

  it('the same traffic with an Mcp-Session-Id header: MCP (a header outweighs method names)', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'x/custom'), sse: [sseEvent('1', rpc.result(1))] }, 'S1');
    expect(analyze(t.capture()).sessions.map((s) => s.sessionId)).toEqual(['S1']);
  });

  it('an MCP method on a stream without headers: MCP, and its broken events are still judged', () => {
    const t = new Transcript();
    sse(t, 'http://127.0.0.1:3000/mcp', [sseEvent('1', rpc.progress(1, 1)), 'id: 2\ndata: [DONE]\n\n']);
    const analysis = analyze(t.capture());
    expect(analysis.connections[0]?.mcpEvidence).toBe('MCP method notifications/progress in the SSE events');
    expect(analysis.findings.map((f) => f.rule)).toEqual(['incomplete-json']);
  });

  it('a stream with no events and no MCP header: MCP only at an endpoint that carried MCP', () => {
    const t = new Transcript();
    t.exchange({ url: MCP_URL, body: rpc.request(0, 'initialize'), json: rpc.result(0, {}) });
    sse(t, MCP_URL, [': keep-alive\n\n']);
    sse(t, 'http://127.0.0.1:5173/api/notifications', [': keep-alive\n\n']);
    const analysis = analyze(t.capture());
    expect(analysis.connections.map((c) => [c.id, c.mcpEvidence])).toEqual([
      ['c1', 'MCP method initialize in the request body'],
      ['c2', `the endpoint of MCP exchange c1 (${MCP_URL})`],
    ]);
    expect(analysis.otherStreams.map((s) => [s.connectionId, s.reason])).toEqual([
      ['c3', 'no MCP header, no JSON-RPC and no endpoint event'],
    ]);
  });

  it('a raw `curl -N` file with nothing either way (priming only): MCP, the file was given as MCP', () => {
    const analysis = analyze(importRawStream(encoder.encode('id: 1\ndata: \n\n'), 'primed.sse'));
    expect(analysis.sessions).toHaveLength(1);
    expect(analysis.connections[0]?.mcpEvidence).toBe('a raw event-stream file with nothing against MCP');
  });

  it('a raw file of an OpenAI stream: another stream, no finding', () => {
    const analysis = analyze(importRawStream(encoder.encode(openAiStream().join('')), 'chat.sse'));
    expect(analysis.sessions).toEqual([]);
    expect(analysis.findings).toEqual([]);
    expect(analysis.otherStreams.map((s) => s.kind)).toEqual(['openai-chat']);
  });

  it('a raw file whose one event is torn JSON-RPC: MCP, and incomplete-json says so', () => {
    const torn = 'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}\n\n';
    const analysis = analyze(importRawStream(encoder.encode(torn), 'broken.sse'));
    expect(analysis.findings.map((f) => f.rule)).toEqual(['incomplete-json']);
    expect(analysis.connections[0]?.mcpEvidence).toBe('JSON-RPC 2.0 text (torn) in the SSE events');
  });

  it('the 2024-11-05 endpoint event makes a GET stream MCP without any header', () => {
    const t = new Transcript();
    sse(t, 'http://127.0.0.1:3000/sse', ['event: endpoint\ndata: /messages?sessionId=1\n\n']);
    const analysis = analyze(t.capture());
    expect(analysis.sessions.map((s) => s.era)).toEqual(['2024-11-05']);
    expect(analysis.connections[0]?.mcpEvidence).toBe('2024-11-05 endpoint event');
  });
});
