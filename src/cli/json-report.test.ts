import { describe, expect, it } from 'vitest';
import { analyze } from '../core/analyze';
import { aiChatCapture, ANTHROPIC_URL, OPENAI_URL } from '../core/model/other-streams.fixture';
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
        reconnect: null,
        relayed: null,
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
                evidence: 'Mcp-Session-Id request header',
                relayed: null,
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
                evidence: 'Mcp-Session-Id request header',
                relayed: null,
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
      {
        id: 'http://127.0.0.1:4000#1',
        era: '2026-07-28',
        idScheme: 'none',
        reconnect: null,
        relayed: null,
        streams: [],
      },
    ]);
  });

  it('keeps keys in a stable order; event id and retry appear only when the event had them', () => {
    const text = JSON.stringify(report);
    expect(Object.keys(report)).toEqual(['findings', 'sessions', 'otherStreams', 'notices']);
    const stream = report.sessions[0]!.streams[0]!;
    expect(Object.keys(report.sessions[0]!)).toEqual(['id', 'era', 'idScheme', 'reconnect', 'relayed', 'streams']);
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
      'evidence',
      'relayed',
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

describe('--json on a page with streams that are not MCP', () => {
  it('lists them apart under otherStreams, keys fixed, and no finding of theirs', () => {
    const report = toJsonReport(analyze(aiChatCapture()));
    expect(report.findings).toEqual([]);
    expect(report.sessions).toHaveLength(1);
    expect(report.otherStreams).toEqual([
      {
        connectionId: 'c4',
        method: 'POST',
        url: OPENAI_URL,
        status: 200,
        events: 6,
        bytes: expect.any(Number),
        kind: 'openai-chat',
        reason: 'SSE events whose data is not JSON-RPC',
      },
      {
        connectionId: 'c5',
        method: 'POST',
        url: ANTHROPIC_URL,
        status: 200,
        events: 8,
        bytes: expect.any(Number),
        kind: 'anthropic-messages',
        reason: 'SSE events whose data is not JSON-RPC',
      },
    ]);
    expect(Object.keys(report.otherStreams[0]!)).toEqual([
      'connectionId',
      'method',
      'url',
      'status',
      'events',
      'bytes',
      'kind',
      'reason',
    ]);
  });
});
