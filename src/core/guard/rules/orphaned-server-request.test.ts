import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'orphaned-server-request';

function elicitation(answered: boolean, end: 'network-error' | 'complete') {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: [sseEvent('1', rpc.request(0, 'elicitation/create'))], end });
  if (answered) s({ body: rpc.result(0, { action: 'accept' }) });
  return t.capture();
}

describe(RULE, () => {
  it('reports an elicitation lost with its stream', () => {
    const findings = findingsFor(elicitation(false, 'network-error'), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', connectionId: 'c1', eventId: '1' });
    expect(findings[0]?.message).toContain('elicitation/create');
  });

  it('reports a server request left unanswered when the session is refused later', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('1', rpc.request('r1', 'sampling/createMessage'))], end: 'open' });
    s({ body: rpc.request(2, 'tools/list'), status: 404 });
    expect(findingsFor(t.capture(), RULE)).toHaveLength(1);
  });

  it('accepts an answered request even if the stream broke afterwards', () => {
    expect(findingsFor(elicitation(true, 'network-error'), RULE)).toEqual([]);
  });

  it('does not call a request orphaned while its stream is healthy', () => {
    expect(findingsFor(elicitation(false, 'complete'), RULE)).toEqual([]);
  });
});

describe(`${RULE}: answers that never arrived`, () => {
  it('does not count an answer POSTed into a session the server refused with 404', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({
      body: rpc.request(1, 'tools/call'),
      sse: [sseEvent('1', rpc.request(0, 'elicitation/create'))],
      end: 'network-error',
    });
    s({ body: rpc.result(0, { action: 'accept' }), status: 404 });
    expect(findingsFor(t.capture(), RULE)).toHaveLength(1);
  });
});

describe(`${RULE}: what does not end a session`, () => {
  it('ignores a 409 for a duplicate GET while the elicitation waits for the user', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ sse: [sseEvent('1', rpc.request(0, 'elicitation/create'))], end: 'open' });
    s({ status: 409 });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('ignores a request the server cancelled itself', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({
      body: rpc.request(1, 'tools/call'),
      sse: [
        sseEvent('1', rpc.request(0, 'elicitation/create')),
        sseEvent('2', rpc.notification('notifications/cancelled', { requestId: 0 })),
      ],
      end: 'network-error',
    });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
