import { describe, expect, it } from 'vitest';
import { rpc, session, sseEvent, Transcript } from '../guard/transcript';
import { buildModel } from './build';

describe('buildModel', () => {
  it('groups by Mcp-Session-Id in any spelling and takes the era from initialize', () => {
    const t = new Transcript();
    t.exchange({
      body: rpc.request(0, 'initialize', { protocolVersion: '2025-06-18' }),
      sse: [sseEvent('1', rpc.result(0, { protocolVersion: '2025-06-18' }))],
      responseHeaders: { 'Mcp-Session-Id': 'abc' },
    });
    t.exchange({ body: rpc.notification('notifications/initialized'), headers: { 'MCP-SESSION-ID': 'abc' } });
    t.exchange({ body: rpc.request(1, 'tools/list'), headers: { 'mcp-session-id': 'abc' }, json: rpc.result(1) });
    const model = buildModel(t.capture());
    expect(model.sessions).toHaveLength(1);
    expect(model.sessions[0]).toMatchObject({ key: 'abc', sessionId: 'abc', era: '2025-06-18', idScheme: 'integer' });
    expect(model.connections.map((c) => c.role)).toEqual(['post', 'post', 'post']);
    expect(model.connections[2]?.responseMessages).toMatchObject([{ kind: 'response', id: 1 }]);
  });

  it('groups a 2024-11-05 HTTP+SSE session by the endpoint its stream announced', () => {
    const t = new Transcript();
    t.exchange({
      url: 'http://127.0.0.1:3000/sse',
      sse: ['event: endpoint\ndata: /messages?sessionId=42\n\n', sseEvent(undefined, rpc.result(1))],
      end: 'open',
    });
    t.exchange({ url: 'http://127.0.0.1:3000/messages?sessionId=42', body: rpc.request(1, 'tools/list') });
    const model = buildModel(t.capture());
    expect(model.sessions).toHaveLength(1);
    expect(model.sessions[0]?.era).toBe('2024-11-05');
    expect(model.connections.map((c) => c.role)).toEqual(['legacy-sse', 'legacy-post']);
    expect(model.streams[0]?.kind).toBe('legacy');
  });

  it('groups stateless exchanges per endpoint and reads the era from MCP-Protocol-Version', () => {
    const t = new Transcript();
    t.exchange(
      { body: rpc.request(1, 'tools/call'), sse: [sseEvent(undefined, rpc.result(1))] },
      undefined,
      '2026-07-28',
    );
    t.exchange(
      { body: rpc.request(2, 'tools/call'), sse: [sseEvent(undefined, rpc.result(2))] },
      undefined,
      '2026-07-28',
    );
    const model = buildModel(t.capture());
    expect(model.sessions).toHaveLength(1);
    expect(model.sessions[0]).toMatchObject({ era: '2026-07-28', idScheme: 'none' });
    expect(model.streams.map((s) => s.requestIds)).toEqual([[1], [2]]);
  });

  it('keeps 2026-07-28 requests (by their _meta) in their stateless group whatever Mcp-Session-Id they or their answers carry', () => {
    // The Python SDK 2.3.0 server mints a session id on its 400 to a request whose version header says 2025.
    const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'server/discover', meta), json: rpc.result(1) }, undefined, '2026-07-28');
    t.exchange(
      {
        body: rpc.request(2, 'tools/call', meta),
        status: 400,
        json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: Missing session ID' } },
        responseHeaders: { 'Mcp-Session-Id': 'minted' },
      },
      undefined,
      '2025-11-25',
    );
    // A 2026-07-28 request that sends a session id itself stays in the group too: that era has no sessions.
    t.exchange(
      { body: rpc.request(3, 'tools/call', meta), json: rpc.result(3), headers: { 'Mcp-Session-Id': 'minted' } },
      undefined,
      '2026-07-28',
    );
    const model = buildModel(t.capture());
    expect(model.sessions.map((s) => [s.era, s.sessionId])).toEqual([['2026-07-28', undefined]]);
    expect(new Set(model.connections.map((c) => c.sessionKey))).toEqual(new Set([model.sessions[0]?.key]));
  });

  it('keeps a 2025 session whole when one of its requests sends a 2026-07-28 header without the _meta', () => {
    const t = new Transcript();
    const s = session(t, 'S');
    s({ body: rpc.request(0, 'initialize', { protocolVersion: '2025-11-25' }), json: rpc.result(0) });
    t.exchange({ body: rpc.request(1, 'tools/list'), json: rpc.result(1) }, 'S', '2026-07-28');
    const model = buildModel(t.capture());
    expect(model.sessions.map((x) => [x.key, x.era])).toEqual([['S', '2025-11-25']]);
  });

  it('joins a resumption GET to the stream that delivered its Last-Event-ID, even a GET stream', () => {
    const t = new Transcript();
    const s = session(t, 'S');
    s({ sse: [sseEvent('g1', rpc.notification('notifications/message'))], end: 'network-error' });
    s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('p1', rpc.result(1))] });
    s({ headers: { 'last-event-id': 'g1' }, sse: [sseEvent('g2', rpc.notification('notifications/message'))] });
    const model = buildModel(t.capture());
    expect(model.streams.map((s) => [s.kind, s.connectionIds])).toEqual([
      ['get', ['c1', 'c3']],
      ['post', ['c2']],
    ]);
    expect(model.connections[2]?.resumes).toBe('c1');
  });

  it('keeps events in time order with their messages and parse errors', () => {
    const t = new Transcript();
    session(
      t,
      'S',
    )({
      body: rpc.request(1, 'tools/call'),
      sse: ['id: 1\ndata: \n\n', sseEvent('2', rpc.progress(1, 1)), 'id: 3\ndata: {"jsonrpc"\n\n'],
    });
    const model = buildModel(t.capture());
    expect(
      [...model.events].map((e) => [e.index, e.lastEventId, e.messages.length, e.parseError !== undefined]),
    ).toEqual([
      [0, '1', 0, false],
      [1, '2', 1, false],
      [2, '3', 0, true],
    ]);
    expect([...(model.connections[0]?.eventIndexes ?? [])]).toEqual([0, 1, 2]);
  });

  it('leaves traffic that is not MCP out of the model', () => {
    const t = new Transcript();
    t.exchange({ url: 'http://127.0.0.1:3000/app.js' });
    expect(buildModel(t.capture()).sessions).toEqual([]);
  });
});

describe('buildModel: cursors that no dispatched event carried', () => {
  it('links a resume to the stream whose id-only block set its Last-Event-ID', () => {
    const t = new Transcript();
    const s = session(t, 'S');
    s({
      sse: [sseEvent('1', rpc.notification('notifications/message')), 'id: 2\nretry: 500\n\n'],
      end: 'network-error',
    });
    s({ headers: { 'last-event-id': '2' }, sse: [sseEvent('3', rpc.notification('notifications/message'))] });
    const model = buildModel(t.capture());
    expect(model.streams.map((st) => st.connectionIds)).toEqual([['c1', 'c2']]);
    expect(model.connections[1]?.resumes).toBe('c1');
  });
});

describe('buildModel: sessions without Mcp-Session-Id', () => {
  it('starts a new session at each initialize, so two client instances do not mix their request ids', () => {
    const t = new Transcript();
    for (let instance = 0; instance < 2; instance += 1) {
      t.exchange({
        body: rpc.request(0, 'initialize', { protocolVersion: '2025-06-18' }),
        json: rpc.result(0, { protocolVersion: '2025-06-18' }),
      });
      t.exchange({ body: rpc.request(1, 'tools/list'), sse: [sseEvent(undefined, rpc.result(1))] });
    }
    const model = buildModel(t.capture());
    expect(model.sessions.map((s) => [s.key.replace(/^.*#/, '#'), s.connectionIds])).toEqual([
      ['#no-session', ['c1', 'c2']],
      ['#no-session-2', ['c3', 'c4']],
    ]);
  });
});
