import { describe, expect, it } from 'vitest';
import { findingsFor, rpc, session, Transcript } from '../testing';

const RULE = 'session-not-reinitialized';

describe(RULE, () => {
  it('reports requests that keep using a session after its 404', () => {
    const t = new Transcript();
    const s = session(t, 'dead');
    s({ body: rpc.request(3, 'tools/call'), status: 404 });
    s({ body: rpc.request(4, 'tools/call'), status: 404 });
    s({ headers: { 'last-event-id': '9' }, status: 404 });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', connectionId: 'c2' });
    expect(findings[0]?.message).toContain('2 more request(s)');
  });

  it('accepts a client that initializes a new session after the 404', () => {
    const t = new Transcript();
    session(t, 'dead')({ body: rpc.request(3, 'tools/call'), status: 404 });
    session(
      t,
      undefined,
    )({
      body: rpc.request(0, 'initialize', { protocolVersion: '2025-11-25' }),
      json: rpc.result(0, { protocolVersion: '2025-11-25' }),
      responseHeaders: { 'mcp-session-id': 'fresh' },
    });
    session(t, 'fresh')({ body: rpc.request(4, 'tools/call'), json: rpc.result(4) });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});

describe(`${RULE}: a 404 that was about a route`, () => {
  it('stays quiet when later requests on the session still succeed', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ status: 404 });
    s({ body: rpc.request(4, 'tools/list'), json: rpc.result(4) });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
