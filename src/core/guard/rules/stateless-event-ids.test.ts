import { describe, expect, it } from 'vitest';
import { exchange, recorded, responseText, rewritten, setResponseText } from '../recorded.fixture';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'stateless-event-ids';

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');
  const progressWith = (edit: (text: string) => string) =>
    rewritten(clean, (copy) => {
      const call = exchange(copy, 'tools/call', 'stream_progress');
      setResponseText(call, edit(responseText(call)));
    });

  it('accepts the recording: progress events without ids, no retry', () => {
    const text = responseText(exchange(clean, 'tools/call', 'stream_progress'));
    expect(text).not.toMatch(/^(id|retry):/m);
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds ids given to the events, as a 2025 event store would', () => {
    let n = 0;
    const broken = progressWith((text) => text.replace(/^event: message\n/gm, () => `event: message\nid: ${++n}\n`));
    const call = exchange(broken, 'tools/call', 'stream_progress');
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.eventId, f.message])).toEqual([
      [call.id, '1', `6 event(s) on ${call.id} carry SSE id or retry fields (first: id: 1).`],
    ]);
  });

  it('finds a retry field', () => {
    const broken = progressWith((text) => `retry: 1000\n${text}`);
    expect(findingsFor(broken, RULE)[0]?.message).toContain('(first: retry: 1000)');
  });
});

describe(RULE, () => {
  it('does not apply to 2025 sessions, whose ids are how they resume', () => {
    const t = new Transcript();
    t.exchange({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.result(1))] }, 'S1', '2025-11-25');
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('reports once per stream', () => {
    const t = new Transcript();
    t.exchange(
      { body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.progress(1, 1)), sseEvent('2', rpc.result(1))] },
      undefined,
      '2026-07-28',
    );
    expect(findingsFor(t.capture(), RULE)).toHaveLength(1);
  });
});
