import { describe, expect, it } from 'vitest';
import { sampleAnalysis } from './analysis.fixture';
import { toJsonReport } from './json-report';

describe('--json document', () => {
  const report = toJsonReport(sampleAnalysis());

  it('lists sessions, their streams, connections and events in the documented shape', () => {
    expect(report.sessions).toEqual([
      {
        id: 'sess-1',
        era: '2025-11-25',
        idScheme: 'integer',
        streams: [
          {
            id: 's1',
            kind: 'post',
            connections: [
              {
                id: 'e1',
                method: 'POST',
                url: 'http://127.0.0.1:3000/mcp',
                status: 200,
                lastEventIdSent: null,
                resumes: null,
                end: 'network-error',
                bytes: 580,
              },
              {
                id: 'e2',
                method: 'GET',
                url: 'http://127.0.0.1:3000/mcp',
                status: 200,
                lastEventIdSent: '2',
                resumes: 'e1',
                end: 'complete',
                bytes: 120,
              },
            ],
            events: [
              { type: 'message', data: '', lastEventId: '1', id: '1', retry: 3000 },
              {
                type: 'message',
                data: '{"jsonrpc":"2.0","method":"notifications/progress"}',
                lastEventId: '2',
                id: '2',
              },
              { type: 'message', data: '{"jsonrpc":"2.0","id":1,"result":{}}', lastEventId: '2' },
            ],
          },
        ],
      },
      { id: 'http://127.0.0.1:4000#1', era: '2026-07-28', idScheme: 'none', streams: [] },
    ]);
  });

  it('keeps keys in a stable order; event id and retry appear only when the event had them', () => {
    const text = JSON.stringify(report);
    expect(Object.keys(report)).toEqual(['findings', 'sessions']);
    const stream = report.sessions[0]!.streams[0]!;
    expect(Object.keys(report.sessions[0]!)).toEqual(['id', 'era', 'idScheme', 'streams']);
    expect(Object.keys(stream)).toEqual(['id', 'kind', 'connections', 'events']);
    expect(Object.keys(stream.connections[0]!)).toEqual([
      'id',
      'method',
      'url',
      'status',
      'lastEventIdSent',
      'resumes',
      'end',
      'bytes',
    ]);
    expect(Object.keys(stream.events[0]!)).toEqual(['type', 'data', 'lastEventId', 'id', 'retry']);
    expect(Object.keys(stream.events[2]!)).toEqual(['type', 'data', 'lastEventId']);
    expect(text).toBe(JSON.stringify(toJsonReport(sampleAnalysis())));
  });

  it('carries the findings with their fields in a fixed order', () => {
    expect(report.findings.map((f) => f.rule)).toEqual(['resume-id-gap', 'torn-event-reconnect', 'made-up-rule']);
    expect(Object.keys(report.findings[1]!)).toEqual([
      'rule',
      'severity',
      'message',
      'sessionKey',
      'streamId',
      'connectionId',
      'byteOffset',
      'time',
    ]);
    expect(report.findings[2]).toEqual({ rule: 'made-up-rule', severity: 'info', message: 'a finding of no session' });
  });
});
