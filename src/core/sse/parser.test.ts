import { describe, expect, it } from 'vitest';
import { SseParser, parseSse } from './index';
import { bytesOf, chunkFree, concatBytes, parseChunks, parseEveryWay, pickKeysOf } from './test-support';
import type { SseEvent, SseTail } from './types';

/** What a reader of the stream sees of an event (offsets are checked separately). */
type Seen = Pick<SseEvent, 'type' | 'data' | 'lastEventId'> & Partial<Pick<SseEvent, 'hasId' | 'retry'>>;

interface Vector {
  name: string;
  input: string | Uint8Array;
  events: Seen[];
  /** Undefined: no tail expected. Otherwise the tail's fields (bytes and start are checked elsewhere). */
  tail?: Partial<SseTail>;
}

const msg = (data: string, more: Partial<Seen> = {}): Seen => ({ type: 'message', data, lastEventId: '', ...more });

function seen(event: SseEvent, expected: Seen): Seen {
  const out: Seen = { type: event.type, data: event.data, lastEventId: event.lastEventId };
  if ('hasId' in expected) out.hasId = event.hasId;
  if ('retry' in expected) out.retry = event.retry;
  return out;
}

/** One vector per rule of "interpreting an event stream", plus the parser's own additions. */
const vectors: Vector[] = [
  { name: 'one event, LF line ends', input: 'data: hello\n\n', events: [msg('hello', { hasId: false })] },
  { name: 'CR line ends', input: 'data: a\rdata: b\r\r', events: [msg('a\nb')] },
  { name: 'CRLF line ends', input: 'data: a\r\ndata: b\r\n\r\n', events: [msg('a\nb')] },
  { name: 'mixed line ends', input: 'data: a\r\ndata: b\rdata: c\n\r\n', events: [msg('a\nb\nc')] },
  { name: 'CR then LF is one line end, not a blank line', input: 'data: a\r\ndata: b\n\n', events: [msg('a\nb')] },
  { name: 'comments are ignored', input: ': hi\ndata: x\n:another\n\n', events: [msg('x')] },
  { name: 'a comment alone dispatches nothing', input: ': keepalive\n\n', events: [] },
  { name: 'field without colon: data with empty value', input: 'data\n\n', events: [msg('')] },
  { name: 'two colon-less data lines give one LF', input: 'data\ndata\n\n', events: [msg('\n')] },
  { name: 'colon-less event field resets the type', input: 'event\ndata: x\n\n', events: [msg('x')] },
  { name: 'one leading space is stripped', input: 'data: x\n\n', events: [msg('x')] },
  { name: 'only one leading space is stripped', input: 'data:  two\n\n', events: [msg(' two')] },
  { name: 'no space after the colon', input: 'data:x\n\n', events: [msg('x')] },
  { name: 'a tab is not stripped', input: 'data:\tx\n\n', events: [msg('\tx')] },
  { name: 'colons inside the value are kept', input: 'data: a:b: c\n\n', events: [msg('a:b: c')] },
  { name: 'empty data value dispatches ""', input: 'data:\n\n', events: [msg('')] },
  { name: 'data with only a space dispatches ""', input: 'data: \n\n', events: [msg('')] },
  { name: 'multi-line data is joined with LF', input: 'data: a\ndata: b\ndata: c\n\n', events: [msg('a\nb\nc')] },
  { name: 'a trailing empty data line keeps its LF', input: 'data: a\ndata:\n\n', events: [msg('a\n')] },
  {
    name: 'event type applies to one event only',
    input: 'event: progress\ndata: 1\n\ndata: 2\n\n',
    events: [{ type: 'progress', data: '1', lastEventId: '' }, msg('2')],
  },
  { name: 'event type resets at a blank line even without data', input: 'event: x\n\ndata: 1\n\n', events: [msg('1')] },
  { name: 'empty event value means "message"', input: 'event:\ndata: 1\n\n', events: [msg('1')] },
  {
    name: 'last event id persists across events',
    input: 'id: 7\ndata: a\n\ndata: b\n\n',
    events: [msg('a', { lastEventId: '7', hasId: true }), msg('b', { lastEventId: '7', hasId: false })],
  },
  {
    name: 'id is kept even when its event is not dispatched',
    input: 'id: 9\n\ndata: a\n\n',
    events: [msg('a', { lastEventId: '9', hasId: false })],
  },
  {
    name: 'an empty id resets the last event id',
    input: 'id: 1\ndata: a\n\nid\ndata: b\n\n',
    events: [msg('a', { lastEventId: '1', hasId: true }), msg('b', { lastEventId: '', hasId: true })],
  },
  {
    name: 'an id containing U+0000 is ignored',
    input: 'id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\n',
    events: [msg('a', { lastEventId: '1', hasId: true }), msg('b', { lastEventId: '1', hasId: false })],
  },
  { name: 'U+0000 in data is kept', input: 'data:\u0000\n\n', events: [msg('\u0000')] },
  {
    name: 'retry with digits is reported on its event only',
    input: 'retry: 0300\ndata: a\n\ndata: b\n\n',
    events: [msg('a', { retry: 300 }), msg('b', { retry: undefined })],
  },
  {
    name: 'retry with non-digits is ignored',
    input:
      'retry: 1000x\ndata: a\n\nretry: -5\ndata: b\n\nretry: 1.5\ndata: c\n\nretry:\ndata: d\n\nretry\ndata: e\n\n',
    events: ['a', 'b', 'c', 'd', 'e'].map((d) => msg(d, { retry: undefined })),
  },
  {
    name: 'unknown fields are ignored, names are case-sensitive',
    input: 'foo: bar\nData: b\ndata : c\n  \ndata: a\n\n',
    events: [msg('a')],
  },
  {
    name: 'an event without its blank line is not dispatched at end of stream',
    input: 'data: a\n\ndata: b',
    events: [msg('a')],
    tail: { dataLines: [], pendingLine: 'data: b', hasData: true },
  },
  {
    name: 'an event with a complete data line but no blank line is not dispatched',
    input: 'data: a\n\ndata: b\n',
    events: [msg('a')],
    tail: { dataLines: ['b'], pendingLine: '', hasData: true },
  },
  { name: 'a leading BOM is stripped', input: '\uFEFFdata: a\n\n', events: [msg('a')] },
  {
    name: 'only one BOM is stripped: a second one starts the field name',
    input: '\uFEFF\uFEFFdata: a\n\ndata: b\n\n',
    events: [msg('b')],
  },
  { name: 'a BOM inside the stream is data', input: 'data: \uFEFFx\n\n', events: [msg('\uFEFFx')] },
  {
    name: 'UTF-8 text',
    input: 'event: é\ndata: 処理 ✓ 😀\n\n',
    events: [{ type: 'é', data: '処理 ✓ 😀', lastEventId: '' }],
  },
  {
    name: 'invalid UTF-8 becomes U+FFFD',
    input: concatBytes('data: ', [0xff], 'x', [0xe2, 0x82], '\n', 'data: ', [0xf0, 0x9f, 0x98], '\n\n'),
    events: [msg('\uFFFDx\uFFFD\n\uFFFD')],
  },
  {
    name: 'an incomplete sequence before a colon does not eat it',
    input: concatBytes('data', [0xe2], ': x\n', 'data: y\n\n'),
    events: [msg('y')],
  },
  { name: 'blank lines before any field dispatch nothing', input: '\n\r\n\rdata: a\n\n\n\n', events: [msg('a')] },
  {
    name: 'two events in a row',
    input: 'event: message\nid: 1\ndata: {"a":1}\n\nevent: message\nid: 2\ndata: {"a":2}\n\n',
    events: [msg('{"a":1}', { lastEventId: '1', hasId: true }), msg('{"a":2}', { lastEventId: '2', hasId: true })],
  },
];

describe('SseParser rules, each stream fed whole, byte by byte and in random chunks', () => {
  for (const vector of vectors) {
    it(vector.name, () => {
      const bytes = typeof vector.input === 'string' ? bytesOf(vector.input) : vector.input;
      const { result, problems } = parseEveryWay(bytes);
      expect(problems).toEqual([]);
      expect(result.events.map((e, i) => seen(e, vector.events[i] ?? msg('')))).toEqual(vector.events);
      expect(pickKeysOf(result.tail, vector.tail)).toEqual(vector.tail);
    });
  }
});

describe('SseParser state getters', () => {
  it('lastEventId follows the spec: set at blank lines, not by a torn event', () => {
    const parser = new SseParser();
    parser.push(bytesOf('id: 1\ndata: a\n\n'));
    expect(parser.lastEventId).toBe('1');
    parser.push(bytesOf('id: 2\ndata: torn'));
    expect(parser.lastEventId).toBe('1');
    expect(parser.tail?.id).toBe('2');
    parser.push(bytesOf('\n\n'));
    expect(parser.lastEventId).toBe('2');
  });

  it('reconnectionTime keeps the last valid retry, bytesRead counts every byte', () => {
    const parser = new SseParser();
    expect(parser.reconnectionTime).toBeUndefined();
    parser.push(bytesOf('\uFEFFretry: 2500\n\n'));
    parser.push(new Uint8Array(0));
    parser.push(bytesOf('retry: soon\ndata: x\n\n'));
    expect(parser.reconnectionTime).toBe(2500);
    expect(parser.bytesRead).toBe(3 + 13 + 21); // BOM, 'retry: 2500\n\n', 'retry: soon\ndata: x\n\n'
  });

  it('refuses input after finish()', () => {
    const parser = new SseParser();
    parser.finish();
    expect(() => parser.push(bytesOf('data: x\n\n'))).toThrow(/after finish/);
  });

  it('parseSse leaves out the tail when nothing is pending', () => {
    expect(parseSse([bytesOf('data: a\n\n')])).toEqual({ events: [expect.objectContaining({ data: 'a' })] });
    expect(parseSse([bytesOf('data: a\n\nid: 3\n')]).tail).toMatchObject({ id: '3', hasData: false });
  });
});

describe('SseParser byte offsets and chunk indexes', () => {
  it('reports where each event lies across chunks (comments count, blank-line-only regions do not)', () => {
    const chunks = [
      'id: 1\ndata: ab', // 0..13
      'c\n\n: ping\n\ndata: x\n', // 14..32: event 1 ends at 17; ": ping" then a blank line dispatch nothing
      '\n: c\nevent: e\ndata: y\n\n', // 33..55
    ].map(bytesOf);
    const parsed = parseChunks(chunks);
    expect(
      parsed.events.map(({ data, start, end, firstChunk, lastChunk }) => ({ data, start, end, firstChunk, lastChunk })),
    ).toEqual([
      { data: 'abc', start: 0, end: 17, firstChunk: 0, lastChunk: 1 },
      { data: 'x', start: 25, end: 34, firstChunk: 1, lastChunk: 2 },
      { data: 'y', start: 34, end: 56, firstChunk: 2, lastChunk: 2 },
    ]);
    expect(parsed.tail).toBeUndefined();
  });

  it('names the chunk, not the slice, when a chunk is pushed in parts (continues)', () => {
    const chunks = ['id: 1\ndata: ab', 'c\n\n: ping\n\ndata: x\n', '\n: c\nevent: e\ndata: y\n\ndata: torn'].map(
      bytesOf,
    );
    const whole = parseChunks(chunks);
    const parser = new SseParser();
    const events = chunks.flatMap((chunk) => [
      ...parser.push(chunk.subarray(0, 3)),
      ...parser.push(chunk.subarray(3, 7), true),
      ...parser.push(chunk.subarray(7), true),
    ]);
    expect(events).toEqual(whole.events);
    expect(parser.tail).toEqual(whole.tail);
    expect(parser.tail).toMatchObject({ start: 56, pendingLine: 'data: torn' });
  });

  it('counts a stripped BOM in offsets', () => {
    const [event] = parseSse([bytesOf('\uFEFFdata: a\n\n')]).events;
    expect(event).toMatchObject({ start: 3, end: 12 }); // 3 + 'data: a\n\n'
  });

  it('ends a CRLF event just past the CR of its blank line, however the stream is cut', () => {
    const stream = bytesOf('data: a\r\n\r\ndata: b\r\n\r\n');
    const { result, problems } = parseEveryWay(stream);
    expect(problems).toEqual([]);
    expect(result.events.map(({ start, end }) => [start, end])).toEqual([
      [0, 10],
      [11, 21],
    ]);
  });

  it('tracks offsets in non-ASCII streams', () => {
    const stream = bytesOf('data: é\n\ndata: 処理\n\n');
    const { result, problems } = parseEveryWay(stream);
    expect(problems).toEqual([]);
    expect(result.events.map(({ data, start, end }) => [data, start, end])).toEqual([
      ['é', 0, 10],
      ['処理', 10, 24],
    ]);
  });
});

describe('SseParser chunk boundaries', () => {
  it('parses a chunk bigger than its 64 KiB decoding slices as it parses any chunking of it', () => {
    const SLICE = 64 * 1024;
    // A CRLF whose CR ends the first slice, a 4-byte character across the second slice's end, an event longer
    // than a slice, and a tail left open in the last slice.
    const head = 'data: a\r\n';
    const first = `data: ${'x'.repeat(SLICE - head.length - 'data: '.length - 1)}\r\n\r\n`;
    const emoji = `data: ${'y'.repeat(SLICE - 11)}😀z\n\n`;
    const long = `id: 7\ndata: ${'w€'.repeat(SLICE)}\n\n`;
    const stream = bytesOf(`${head}${first}${emoji}${long}data: torn`);
    expect(stream[SLICE - 1]).toBe(13);
    expect(stream.subarray(2 * SLICE - 2, 2 * SLICE + 2)).toEqual(bytesOf('😀'));
    const whole = parseChunks([stream]);
    expect(whole.events.map((e) => [e.data.length, e.firstChunk, e.lastChunk])).toEqual([
      [1 + 1 + first.length - 'data: '.length - 4, 0, 0],
      [SLICE - 11 + 3, 0, 0],
      [2 * SLICE, 0, 0],
    ]);
    expect(whole.events[0]?.data).toBe(`a\n${'x'.repeat(first.length - 'data: '.length - 4)}`);
    expect(whole.events[1]?.data.endsWith('😀z')).toBe(true);
    expect(whole.tail?.pendingLine).toBe('data: torn');
    const { result, problems } = parseEveryWay(stream, [1, 2]);
    expect(problems).toEqual([]);
    expect(chunkFree(result.events)).toEqual(chunkFree(whole.events));
  });

  it('resyncs at a capture gap: the event cut into is dropped, the next blank line ends the skip, offsets go on', () => {
    const parser = new SseParser();
    const before = parser.push(bytesOf('id: 1\ndata: one\n\nid: 2\ndata: tw'));
    parser.resync();
    // The bytes after the gap start inside another event (its id and the start of its data were lost).
    const after = parser.push(bytesOf('o of event 7\nid: 7\n\nid: 8\ndata: eight\n\n'));
    expect(before.map((e) => [e.data, e.lastEventId])).toEqual([['one', '1']]);
    expect(after.map((e) => [e.data, e.lastEventId, e.start, e.end])).toEqual([['eight', '8', 51, 70]]);
    expect(parser.lastEventId).toBe('8');
    expect(parser.finish()).toBeUndefined();
  });

  it('resyncs at a gap cutting a UTF-8 sequence: nothing of it leaks into what follows, whose offsets stay exact', () => {
    const parser = new SseParser();
    const first = parser.push(concatBytes('data: a\r\n\r\ndata: x', [0xe2, 0x82]));
    parser.resync();
    const next = parser.push(bytesOf('\n\ndata: b€\n\n'));
    expect(first.map((e) => e.data)).toEqual(['a']);
    expect(next.map((e) => [e.data, e.start, e.end])).toEqual([['b€', 22, 34]]);
  });

  it('a stream that ends inside the skip after a gap leaves no torn tail (the gap, not the server, cut it)', () => {
    const parser = new SseParser();
    parser.push(bytesOf('data: a\n\n'));
    parser.resync();
    parser.push(bytesOf('partial line\ndata: more'));
    expect(parser.finish()).toBeUndefined();
  });

  it('decodes a UTF-8 sequence split across chunks, at every split point', () => {
    const stream = bytesOf('data: x€😀y\n\n');
    for (let cut = 1; cut < stream.length; cut++) {
      const events = parseChunks([stream.slice(0, cut), stream.slice(cut)]).events;
      expect(events.map((e) => e.data)).toEqual(['x€😀y']);
    }
  });

  it('replaces an invalid sequence split across chunks with one U+FFFD', () => {
    const events = parseChunks([concatBytes('data: a', [0xe2]), concatBytes([0x82], 'b\n\n')]).events;
    expect(events.map((e) => e.data)).toEqual([new TextDecoder().decode(concatBytes('a', [0xe2, 0x82], 'b'))]);
    expect(events[0]?.data).toBe('a\uFFFDb');
  });

  it('strips a BOM split across three chunks', () => {
    const parsed = parseChunks([[0xef], [0xbb], concatBytes([0xbf], 'data: a\n\n')].map((c) => Uint8Array.from(c)));
    expect(parsed.events).toMatchObject([{ data: 'a', start: 3, end: 12, firstChunk: 2 }]);
  });

  it('keeps a BOM prefix that turns out not to be a BOM, as content', () => {
    const parsed = parseChunks([Uint8Array.from([0xef, 0xbb]), bytesOf('data: a\n\ndata: b\n\n')]);
    // The first line is "\uFFFDdata: a": an unknown field, so only "b" is dispatched.
    expect(parsed.events.map((e) => e.data)).toEqual(['b']);
    const torn = parseChunks([Uint8Array.from([0xef, 0xbb])]);
    expect(torn.tail).toMatchObject({ start: 0, pendingLine: '\uFFFD', hasData: false });
  });

  it('treats a CR ending one chunk and a LF starting the next as one line end', () => {
    const parsed = parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n'].map(bytesOf));
    // The blank line is the CR at offset 18; the LF after it (offset 19, chunk 3) belongs to no event.
    expect(parsed.events).toMatchObject([{ data: 'a\nb', start: 0, end: 19, firstChunk: 0, lastChunk: 2 }]);
    expect(parsed.tail).toBeUndefined();
  });

  it('dispatches on a lone CR at the end of a chunk without waiting for the next one', () => {
    const parser = new SseParser();
    expect(parser.push(bytesOf('data: a\r\r'))).toMatchObject([{ data: 'a', end: 9 }]);
  });

  it('reassembles a 1 MB data line cut into 1 KiB chunks, ASCII and not', () => {
    for (const unit of ['0123456789abcdef', 'é処😀x']) {
      const value = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const stream = bytesOf(`id: big\ndata: ${value}\n\n`);
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < stream.length; i += 1024) chunks.push(stream.slice(i, i + 1024));
      const parsed = parseChunks(chunks);
      expect(parsed.events).toHaveLength(1);
      expect(parsed.events[0]!.data === value).toBe(true);
      expect(parsed.events[0]).toMatchObject({
        start: 0,
        end: stream.length,
        firstChunk: 0,
        lastChunk: chunks.length - 1,
      });
    }
  });
});

describe('SseParser undispatched tail', () => {
  it('torn in the middle of a data line', () => {
    const stream = 'data: done\n\nevent: message\nid: 5\ndata: {"jsonrpc":';
    const tail = parseSse([bytesOf(stream)]).tail;
    expect(tail).toEqual({
      start: 12,
      bytes: bytesOf('event: message\nid: 5\ndata: {"jsonrpc":'),
      type: 'message',
      id: '5',
      dataLines: [],
      pendingLine: 'data: {"jsonrpc":',
      hasData: true,
    });
  });

  it('torn after a complete data line', () => {
    const tail = parseSse([bytesOf('id: 5\nretry: 100\ndata: {}\ndata: []\n')]).tail;
    expect(tail).toEqual({
      start: 0,
      bytes: bytesOf('id: 5\nretry: 100\ndata: {}\ndata: []\n'),
      id: '5',
      retry: 100,
      dataLines: ['{}', '[]'],
      pendingLine: '',
      hasData: true,
    });
  });

  it('torn after only an id line: a tail without data', () => {
    const tail = parseSse([bytesOf('data: a\n\nid: 6\n')]).tail;
    expect(tail).toEqual({
      start: 9,
      bytes: bytesOf('id: 6\n'),
      id: '6',
      dataLines: [],
      pendingLine: '',
      hasData: false,
    });
  });

  it('a pending line that will be a data field counts as data; a shorter prefix does not', () => {
    expect(parseSse([bytesOf('data')]).tail).toMatchObject({ pendingLine: 'data', hasData: true });
    expect(parseSse([bytesOf('da')]).tail).toMatchObject({ pendingLine: 'da', hasData: false });
  });

  it('no tail when only comments, blank or whitespace lines are left', () => {
    expect(parseSse([bytesOf('data: a\n\n: keepalive\n: more\n')]).tail).toBeUndefined();
    expect(parseSse([bytesOf('data: a\n\n: keep')]).tail).toBeUndefined();
    expect(parseSse([bytesOf('data: a\n\n  \n\t')]).tail).toBeUndefined();
    expect(parseSse([bytesOf('data: a\n\n')]).tail).toBeUndefined();
  });

  it('comments before the torn field are part of its region', () => {
    expect(parseSse([bytesOf(': ping\ndata: x')]).tail).toMatchObject({ start: 0, bytes: bytesOf(': ping\ndata: x') });
  });

  it('an unfinished UTF-8 sequence ends the pending line as U+FFFD', () => {
    const tail = parseSse([concatBytes('data: caf', [0xc3])]).tail;
    expect(tail).toMatchObject({ pendingLine: 'data: caf\uFFFD', hasData: true });
  });

  it('is visible at any moment, and holds only the undispatched bytes', () => {
    const parser = new SseParser();
    parser.push(bytesOf('data: first\n\n'.repeat(1000)));
    parser.push(bytesOf('event: message\nda'));
    expect(parser.tail).toMatchObject({ start: 13000, type: 'message', pendingLine: 'da', hasData: false });
    expect(parser.tail?.bytes).toEqual(bytesOf('event: message\nda'));
    parser.push(bytesOf('ta: x'));
    expect(parser.tail).toMatchObject({ pendingLine: 'data: x', hasData: true });
    expect(parser.push(bytesOf('\n\n'))).toHaveLength(1);
    expect(parser.tail).toBeUndefined();
  });

  it('does not depend on the caller keeping earlier tails intact', () => {
    const parser = new SseParser();
    parser.push(bytesOf('data: a\ndata: b'));
    const first = parser.tail!;
    first.dataLines.push('mutated');
    first.bytes.fill(0);
    expect(parser.tail).toMatchObject({ dataLines: ['a'], pendingLine: 'data: b' });
    expect(parser.tail?.bytes).toEqual(bytesOf('data: a\ndata: b'));
  });
});

describe('SseParser long data lines', () => {
  it('keeps a long data line as its decoded parts (dataPartsOf), its data the same text, however chunked', () => {
    const value = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'é "x"\n'.repeat(60_000) } });
    const stream = bytesOf(
      `id: 1\ndata: ${value}\n\ndata: small\n\ndata: a\ndata: ${value}\n\n: ${value}\ndata: b\n\n`,
    );
    for (const size of [1000, 4099, 65536, 300_000, stream.length]) {
      const parser = new SseParser();
      const events: SseEvent[] = [];
      for (let i = 0; i < stream.length; i += size) events.push(...parser.push(stream.subarray(i, i + size)));
      expect(events.map((e) => e.data)).toEqual([value, 'small', `a\n${value}`, 'b']);
      const [long, small, twoLines, afterComment] = events as [SseEvent, SseEvent, SseEvent, SseEvent];
      expect(parser.dataPartsOf(long)?.join('')).toBe(value);
      // Only an event whose data is that one line has parts.
      for (const e of [small, twoLines, afterComment]) expect(parser.dataPartsOf(e)).toBeUndefined();
    }
  });
});
