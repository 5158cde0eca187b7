import { describe, expect, it } from 'vitest';
import { importHar } from '../core/capture/har';
import { readFixture } from '../core/fixtures-dir.fixture';
import type { Finding } from '../core/guard/types';
import { describeFindings, failing, findingsOf } from './report';

const finding = (rule: string, severity: Finding['severity'], extra: Partial<Finding> = {}): Finding => ({
  rule,
  severity,
  message: `${rule} happened`,
  ...extra,
});

describe('the fixture report', () => {
  it('keeps the findings at or above failOn, most severe first', () => {
    const all = [finding('a', 'info'), finding('b', 'warning'), finding('c', 'error')];
    expect(failing(all, 'error').map((f) => f.rule)).toEqual(['c']);
    expect(failing(all, 'warning').map((f) => f.rule)).toEqual(['c', 'b']);
    expect(failing(all, 'info').map((f) => f.rule)).toEqual(['c', 'b', 'a']);
  });

  it('writes one block per finding: severity, rule, message, where, and the doc page', () => {
    const text = describeFindings([
      finding('torn-event-reconnect', 'warning', { connectionId: 'e4', eventId: '7', byteOffset: 501 }),
      finding('resume-id-gap', 'error'),
    ]);
    expect(text.split('\n')).toEqual([
      '  warning torn-event-reconnect: torn-event-reconnect happened',
      '    at connection e4, event id 7, byte 501',
      expect.stringMatching(/^ {4}docs: .*src\/core\/guard\/rules\/torn-event-reconnect\.md$/),
      '  error resume-id-gap: resume-id-gap happened',
      expect.stringMatching(/^ {4}docs: .*resume-id-gap\.md$/),
    ]);
  });

  it('judges the capture as its export shows it: session ids as aliases, unless the user opted in', () => {
    const { har, ndjson } = readFixture('cut-mid-event');
    const capture = importHar(har, { chunksNdjson: ndjson });
    const ids = capture.connections.flatMap((c) =>
      (c.responseHeaders ?? []).filter((h) => h.name.toLowerCase() === 'mcp-session-id').map((h) => h.value),
    );
    const sessionId = ids[0] ?? '';
    expect(sessionId).not.toMatch(/^redacted-session-/);
    const redacted = findingsOf(capture, false);
    expect(redacted.map((f) => f.rule)).toEqual(['torn-event-reconnect']);
    expect(JSON.stringify(redacted)).not.toContain(sessionId);
    const revealed = findingsOf(capture, true);
    expect(revealed.map((f) => f.rule)).toEqual(['torn-event-reconnect']);
    expect(JSON.stringify(revealed)).toContain(sessionId);
  });
});
