import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'incomplete-json';

function stream(...pieces: string[]) {
  const t = new Transcript();
  session(t, 'S1')({ body: rpc.request(1, 'tools/call'), sse: pieces });
  return t.capture();
}

describe(RULE, () => {
  it('reports a torn prefix glued to a replay (two JSON texts in one event)', () => {
    const glued = `id: 3\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"abc\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`;
    const findings = findingsFor(stream(glued), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', eventId: '3', byteOffset: 0 });
    expect(findings[0]?.message).toContain('not complete JSON');
  });

  it('reports JSON that is not a JSON-RPC message', () => {
    expect(findingsFor(stream(sseEvent('1', { hello: 'world' })), RULE)[0]?.message).toContain(
      'not a JSON-RPC 2.0 message',
    );
  });

  it('accepts empty priming events, messages and batches', () => {
    const batch = sseEvent('2', [rpc.progress(1, 1), rpc.result(1)]);
    expect(findingsFor(stream('id: 0\ndata: \n\n', sseEvent('1', rpc.progress(1, 1)), batch), RULE)).toEqual([]);
  });

  it('leaves non-message event types alone (2024-11-05 endpoint events carry a URL)', () => {
    expect(findingsFor(stream('event: endpoint\ndata: /messages?sessionId=1\n\n'), RULE)).toEqual([]);
  });
});

describe(`${RULE}: the MCP SDK replaying a priming event as {}`, () => {
  it('gives one warning, and no duplicate or restart findings', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({
      body: rpc.request(1, 'tools/call'),
      sse: ['id: a_1795967688308_aaaaaaaa\ndata: \n\n', sseEvent('a_1795967688308_bbbbbbbb', rpc.progress(1, 1))],
      end: 'network-error',
    });
    s({
      headers: { 'last-event-id': 'a_1795967688308_bbbbbbbb' },
      sse: ['id: a_1795967688308_aaaaaaaa\ndata: {}\n\n', sseEvent('a_1795967688400_cccccccc', rpc.result(1))],
    });
    const findings = analyze(t.capture()).findings;
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([[RULE, 'warning']]);
    expect(findings[0]?.message).toContain('priming event');
  });
});
