import { describe, expect, it } from 'vitest';
import { exchange, recorded, responseText } from '../recorded.fixture';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'resume-after-answer';
const PRIMING = 'id: p0\nretry: 150\ndata: \n\n';

function answeredThenResumed(answer: unknown, resume: { sse?: string[]; end?: 'open' | 'complete' } = {}) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: [PRIMING, sseEvent('p1', answer)] });
  s({ headers: { 'last-event-id': 'p1' }, sse: resume.sse ?? [': keep-alive\n\n'], end: resume.end ?? 'open' });
  return t.capture();
}

describe(RULE, () => {
  it('reports a resume of a stream that ended with a JSON-RPC error (SDK 1.32 counts only a success)', () => {
    const findings = findingsFor(answeredThenResumed(rpc.error(1, -32042, 'URL elicitation required')), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', connectionId: 'c2', streamId: 's1' });
    expect(findings[0]?.message).toBe(
      'c2 resumed stream s1 (request 1) with Last-Event-ID p1 after the stream had delivered a JSON-RPC error -32042 (event p1); the server answered 200 with no event, and the GET stayed open.',
    );
  });

  it('reports a resume after a result too', () => {
    const [finding] = findingsFor(answeredThenResumed(rpc.result(1), { end: 'complete' }), RULE);
    expect(finding?.message).toContain('after the stream had delivered its result (event p1); the server answered 200');
  });

  it('stays quiet on a resume of a stream whose answer had not come yet', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [PRIMING, sseEvent('p1', rpc.progress(1, 1))], end: 'network-error' });
    s({ headers: { 'last-event-id': 'p1' }, sse: [sseEvent('p2', rpc.result(1))] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('stays quiet on a resume of the standalone GET stream', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('g1', rpc.notification('notifications/message'))], end: 'network-error' });
    s({ headers: { 'last-event-id': 'g1' }, sse: [': keep-alive\n\n'], end: 'open' });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: resumed again and again`, () => {
  it('reports the stream once, at its first needless resume, with the count', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/call'), sse: [PRIMING, sseEvent('p1', rpc.error(1))] });
    for (let i = 0; i < 3; i++) s({ headers: { 'last-event-id': 'p1' }, sse: [': keep-alive\n\n'] });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.connectionId).toBe('c2');
    expect(findings[0]?.message).toContain('It resumed it 3 times in all.');
  });
});

describe(`${RULE} on real SDK traffic (fixtures/resume-after-error)`, () => {
  it('reports the SDK 1.32 client resuming a stream that ended with a JSON-RPC error', () => {
    const capture = recorded('resume-after-error');
    const call = exchange(capture, 'tools/call', 'consent_required');
    const findings = findingsFor(capture, RULE);
    expect(findings).toHaveLength(1);
    const resume = capture.connections.find((r) =>
      r.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id'),
    );
    expect(findings[0]).toMatchObject({ severity: 'warning', connectionId: resume?.id });
    expect(findings[0]?.message).toContain('after the stream had delivered a JSON-RPC error -32042');
    // The cursor is the id of the error event, the last the call's stream delivered.
    const cursor = resume?.requestHeaders.find((h) => h.name.toLowerCase() === 'last-event-id')?.value;
    expect(responseText(call)).toMatch(new RegExp(`id: ${cursor}\\ndata: \\{[^\\n]*"code":-32042`));
  });

  it('stays quiet on the SDK resuming a stream cut before its answer (fixtures/cut-mid-event)', () => {
    expect(findingsFor(recorded('cut-mid-event'), RULE)).toEqual([]);
  });
});
