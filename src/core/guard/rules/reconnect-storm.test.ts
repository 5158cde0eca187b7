import { describe, expect, it } from 'vitest';
import { recorded, rewritten } from '../recorded.fixture';
import { findingsFor, rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'reconnect-storm';

/** A stream answered with an error, then resumed again and again; each resume closed at once with nothing new. */
function resumedTimes(times: number, resume: (i: number) => string[] = () => [': keep-alive\n\n']) {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(1, 'tools/call'), sse: ['id: p0\ndata: \n\n', sseEvent('p1', rpc.error(1))] });
  for (let i = 0; i < times; i++) s({ headers: { 'last-event-id': 'p1' }, sse: resume(i) });
  return t.capture();
}

describe(RULE, () => {
  it('reports reconnects at a steady rate that deliver nothing new, with count and rate', () => {
    const findings = findingsFor(resumedTimes(12), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', connectionId: 'c2', streamId: 's1' });
    // The transcript's clock: each exchange starts 20 ms after the one before.
    expect(findings[0]?.message).toBe(
      '12 reconnects of stream s1 in 0.2 s (50.0/s), none delivering anything new (first c2, last c13): the client reconnects at a steady rate without progress or backoff.',
    );
  });

  it('stays quiet below 10 reconnects (a refused resume is retried a few times)', () => {
    expect(findingsFor(resumedTimes(9), RULE)).toEqual([]);
  });

  it('stays quiet while the reconnects make progress', () => {
    const progress = (i: number) => [sseEvent(`q${i}`, rpc.notification('notifications/message', { i }))];
    expect(findingsFor(resumedTimes(12, progress), RULE)).toEqual([]);
  });

  it('stays quiet when the client backs off', () => {
    const capture = resumedTimes(12);
    let shift = 0;
    for (const [i, record] of capture.connections.entries()) {
      shift += i > 1 ? 2 ** i : 0;
      record.startTime += shift;
      if (record.responseTime !== undefined) record.responseTime += shift;
      if (record.endTime !== undefined) record.endTime += shift;
      record.chunks = record.chunks.map((c) => ({ ...c, t: c.t + shift }));
    }
    expect(findingsFor(capture, RULE)).toEqual([]);
  });
});

describe(`${RULE}: a standalone GET refused again and again`, () => {
  /** An initialized session whose client opens the standalone GET `times` times, each refused with `status`. */
  function refusedGets(times: number, status: number) {
    const t = new Transcript();
    const s = session(t, 'S1');
    s({ body: rpc.request(1, 'tools/list'), json: rpc.result(1, { tools: [] }) });
    for (let i = 0; i < times; i++) s({ method: 'GET', status, json: { error: 'Method Not Allowed' } });
    return t.capture();
  }

  it('reports a client retrying a 405 at a steady rate, naming the refusal', () => {
    const findings = findingsFor(refusedGets(12, 405), RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.connectionId).toBe('c3');
    expect(findings[0]?.message).toMatch(
      /^11 reconnects of the standalone GET stream, refused 405, in 0\.2 s \([\d.]+\/s\), none delivering anything new \(first c3, last c13\)/,
    );
  });

  it('stays quiet when the client takes the refusal (one GET, or a few retries)', () => {
    expect(findingsFor(refusedGets(1, 405), RULE)).toEqual([]);
    expect(findingsFor(refusedGets(4, 400), RULE)).toEqual([]);
  });
});

describe(`${RULE} on real SDK traffic (fixtures/resume-after-error)`, () => {
  const real = recorded('resume-after-error');
  const resume = () =>
    real.connections.find((r) => r.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id'));

  it('stays quiet on the recording: one needless resume, held open', () => {
    expect(findingsFor(real, RULE)).toEqual([]);
  });

  it('reports the resume repeated every 150 ms, as the SDK does when a server or proxy closes each one', () => {
    // The SDK 1.32 client schedules the reconnect of a stream that ended cleanly as attempt 0, at the server's retry.
    const storm = rewritten(real, (copy) => {
      const first = resume();
      if (!first) throw new Error('no resume in the recording');
      copy.connections = copy.connections.filter((r) => r.id !== first.id);
      for (let i = 0; i < 12; i++) {
        const shift = i * 150;
        copy.connections.push({
          ...first,
          id: `storm-${i + 1}`,
          startTime: first.startTime + shift,
          responseTime: (first.responseTime ?? first.startTime) + shift,
          endTime: (first.responseTime ?? first.startTime) + shift + 1,
          end: 'complete',
          chunks: [],
        });
      }
    });
    const findings = findingsFor(storm, RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.connectionId).toBe('storm-1');
    expect(findings[0]?.message).toMatch(
      /^12 reconnects of stream s\d+ in 1\.6 s \(6\.7\/s\), none delivering anything new/,
    );
  });
});
