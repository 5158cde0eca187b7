import { describe, expect, it } from 'vitest';
import { readFixture } from '../fixtures-dir.fixture';
import { InputError } from './errors';
import { loadInput } from './load';

// Absurd values in files from elsewhere: each refused at its path with what is wrong, never accepted silently (a
// capture starting at 1e17 ms once hung the panel's timeline for 43 s).
const encoder = new TextEncoder();
const har = JSON.parse(readFixture('cut-mid-event').har) as { log: { entries: Record<string, unknown>[] } };

type Entry = Record<string, Record<string, unknown> & { content: Record<string, unknown> }> & {
  timings: Record<string, number>;
};
/** The fixture's HAR with its first entry changed by `edit`. */
function harWith(edit: (entry: Entry) => void): Uint8Array {
  const copy = structuredClone(har);
  edit(copy.log.entries[0] as unknown as Entry);
  return encoder.encode(JSON.stringify(copy));
}

function failure(bytes: Uint8Array, name = 'x.har'): string {
  try {
    loadInput(bytes, name);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const CAPTURE = {
  format: 'mcp-stream-inspector/capture',
  version: 1,
  tool: { name: 'mcp-stream-inspector', version: '0.1.0' },
  createdAt: 0,
  connections: [
    { id: 'c1', source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime: 1000 },
  ],
};
const captureWith = (edit: (c: Record<string, unknown>, conn: Record<string, unknown>) => void): Uint8Array => {
  const copy = structuredClone(CAPTURE) as unknown as Record<string, unknown> & { connections: object[] };
  edit(copy, copy.connections[0] as Record<string, unknown>);
  return encoder.encode(
    JSON.stringify({ ...copy, connections: copy.connections.map((c) => ({ chunks: [], end: 'complete', ...c })) }),
  );
};

describe('absurd values in an imported file', () => {
  it('HAR: a status outside 100-599 (0 means no response)', () => {
    expect(failure(harWith((e) => (e.response!.status = 99999)))).toBe(
      'log.entries[0].response.status: 99999 is not an HTTP status (100 to 599; 0: none)',
    );
    expect(failure(harWith((e) => (e.response!.status = -1)))).toContain('-1 is not an HTTP status');
  });

  it('HAR: negative, absurd or non-numeric durations', () => {
    expect(failure(harWith((e) => ((e as Record<string, unknown>).time = -5)))).toBe(
      'log.entries[0].time: -5 is not a duration in ms (0 or more; -1: does not apply)',
    );
    expect(failure(harWith((e) => ((e as Record<string, unknown>).time = 1e17)))).toBe(
      'log.entries[0].time: 100000000000000000 ms is longer than a Date can span (8.64e15 ms)',
    );
    expect(failure(harWith((e) => ((e as Record<string, unknown>).time = 'NaN')))).toBe(
      'log.entries[0].time: expected a number, got string',
    );
    expect(failure(harWith((e) => (e.timings.wait = -5)))).toBe(
      'log.entries[0].timings.wait: -5 is not a duration in ms (0 or more; -1: does not apply)',
    );
    // Each within range, but the end they give is past what a Date holds.
    const late = harWith((e) => {
      (e as Record<string, unknown>).startedDateTime = '+275760-09-12T00:00:00.000Z';
      (e as Record<string, unknown>).time = 2 * 86_400_000;
    });
    expect(failure(late)).toMatch(/^log\.entries\[0\]\.time: the end it gives is epoch ms \d+, outside the range/);
  });

  it('HAR: negative or absurd sizes (-1 is "unknown")', () => {
    expect(failure(harWith((e) => (e.response!.bodySize = -5)))).toBe(
      'log.entries[0].response.bodySize: -5 is not a size in bytes (a whole number, 0 or more; -1: unknown)',
    );
    expect(failure(harWith((e) => (e.response!.content.size = 1e300)))).toContain(
      'log.entries[0].response.content.size: 1e+300 is not a size in bytes',
    );
    expect(failure(harWith((e) => (e.request!.headersSize = 2.5)))).toContain('log.entries[0].request.headersSize');
    // -1 and ordinary values still load.
    expect(
      loadInput(
        harWith((e) => (e.response!.bodySize = -1)),
        'x.har',
      ).connections.length,
    ).toBeGreaterThan(0);
  });

  it('capture: times outside a Date, a status outside 100-599, a version written as a string', () => {
    expect(
      failure(
        captureWith((_, c) => (c.startTime = 1e17)),
        'x.json',
      ),
    ).toBe(
      'connections[0].startTime: 100000000000000000 is not an epoch time in ms (0 to 8.64e15, the range of a Date)',
    );
    expect(
      failure(
        captureWith((_, c) => (c.startTime = -1)),
        'x.json',
      ),
    ).toContain('-1 is not an epoch time');
    expect(
      failure(
        captureWith((_, c) => (c.status = 99999)),
        'x.json',
      ),
    ).toBe('connections[0].status: 99999 is not an HTTP status (100 to 599)');
    const version = failure(
      captureWith((c) => (c.version = '1')),
      'x.json',
    );
    expect(version).toBe('version: capture version is the string "1", not the number 1; write it as 1');
    expect(
      loadInput(
        captureWith(() => undefined),
        'x.json',
      ).connections,
    ).toHaveLength(1);
  });
});
