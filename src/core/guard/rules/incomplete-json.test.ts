import { describe, expect, it } from 'vitest';
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
    expect(findingsFor(stream(sseEvent('1', { hello: 'world' })), RULE)[0]?.message).toContain('not a JSON-RPC 2.0 message');
  });

  it('accepts empty priming events, messages and batches', () => {
    const batch = sseEvent('2', [rpc.progress(1, 1), rpc.result(1)]);
    expect(findingsFor(stream('id: 0\ndata: \n\n', sseEvent('1', rpc.progress(1, 1)), batch), RULE)).toEqual([]);
  });

  it('leaves non-message event types alone (2024-11-05 endpoint events carry a URL)', () => {
    expect(findingsFor(stream('event: endpoint\ndata: /messages?sessionId=1\n\n'), RULE)).toEqual([]);
  });
});
