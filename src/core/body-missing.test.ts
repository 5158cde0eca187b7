// A DevTools- or Playwright-style HAR drops the bodies of cut and aborted streams: the analysis says which, and why it
// is quieter there. Made from the lab's real cut-mid-event recording, its bodies dropped as those writers drop them.
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { exportHar } from './capture/har-export';
import { importHar } from './capture/har';
import { parseCapture, serializeCapture } from './capture/format';
import { devtoolsStyle } from './devtools-har.fixture';
import { readFixture } from './fixtures-dir.fixture';

describe('a HAR whose writer dropped the bodies of cut and aborted streams', () => {
  const analysis = analyze(importHar(devtoolsStyle()));
  const cut = analysis.connections.find((c) => c.record.method === 'POST' && c.record.end === 'network-error');

  it('names the streams without a body and says torn events cannot be seen there', () => {
    expect(cut).toBeDefined();
    expect(analysis.notices).toHaveLength(1);
    const [notice] = analysis.notices;
    expect(notice?.kind).toBe('body-missing');
    // The cut tools/call stream and the two GET streams the client aborted (the standalone one and the resume).
    expect(notice?.connectionIds).toHaveLength(3);
    expect(notice?.connectionIds).toContain(cut?.id);
    expect(notice?.message).toContain(`${cut?.id} POST tools/call`);
    expect(notice?.message).toContain('any torn event, cannot be seen');
    // What the notice explains: the torn event of the real recording is not visible here.
    expect(analysis.findings.filter((f) => f.rule === 'torn-event-reconnect')).toEqual([]);
  });

  it('says nothing of the kind on the full recording, and keeps saying it after an export and import', () => {
    const { har, ndjson } = readFixture('cut-mid-event');
    expect(analyze(importHar(har, { chunksNdjson: ndjson })).notices).toEqual([]);
    const capture = importHar(devtoolsStyle());
    const again = [importHar(exportHar(capture, { revealSecrets: true })), parseCapture(serializeCapture(capture))];
    for (const copy of again)
      expect(analyze(copy).notices[0]?.connectionIds).toEqual(analysis.notices[0]?.connectionIds);
  });
});

describe('the rules that judge what never arrived, on a HAR that dropped bodies', () => {
  it('say nothing where the missing bodies may hold the answer (the real recording answered request 1 on its resume)', () => {
    const dropped = analyze(importHar(devtoolsStyle()));
    expect(dropped.findings.map((f) => f.rule)).toEqual([]);
    // With every body there, the session is judged as usual.
    const { har, ndjson } = readFixture('cut-mid-event');
    const whole = analyze(importHar(har, { chunksNdjson: ndjson }));
    expect(whole.findings.map((f) => f.rule)).toEqual(['torn-event-reconnect']);
  });
});
