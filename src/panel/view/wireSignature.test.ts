import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../core/capture/model';
import { pendingBodies, sameWire, wireSignature } from './wireSignature';

const bytes = (n: number) => ({ t: 1, bytes: new Uint8Array(n) });

function record(over: Partial<ConnectionRecord>): ConnectionRecord {
  return {
    id: 'c',
    source: 'fetch',
    method: 'POST',
    url: 'http://127.0.0.1/mcp',
    requestHeaders: [],
    startTime: 0,
    chunks: [],
    end: 'open',
    ...over,
  };
}

const sse = [{ name: 'Content-Type', value: 'text/event-stream; charset=utf-8' }];
const json = [{ name: 'content-type', value: 'application/json' }];

describe('wire signature', () => {
  it('counts connections, answers, event-stream bytes and ended streams', () => {
    const records = [
      record({ status: 200, responseHeaders: sse, chunks: [bytes(10), bytes(5)], end: 'complete' }),
      record({ status: 200, responseHeaders: sse, chunks: [bytes(7)] }),
      record({ status: 404, responseHeaders: json, chunks: [bytes(50)], end: 'complete' }),
      record({}),
      record({ end: 'network-error' }),
    ];
    expect(wireSignature(records)).toEqual({ connections: 5, answered: 4, streamBytes: 22, streamsEnded: 1 });
  });

  it('does not count bytes the tap re-encodes (EventSource) or copies on its own (JSON bodies)', () => {
    const records = [
      record({ source: 'eventsource', method: 'GET', status: 200, chunks: [bytes(30)], end: 'aborted' }),
      record({ status: 200, responseHeaders: json, chunks: [bytes(40)], end: 'complete' }),
    ];
    expect(wireSignature(records)).toEqual({ connections: 2, answered: 2, streamBytes: 0, streamsEnded: 1 });
  });

  it('only grows as records fill in, so equal means caught up', () => {
    const open = record({ status: 200, responseHeaders: sse, chunks: [bytes(3)] });
    const later = { ...open, chunks: [bytes(3), bytes(4)], end: 'aborted' as const };
    const before = wireSignature([open]);
    const after = wireSignature([later, record({})]);
    expect(sameWire(before, after)).toBe(false);
    expect(sameWire(after, wireSignature([later, record({})]))).toBe(true);
    for (const key of Object.keys(before) as (keyof typeof before)[])
      expect(after[key]).toBeGreaterThanOrEqual(before[key]);
  });

  it('pending bodies: answered non-stream records the tap has not ended yet', () => {
    const records = [
      record({ status: 200, responseHeaders: json }),
      record({ status: 200, responseHeaders: json, end: 'complete' }),
      record({ status: 200, responseHeaders: sse }),
      record({}),
    ];
    expect(pendingBodies(records)).toBe(1);
  });
});
