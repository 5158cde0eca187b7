import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../core/capture/model';
import { answeredRequests, chunkSpans, eventJson, rawSegments, sliceBody } from './detail';
import { eventCells, positionOf } from './eventRows';
import { cutAndResume, exampleView } from './fixtures.test-util';

const enc = new TextEncoder();
const record = (...parts: Array<string | Uint8Array>): ConnectionRecord =>
  ({
    chunks: parts.map((p, i) => ({ t: 100 + i, bytes: typeof p === 'string' ? enc.encode(p) : p })),
  }) as unknown as ConnectionRecord;

describe('event bytes', () => {
  const r = record('id: 1\nda', 'ta: {"a"', ':1}\n\n');

  it('lists the chunks an event spans, clipped to its bytes', () => {
    expect(chunkSpans(r, 0, 21)).toEqual([
      { chunk: 0, start: 0, end: 8, t: 100 },
      { chunk: 1, start: 8, end: 16, t: 101 },
      { chunk: 2, start: 16, end: 21, t: 102 },
    ]);
    expect(chunkSpans(r, 10, 12)).toEqual([{ chunk: 1, start: 10, end: 12, t: 101 }]);
  });

  it('copies the bytes of a range across chunks', () => {
    expect(new TextDecoder().decode(sliceBody(r, 6, 14))).toBe('data: {"');
  });

  it('splits raw text at chunk boundaries without breaking a character split across them', () => {
    const e = enc.encode('data: é\n\n'); // é is two bytes: 0xc3 0xa9
    const split = record(e.subarray(0, 7), e.subarray(7));
    const segments = rawSegments(split, 0, e.length);
    expect(segments.map((s) => s.chunk)).toEqual([0, 1]);
    expect(segments.map((s) => s.text).join('')).toBe('data: é\n\n');
    expect(segments[0]?.text).not.toContain('\uFFFD');
  });
});

describe('event details on the SDK capture', () => {
  const view = exampleView('cut-mid-event');
  const { cut, resume } = cutAndResume(view);
  const result = [...view.analysis.events].find((e) => e.messages.some((m) => m.kind === 'response' && m.id === 1))!;

  it('names the request a response answers', () => {
    const answered = answeredRequests(view, result);
    expect(answered.map((a) => [a.message.method, a.connection.id])).toEqual([['tools/call', cut]]);
  });

  it('gives the parsed message for the JSON tree', () => {
    expect(eventJson(result)?.value).toMatchObject({ jsonrpc: '2.0', id: 1 });
  });

  it('fills a table row: time from session start, stream, id, size, method', () => {
    const cells = eventCells(view, result, { error: true, warning: true, info: true });
    expect(result.connectionId).toBe(resume);
    expect(cells.stream).toBe(view.connectionsById.get(cut)!.streamId);
    expect(cells.resumption).toBe(1); // delivered by the stream's first resumption
    expect(cells.id).toBe(result.lastEventId);
    expect(cells.method).toBe('result #1');
    expect(cells.size).toMatch(/^\d+ B$/);
    const start = view.analysis.sessions[0]!.startTime;
    expect(Number(cells.time.replace(/,/g, ''))).toBeCloseTo(result.time - start, 0);
  });

  it('finds a row position by binary search', () => {
    expect(positionOf([1, 4, 9, 12], 9)).toBe(2);
    expect(positionOf([1, 4, 9, 12], 5)).toBe(-1);
    expect(positionOf([], 5)).toBe(-1);
  });
});
