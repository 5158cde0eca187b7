import { describe, expect, it } from 'vitest';
import { findingsFor, session, Transcript } from '../testing';

const RULE = 'stale-cursor-retry';

describe(RULE, () => {
  it('warns when a refused cursor is sent again', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ headers: { 'last-event-id': '7' }, status: 409 });
    s({ headers: { 'last-event-id': '7' }, status: 409 });
    s({ headers: { 'last-event-id': '7' }, status: 409 });
    const findings = findingsFor(t.capture(), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', connectionId: 'c2' });
    expect(findings[0]?.message).toContain('2 time(s)');
  });

  it('leaves a new session alone even when its cursor has the same text (per-session counters)', () => {
    const t = new Transcript();
    session(t, 'S1')({ headers: { 'last-event-id': '7' }, status: 404 });
    session(t, 'S2')({ headers: { 'last-event-id': '7' }, status: 409 });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('does not call a retry after 401 stale, nor a retry that succeeded', () => {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ headers: { 'last-event-id': '7' }, status: 401 });
    s({ headers: { 'last-event-id': '7' }, status: 401 });
    s({ headers: { 'last-event-id': '8' }, status: 409 });
    s({ headers: { 'last-event-id': '8' }, sse: ['id: 9\ndata: \n\n'] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('stays quiet when the client moves on without the cursor', () => {
    const t = new Transcript();
    session(t, 'S1')({ headers: { 'last-event-id': '7' }, status: 409 });
    session(t, 'S2')({ sse: ['id: 1\ndata: \n\n'] });
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
