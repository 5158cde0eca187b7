import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import type { Capture } from '../../capture/model';
import { rpc, session, sseEvent, Transcript } from '../testing';

const RULE = 'request-hang';

/** A tool call whose stream stays open after `events`, and the capture watched until `watchedMs` after it started. */
function hanging(events: string[], watchedMs: number, options: { cancel?: boolean } = {}): Capture {
  const t = new Transcript();
  const s = session(t, 'S1');
  s({ body: rpc.request(7, 'tools/call', { name: 'slow' }), sse: events, end: 'open' });
  if (options.cancel) s({ body: rpc.notification('notifications/cancelled', { requestId: 7 }) });
  const capture = t.capture();
  const start = capture.connections[0]?.startTime ?? 0;
  return { ...capture, observedUntil: start + watchedMs };
}

const findings = (capture: Capture, hangMs?: number) =>
  analyze(capture, undefined, hangMs === undefined ? {} : { silence: { hangMs } }).findings.filter(
    (f) => f.rule === RULE,
  );

describe(RULE, () => {
  it('reports a request whose open stream sent no message for longer than the threshold, with the times', () => {
    const found = findings(hanging([sseEvent('1', '')], 45_000));
    expect(found).toMatchObject([{ severity: 'warning', connectionId: 'c1' }]);
    expect(found[0]?.message).toMatch(
      /^request 7 \(tools\/call\) has waited 45\.0 s unanswered: c1 is open and sent no message for 4\d\.\d s/,
    );
  });

  it('stays quiet below the threshold, and the threshold is settable', () => {
    const capture = hanging([sseEvent('1', '')], 10_000);
    expect(findings(capture)).toEqual([]);
    expect(findings(capture, 5_000)).toHaveLength(1);
  });

  it('counts messages, not keep-alives: a stream with recent progress is lively', () => {
    const lively = hanging([sseEvent('1', rpc.progress(7, 1))], 45_000);
    const chunks = lively.connections[0]?.chunks ?? [];
    // The progress arrived 40 s in: 5 s of silence since.
    if (chunks[0]) chunks[0].t = (lively.connections[0]?.startTime ?? 0) + 40_000;
    expect(findings(lively)).toEqual([]);
    const keptAlive = hanging([sseEvent('1', ''), ': keep-alive\n\n'], 45_000);
    const kept = keptAlive.connections[0]?.chunks ?? [];
    if (kept[1]) kept[1].t = (keptAlive.connections[0]?.startTime ?? 0) + 44_000;
    expect(findings(keptAlive)[0]?.message).toContain('its last byte 1.0 s ago');
  });

  it('does not count an answered or a cancelled request, nor a stream that ended', () => {
    expect(findings(hanging([sseEvent('1', rpc.result(7))], 45_000))).toEqual([]);
    expect(findings(hanging([sseEvent('1', '')], 45_000, { cancel: true }))).toEqual([]);
    const ended = hanging([sseEvent('1', '')], 45_000);
    const record = ended.connections[0];
    if (record) record.end = 'network-error';
    expect(findings(ended)).toEqual([]);
  });

  it('without observedUntil, judges at the latest moment the capture shows', () => {
    const capture = hanging([sseEvent('1', '')], 0);
    delete capture.observedUntil;
    expect(findings(capture)).toEqual([]);
  });
});
