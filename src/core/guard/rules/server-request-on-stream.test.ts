import { describe, expect, it } from 'vitest';
import { exchange, recorded, responseText, rewritten, setResponseText } from '../recorded.fixture';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'server-request-on-stream';
const ELICIT = rpc.request(0, 'elicitation/create', {
  mode: 'form',
  message: 'Sure?',
  requestedSchema: { type: 'object' },
});

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');

  it('accepts the recording: ask_user asked for input inside an input_required result', () => {
    expect(responseText(exchange(clean, 'tools/call', 'ask_user'))).toContain('"resultType":"input_required"');
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds elicitation/create injected as a request event into the stream_progress stream', () => {
    const broken = rewritten(clean, (copy) => {
      const call = exchange(copy, 'tools/call', 'stream_progress');
      const text = responseText(call);
      const cut = text.indexOf('\n\n') + 2;
      setResponseText(call, `${text.slice(0, cut)}${sseEvent(undefined, ELICIT)}${text.slice(cut)}`);
    });
    const call = exchange(broken, 'tools/call', 'stream_progress');
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [
        call.id,
        `The server sent elicitation/create (id 0) as a JSON-RPC request on the SSE response stream of tools/call on ${call.id}.`,
      ],
    ]);
  });
});

describe(RULE, () => {
  it('finds a request in a JSON response body', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'tools/call', { name: 'x' }), json: ELICIT }, undefined, '2026-07-28');
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('in the JSON response');
  });

  it('does not apply to 2025 sessions, where servers may send requests on streams', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', ELICIT)] }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
