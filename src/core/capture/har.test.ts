import { describe, expect, it } from 'vitest';
import { InputError } from './errors';
import { exportHar, importHar } from './har';
import type { Capture } from './model';
import { sampleCapture } from './samples.fixture';
import { fixtureEntries, fixtureSessionId, readFixture } from '../fixtures-dir.fixture';

const clean = readFixture('clean');
const torn = readFixture('cut-mid-event');
const END_OF_STATE: Record<string, string> = {
  complete: 'complete',
  failed: 'network-error',
  aborted: 'aborted',
  open: 'open',
};

interface HarEntry {
  startedDateTime: string;
  time: number;
  timings: Record<string, number>;
  response: { content: { text?: string } };
}
const entriesOf = (har: string): HarEntry[] => (JSON.parse(har) as { log: { entries: HarEntry[] } }).log.entries;

function body(capture: Capture, index: number): string {
  const parts = capture.connections[index]!.chunks.map((c) => Buffer.from(c.bytes));
  return Buffer.concat(parts).toString('utf8');
}

function header(capture: Capture, index: number, name: string): string | undefined {
  return capture.connections[index]!.requestHeaders.find((h) => h.name.toLowerCase() === name)?.value;
}

function ndjsonChunks(ndjson: string, entry: number): { tMs: number; length: number }[] {
  return ndjson
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; entry: number; tMs: number; length: number })
    .filter((r) => r.type === 'chunk' && r.entry === entry);
}

describe('HAR import of real SDK traffic', () => {
  it('clean control: every exchange, its body and its times', () => {
    const capture = importHar(clean.har);
    const entries = entriesOf(clean.har);
    const plain = fixtureEntries('clean');
    const posts = plain.flatMap((e, i) => (e.method === 'POST' ? [i] : []));
    // The POSTs go one after the other; the standalone GET races the first tools/call.
    expect(posts.map((i) => plain[i]!.rpcMethod)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
      'tools/call',
      'tools/call',
      'response',
    ]);
    expect(posts.map((i) => capture.connections[i]!.status)).toEqual([200, 202, 200, 200, 200, 202]);
    expect(capture.connections.map((c) => c.method).sort()).toEqual([
      'GET',
      'POST',
      'POST',
      'POST',
      'POST',
      'POST',
      'POST',
    ]);
    expect(capture.connections.map((c) => c.method)).toEqual(plain.map((e) => e.method));
    // Every POST completed; the client closed its standalone GET stream when it was done.
    expect(capture.connections.map((c) => c.end)).toEqual(
      plain.map((e) => (e.method === 'GET' ? 'aborted' : 'complete')),
    );
    expect(capture.connections.every((c) => c.source === 'har')).toBe(true);
    expect(capture.tool).toEqual({ name: 'mcp-stream-inspector-lab', version: '0.1.0' });
    entries.forEach((entry, i) => {
      const c = capture.connections[i]!;
      expect(body(capture, i)).toBe(entry.response.content.text ?? '');
      const start = Date.parse(entry.startedDateTime);
      expect(c.startTime).toBe(start);
      expect(c.responseTime).toBeCloseTo(start + entry.timings.send! + entry.timings.wait!, 3);
      expect(c.endTime).toBeCloseTo(start + entry.time, 3);
      // Without chunk times a HAR body arrives as one chunk when the response ends.
      expect(c.chunks.map((ch) => ch.t)).toEqual(c.chunks.length ? [c.endTime] : []);
    });
    const big = plain.findIndex((e) => e.body.includes('big_result line 000001'));
    expect(capture.connections[big]!.chunks[0]!.bytes.length).toBe(Buffer.byteLength(plain[big]!.body));
    expect(capture.connections[big]!.chunks[0]!.bytes.length).toBeGreaterThan(64 * 1024);
    expect(capture.connections[posts[0]!]!.requestBody).toContain('"method":"initialize"');
    expect(header(capture, posts[1]!, 'mcp-session-id')).toBe(fixtureSessionId('clean'));
    expect(capture.createdAt).toBe(Date.parse(entries[0]!.startedDateTime));
  });

  it('torn replay: the failed POST stream and the resumption GET with its Last-Event-ID', () => {
    const capture = importHar(torn.har);
    const plain = fixtureEntries('cut-mid-event');
    expect(capture.connections.map((c) => `${c.method} ${c.end}`)).toEqual(
      plain.map((e) => `${e.method} ${END_OF_STATE[e.streamState]}`),
    );
    expect(capture.connections.map((c) => `${c.method} ${c.end}`).sort()).toEqual([
      'GET aborted',
      'GET aborted',
      'POST complete',
      'POST complete',
      'POST network-error',
    ]);
    const cut = capture.connections.findIndex((c) => c.end === 'network-error');
    const resume = capture.connections.findIndex((c) =>
      c.requestHeaders.some((h) => h.name.toLowerCase() === 'last-event-id'),
    );
    expect(cut).toBeLessThan(resume);
    expect(capture.connections[cut]!.error).toBe(
      'cut by the lab proxy: the connection ended without the terminating chunk',
    );
    expect(body(capture, cut)).toMatch(
      /data: \{"method":"notifications\/progress","params":\{"progressToken":1,"progress":2[^\n]*\n\nevent: message\nid: [^\n]+\ndata: \{"method":"notifications\/progress","params":\{"progressToken"$/,
    );
    const progress2 =
      /id: (\S+)\ndata: \{"method":"notifications\/progress","params":\{"progressToken":1,"progress":2,/.exec(
        body(capture, cut),
      )![1];
    expect(header(capture, resume, 'last-event-id')).toBe(progress2);
    expect(header(capture, cut, 'last-event-id')).toBeUndefined();
    entriesOf(torn.har).forEach((entry, i) => expect(body(capture, i)).toBe(entry.response.content.text ?? ''));
  });

  it.each([
    ['clean', clean],
    ['torn', torn],
  ])('%s with chunks.ndjson: bodies split into the recorded chunks at their times', (_name, example) => {
    const plain = importHar(example.har);
    const capture = importHar(example.har, { chunksNdjson: example.ndjson });
    const firstRequestTMs = (JSON.parse(example.ndjson.split('\n')[0]!) as { tMs: number }).tMs;
    capture.connections.forEach((c, i) => {
      const recorded = ndjsonChunks(example.ndjson, i + 1);
      expect(c.chunks.map((ch) => ch.bytes.length)).toEqual(recorded.map((r) => r.length));
      expect(body(capture, i)).toBe(body(plain, i));
      // One clock for all: tMs offsets from the first request, anchored at its startedDateTime.
      recorded.forEach((r, k) =>
        expect(c.chunks[k]!.t).toBeCloseTo(plain.connections[0]!.startTime + r.tMs - firstRequestTMs, 6),
      );
      expect(c.responseTime! <= (c.chunks[0]?.t ?? Infinity)).toBe(true);
      expect((c.chunks.at(-1)?.t ?? -Infinity) <= c.endTime!).toBe(true);
      // startedDateTime is whole milliseconds from another clock: the two agree within a couple of ms.
      expect(Math.abs(c.startTime - plain.connections[i]!.startTime)).toBeLessThan(2);
    });
  });

  it('torn example: the cut connection ends with the 60 data bytes the proxy let through', () => {
    const capture = importHar(torn.har, { chunksNdjson: torn.ndjson });
    const index = capture.connections.findIndex((c) => c.end === 'network-error');
    const cut = capture.connections[index]!;
    expect(cut.chunks.map((c) => c.bytes.length)).toEqual(ndjsonChunks(torn.ndjson, index + 1).map((r) => r.length));
    expect(Buffer.from(cut.chunks.at(-1)!.bytes).toString()).toBe(
      '{"method":"notifications/progress","params":{"progressToken"',
    );
    expect(Buffer.from(cut.chunks.at(-2)!.bytes).toString()).toMatch(/event: message\nid: [^\n]+\ndata: $/);
  });
});

describe('HAR export', () => {
  it('round-trips a capture exactly (times, chunks, binary bodies, end reasons, page)', () => {
    const capture = sampleCapture();
    expect(importHar(exportHar(capture, { revealSecrets: true }))).toEqual(capture);
  });

  it('round-trips an imported example with its chunk times', () => {
    const capture = importHar(torn.har, { chunksNdjson: torn.ndjson });
    expect(importHar(exportHar(capture, { revealSecrets: true }))).toEqual(capture);
  });

  it('round-trips a page without a title and a capture without a page', () => {
    const capture = sampleCapture();
    capture.page = { url: 'http://127.0.0.1:8080/' };
    expect(importHar(exportHar(capture, { revealSecrets: true }))).toEqual(capture);
    delete capture.page;
    expect(importHar(exportHar(capture, { revealSecrets: true }))).toEqual(capture);
  });

  it('writes standard HAR 1.2 that other tools read: text bodies, base64 where not UTF-8', () => {
    const har = JSON.parse(exportHar(sampleCapture())) as {
      log: {
        version: string;
        creator: unknown;
        pages: { title: string }[];
        entries: Record<string, Record<string, unknown>>[];
      };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'mcp-stream-inspector', version: '0.1.0' });
    expect(har.log.pages[0]!.title).toBe('Demo app');
    const [post, get, aborted] = har.log.entries;
    expect(post!.startedDateTime).toBe('2026-11-29T15:54:48.303Z');
    expect(post!.request!.queryString).toEqual([
      { name: 'debug', value: '1' },
      { name: 'x', value: 'a b' },
    ]);
    expect(post!.request!.postData).toEqual({
      mimeType: 'application/json',
      text: sampleCapture().connections[0]!.requestBody,
    });
    expect(post!.response!.content).toEqual({
      size: 77,
      mimeType: 'text/event-stream',
      text: 'id: 1\ndata: \n\nid: 2\ndata: {"jsonrpc":"2.0","method":"n"}\n\nid: 3\ndata: {"jsonr',
    });
    expect(post!._streamState).toBe('failed');
    expect(post!.response!._error).toBe('net::ERR_INCOMPLETE_CHUNKED_ENCODING');
    expect(post!._chunks).toEqual([
      { t: 1795967688311.6, offset: 0, length: 14 },
      { t: 1795967688561.333, offset: 14, length: 44 },
      { t: 1795967688812.5, offset: 58, length: 19 },
    ]);
    expect(post!.timings!.wait).toBeCloseTo(8.3601, 3);
    expect(get!.response!.content).toEqual({
      size: 8,
      mimeType: 'text/event-stream',
      text: 'ZGF0YTr/Cgo=',
      encoding: 'base64',
    });
    expect(get!._streamState).toBe('open');
    expect(aborted!.response!.status).toBe(0);
    expect(aborted!._streamState).toBe('aborted');
  });
});

/** A minimal HAR entry as a browser writes it, without any of our custom fields. */
function browserEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    startedDateTime: '2026-01-02T03:04:05.100Z',
    time: 50,
    request: { method: 'GET', url: 'https://example.test/mcp', headers: [{ name: 'Last-Event-ID', value: '7' }] },
    response: {
      status: 200,
      statusText: '',
      headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
      content: { size: 9, mimeType: 'text/event-stream', text: 'ZGF0YTogeAoK', encoding: 'base64' },
    },
    timings: { blocked: 2, dns: -1, connect: -1, send: 1, wait: 10, receive: 37 },
    ...overrides,
  };
}

function harWith(...entries: unknown[]): string {
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'Chrome', version: '156' }, entries } });
}

describe('HAR from browsers and proxies', () => {
  it('reads base64 content and sums only the known timing phases', () => {
    const [c] = importHar(harWith(browserEntry())).connections;
    const start = Date.parse('2026-01-02T03:04:05.100Z');
    expect(new TextDecoder().decode(c!.chunks[0]!.bytes)).toBe('data: x\n\n');
    expect(c!.responseTime).toBe(start + 13);
    expect(c!.endTime).toBe(start + 50);
    expect(c!.statusText).toBe('');
    expect(c!.id).toBe('e1');
  });

  it('handles missing and negative totals and timings', () => {
    const [missing, negative] = importHar(
      harWith(browserEntry({ time: undefined, timings: undefined }), browserEntry({ time: -1 })),
    ).connections;
    const start = Date.parse('2026-01-02T03:04:05.100Z');
    expect(missing!.responseTime).toBe(start);
    expect(missing!.endTime).toBe(start);
    expect(negative!.endTime).toBe(start + 50); // blocked + send + wait + receive
  });

  it('reads a request that got no response as a network error, and net::ERR_ABORTED as aborted', () => {
    const noResponse = {
      status: 0,
      statusText: '',
      headers: [],
      content: { size: 0, mimeType: '' },
      _error: 'net::ERR_CONNECTION_REFUSED',
    };
    const abortedResponse = { ...noResponse, _error: 'net::ERR_ABORTED' };
    const [refused, aborted, absent] = importHar(
      harWith(
        browserEntry({ response: noResponse }),
        browserEntry({ response: abortedResponse }),
        browserEntry({ response: undefined }),
      ),
    ).connections;
    expect(refused).toMatchObject({ end: 'network-error', error: 'net::ERR_CONNECTION_REFUSED', chunks: [] });
    expect(refused).not.toHaveProperty('status');
    expect(refused).not.toHaveProperty('responseTime');
    expect(aborted!.end).toBe('aborted');
    expect(absent!.end).toBe('network-error');
  });

  it('honours _streamState spellings and reads postData', () => {
    const post = {
      method: 'POST',
      url: 'https://example.test/mcp',
      headers: [],
      postData: { mimeType: 'application/json', text: '{"id":1}' },
    };
    const [aborted, open] = importHar(
      harWith(browserEntry({ _streamState: 'aborted', request: post }), browserEntry({ _streamState: 'open' })),
    ).connections;
    expect(aborted!.end).toBe('aborted');
    expect(aborted!.requestBody).toBe('{"id":1}');
    expect(open!.end).toBe('open');
    expect(open).not.toHaveProperty('endTime');
  });
});

describe('HAR errors', () => {
  function harError(text: string, options?: { chunksNdjson?: string }): InputError {
    try {
      importHar(text, options);
    } catch (error) {
      if (error instanceof InputError) return error;
      throw error;
    }
    throw new Error('expected importHar to fail');
  }

  it('truncated JSON says where it ends', () => {
    const error = harError(torn.har.slice(0, 5000));
    expect(error.message).toMatch(
      /^the file ends inside log\.entries\[\d+\] \(HAR entry \d+\) at byte 5000: it was cut short$/,
    );
  });

  it.each<[string, string, string, RegExp]>([
    ['not a HAR', '{"entries": []}', 'log', /missing \(expected an object\)/],
    ['no entries', '{"log": {"version": "1.2"}}', 'log.entries', /missing \(expected an array\)/],
    [
      'entry without request',
      harWith(browserEntry(), browserEntry({ request: undefined })),
      'log.entries[1].request',
      /missing \(expected an object\)/,
    ],
    [
      'request without url',
      harWith({ ...browserEntry(), request: { method: 'GET' } }),
      'log.entries[0].request.url',
      /missing/,
    ],
    [
      'bad date',
      harWith(browserEntry({ startedDateTime: 'yesterday' })),
      'log.entries[0].startedDateTime',
      /not an ISO 8601 date: "yesterday"/,
    ],
    [
      'bad base64',
      harWith(
        browserEntry({ response: { status: 200, headers: [], content: { text: 'ZGF0YT*', encoding: 'base64' } } }),
      ),
      'log.entries[0].response.content.text',
      /invalid base64 at character 6: unexpected character "\*"/,
    ],
    [
      'unknown encoding',
      harWith(browserEntry({ response: { status: 200, headers: [], content: { text: 'x', encoding: 'gzip' } } })),
      'log.entries[0].response.content.encoding',
      /unsupported encoding "gzip"/,
    ],
    [
      'body kept outside the HAR (Playwright content: attach)',
      harWith(
        browserEntry({
          response: {
            status: 200,
            headers: [],
            content: { size: 9, mimeType: 'text/event-stream', _file: '75841a.txt' },
          },
        }),
      ),
      'log.entries[0].response.content._file',
      /the body is in a separate file \("75841a.txt"\); record the HAR with embedded content/,
    ],
    [
      'header name missing',
      harWith(browserEntry({ request: { method: 'GET', url: 'u', headers: [{ value: 'v' }] } })),
      'log.entries[0].request.headers[0].name',
      /missing/,
    ],
    [
      'non-contiguous _chunks',
      harWith(
        browserEntry({
          _chunks: [
            { t: 1, offset: 0, length: 4 },
            { t: 2, offset: 5, length: 4 },
          ],
        }),
      ),
      'log.entries[0]._chunks[1].offset',
      /expected offset 4/,
    ],
    [
      'short _chunks',
      harWith(browserEntry({ _chunks: [{ t: 1, offset: 0, length: 4 }] })),
      'log.entries[0]._chunks',
      /chunks cover 4 bytes but the response body has 9/,
    ],
  ])('%s', (_name, text, path, message) => {
    const error = harError(text);
    expect(error.path).toBe(path);
    expect(error.detail).toMatch(message);
  });

  const request = '{"type":"request","entry":1,"tMs":0}';
  it.each<[string, string, string, RegExp]>([
    ['broken line', '{"type":"request","entry":1,"tMs":1}\n{"type":"chunk",', 'line 2', /malformed JSON/],
    [
      'entry out of range',
      '{"type":"request","entry":3,"tMs":1}',
      'line 1.entry',
      /entry 3 does not exist \(the HAR has 1 entries\)/,
    ],
    [
      'chunk beyond the body',
      `${request}\n{"type":"chunk","entry":1,"tMs":1,"offset":0,"length":20}`,
      'line 2',
      /chunk ends at byte 20 but the response body has 9 bytes/,
    ],
    [
      'chunks not covering the body',
      `${request}\n{"type":"chunk","entry":1,"tMs":1,"offset":0,"length":3}\n\n{"type":"chunk","entry":1,"tMs":2,"offset":3,"length":3}`,
      'line 4',
      /chunks cover 6 bytes but the response body has 9/,
    ],
    [
      'gap between chunks',
      `${request}\n{"type":"chunk","entry":1,"tMs":1,"offset":0,"length":3}\n{"type":"chunk","entry":1,"tMs":2,"offset":4,"length":5}`,
      'line 3.offset',
      /expected offset 3/,
    ],
    ['chunk without time', '{"type":"chunk","entry":1,"offset":0,"length":9}', 'line 1.t', /missing/],
  ])('chunks.ndjson: %s', (_name, ndjson, path, message) => {
    const error = harError(harWith(browserEntry()), { chunksNdjson: ndjson });
    expect(error.path).toBe(path);
    expect(error.detail).toMatch(message);
  });
});
