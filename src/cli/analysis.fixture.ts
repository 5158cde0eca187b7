// Test fixture (Node tests only): a small hand-built Analysis, so the report formats are checked
// independently of the model builder and the rules.
import { DEFAULT_SILENCE } from '../core/model/silence';
import type { ConnectionRecord } from '../core/capture/model';
import type { ConnectionView, EventList, EventView } from '../core/model/types';
import type { Analysis } from '../core/analyze';

const T0 = 1795967688000;

function record(id: string, method: string, extra: Partial<ConnectionRecord> = {}): ConnectionRecord {
  return {
    id,
    source: 'har',
    method,
    url: 'http://127.0.0.1:3000/mcp',
    requestHeaders: [],
    startTime: T0,
    status: 200,
    chunks: [],
    end: 'complete',
    ...extra,
  };
}

function connection(
  id: string,
  method: string,
  streamId: string | undefined,
  extra: Partial<ConnectionView> = {},
  rec: Partial<ConnectionRecord> = {},
): ConnectionView {
  return {
    id,
    record: record(id, method, rec),
    role: method === 'GET' ? 'get' : 'post',
    sessionKey: 'sess-1',
    ...(streamId !== undefined && { streamId }),
    isSse: true,
    requestMessages: [],
    responseMessages: [],
    eventIndexes: [],
    bytes: 0,
    mcpEvidence: 'Mcp-Session-Id request header',
    ...extra,
  };
}

function event(index: number, connectionId: string, fields: Partial<EventView>): EventView {
  const data = fields.data ?? '';
  return {
    index,
    connectionId,
    streamId: 's1',
    sessionKey: 'sess-1',
    time: T0 + 10 * index,
    messages: [],
    envelopes: [],
    type: 'message',
    data,
    dataLength: data.length,
    dataPreview: (max) => data.slice(0, max),
    lastEventId: '',
    hasId: false,
    start: 0,
    end: 0,
    firstChunk: 0,
    lastChunk: 0,
    ...fields,
  };
}

/** The model's list interface over plain views (the model's own list makes its views on demand). */
function listOf(events: readonly EventView[]): EventList {
  return { length: events.length, at: (index) => events[index], [Symbol.iterator]: () => events[Symbol.iterator]() };
}

export function sampleAnalysis(): Analysis {
  return {
    startTime: T0,
    observedUntil: T0,
    silence: DEFAULT_SILENCE,
    sessions: [
      {
        key: 'sess-1',
        sessionId: 'sess-1',
        origin: 'http://127.0.0.1:3000',
        endpoint: '/mcp',
        era: '2025-11-25',
        idScheme: 'integer',
        streamIds: ['s1'],
        connectionIds: ['e1', 'e2'],
        startTime: T0,
        endTime: T0 + 2000,
      },
      {
        key: 'http://127.0.0.1:4000#1',
        origin: 'http://127.0.0.1:4000',
        endpoint: '/mcp',
        era: '2026-07-28',
        idScheme: 'none',
        streamIds: [],
        connectionIds: ['e3'],
        startTime: T0 + 3000,
        endTime: T0 + 3100,
      },
    ],
    streams: [{ id: 's1', sessionKey: 'sess-1', kind: 'post', connectionIds: ['e1', 'e2'], requestIds: [1] }],
    connections: [
      connection('e1', 'POST', 's1', { bytes: 580, eventIndexes: [0, 1] }, { end: 'network-error' }),
      connection('e2', 'GET', 's1', { bytes: 120, lastEventIdSent: '2', resumes: 'e1', eventIndexes: [2] }),
      connection(
        'e3',
        'POST',
        undefined,
        { sessionKey: 'http://127.0.0.1:4000#1', isSse: false },
        { status: undefined, end: 'network-error' },
      ),
    ],
    events: listOf([
      event(0, 'e1', { data: '', lastEventId: '1', hasId: true, retry: 3000 }),
      event(1, 'e1', { data: '{"jsonrpc":"2.0","method":"notifications/progress"}', lastEventId: '2', hasId: true }),
      event(2, 'e2', { data: '{"jsonrpc":"2.0","id":1,"result":{}}', lastEventId: '2', hasId: false }),
    ]),
    otherStreams: [],
    notices: [],
    reconnects: [],
    findings: [
      {
        rule: 'resume-id-gap',
        severity: 'warning',
        message: 'resumed after 2 but the first event is 4',
        sessionKey: 'sess-1',
        streamId: 's1',
        connectionId: 'e2',
        eventId: '4',
        time: T0 + 1500.26,
      },
      {
        rule: 'torn-event-reconnect',
        severity: 'error',
        message: 'e1 ended inside an event with data; the client reconnected',
        sessionKey: 'sess-1',
        streamId: 's1',
        connectionId: 'e1',
        byteOffset: 520,
        time: T0 + 1011.44,
      },
      { rule: 'made-up-rule', severity: 'info', message: 'a finding of no session' },
    ],
  };
}
