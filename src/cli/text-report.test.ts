import { describe, expect, it } from 'vitest';
import { analyze } from '../core/analyze';
import { inspectorCapture, INSPECTOR_EVENTS_URL } from '../core/model/other-streams.fixture';
import { sampleAnalysis } from './analysis.fixture';
import { recorded } from '../core/guard/recorded.fixture';
import { ansi, plain, wantsColor } from './style';
import { formatReport, formatCounts, formatMs } from './text-report';

const options = {
  style: plain,
  ruleSummary: (id: string) => (id === 'made-up-rule' ? undefined : `summary of ${id}`),
  docPath: (id: string) => `/pkg/src/core/guard/rules/${id}.md`,
};

describe('human report', () => {
  it('groups findings by session, in time order, with location, summary and doc page', () => {
    expect(formatReport('torn.har', sampleAnalysis(), options)).toBe(
      [
        'torn.har',
        '  session sess-1  http://127.0.0.1:3000  era 2025-11-25  ids integer  1 stream, 2 connections, 3 events',
        '    ✖ error   torn-event-reconnect  e1 ended inside an event with data; the client reconnected',
        '      stream s1, connection e1, byte 520, +1011.4 ms',
        '      summary of torn-event-reconnect',
        '      docs: /pkg/src/core/guard/rules/torn-event-reconnect.md',
        '    ⚠ warning resume-id-gap  resumed after 2 but the first event is 4',
        '      stream s1, connection e2, event id 4, +1500.3 ms',
        '      summary of resume-id-gap',
        '      docs: /pkg/src/core/guard/rules/resume-id-gap.md',
        '  session (no session)  http://127.0.0.1:4000  era 2026-07-28  ids none  0 streams, 1 connection, 0 events',
        '    no findings',
        '  (findings outside any session)',
        '    ℹ info    made-up-rule  a finding of no session',
        '      docs: /pkg/src/core/guard/rules/made-up-rule.md',
        '1 error, 1 warning, 1 info',
        '',
      ].join('\n'),
    );
  });

  it("puts the file's notices under its name", () => {
    const notice = {
      kind: 'body-missing' as const,
      connectionIds: ['e4'],
      message: '1 response has no body in this file (e4 POST tools/call): …',
    };
    const lines = formatReport('devtools.har', { ...sampleAnalysis(), notices: [notice] }, options).split('\n');
    expect(lines.slice(0, 2)).toEqual(['devtools.har', `  note ${notice.message}`]);
  });

  it("names the client's reconnect behaviour under its session once the traffic told it", () => {
    const text = formatReport('x.har', analyze(recorded('server-close-not-resumed')), options);
    expect(text).toContain('\n    client: resumes POST streams: no · honours retry: no · de-duplicates: unknown\n');
    expect(formatReport('c.har', analyze(recorded('clean')), options)).not.toContain('client:');
  });

  it('says when a file holds no MCP traffic', () => {
    const empty = { ...sampleAnalysis(), sessions: [], streams: [], connections: [], events: [], findings: [] };
    expect(formatReport('x.sse', empty, options)).toBe('x.sse\n  no MCP traffic found\n0 errors, 0 warnings, 0 info\n');
  });

  it('lists streams that are not MCP apart, after the sessions, without findings', () => {
    expect(formatReport('inspector.har', analyze(inspectorCapture()), options)).toBe(
      [
        'inspector.har',
        '  no MCP traffic found',
        '  2 other streams (not MCP, not judged)',
        `    GET ${INSPECTOR_EVENTS_URL}  200  7 events  mcp-inspector  SSE events whose data is not JSON-RPC`,
        `    GET ${INSPECTOR_EVENTS_URL}  200  1 event  mcp-inspector  SSE events whose data is not JSON-RPC`,
        '0 errors, 0 warnings, 0 info',
        '',
      ].join('\n'),
    );
  });

  it('colours severities only with the ANSI style', () => {
    const coloured = formatReport('torn.har', sampleAnalysis(), { ...options, style: ansi });
    expect(coloured).toContain('\u001b[31m✖ error  \u001b[39m');
    expect(coloured).toContain('\u001b[33m⚠ warning\u001b[39m');
    expect(formatReport('torn.har', sampleAnalysis(), options)).not.toContain('\u001b[');
    expect(formatCounts({ error: 2, warning: 0, info: 3 }, plain)).toBe('2 errors, 0 warnings, 3 info');
    expect(formatMs(-0.04)).toBe('0.0 ms');
  });

  it('uses colour only on a terminal without NO_COLOR', () => {
    expect(wantsColor(true, {})).toBe(true);
    expect(wantsColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor(true, { NO_COLOR: '' })).toBe(true);
    expect(wantsColor(false, {})).toBe(false);
    expect(wantsColor(undefined, {})).toBe(false);
  });
});
