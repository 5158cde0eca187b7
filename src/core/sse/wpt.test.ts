import { describe, expect, it } from 'vitest';
import { SseParser } from './parser';
import { concatBytes, parseEveryWay } from './test-support';
import type { SseEvent } from './types';

/*
 * The expectations of web-platform-tests eventsource/format-* (github.com/web-platform-tests/wpt),
 * restated as data: the body each test's server sends and the events an EventSource must dispatch.
 * WPT's resources/message.py answers `message + "\n\n" + "\n"`, or `message + "\n"` with newline=none;
 * the bodies below include that suffix.
 * Not ported: format-mime-bogus, format-mime-trailing-semicolon, format-mime-valid-bogus (Content-Type
 * checks, not parsing), and the second halves of format-field-id, -id-2, -id-null and
 * -data-before-final-empty-line, which check what EventSource sends and keeps when it reconnects.
 * format-field-id-null follows the current spec (an id containing U+0000 is ignored); an older WPT
 * revision expected "\0\0" as lastEventId.
 */

type Expected = Pick<SseEvent, 'type' | 'data' | 'lastEventId'> & { retry?: number };

interface WptCase {
  test: string;
  body: Uint8Array;
  events: Expected[];
  reconnectionTime?: number;
}

const BOM = [0xef, 0xbb, 0xbf];
const message = (data: string, lastEventId = '', more: Partial<Expected> = {}): Expected => ({
  type: 'message',
  data,
  lastEventId,
  ...more,
});
const x2048 = 'x'.repeat(2048);

const cases: WptCase[] = [
  {
    test: 'format-bom: the BOM is stripped at stream start only; a later BOM spoils its line',
    body: concatBytes(BOM, 'data:1\n\n', BOM, 'data:2\n\ndata:3', '\n\n\n'),
    events: [message('1'), message('3')],
  },
  {
    test: 'format-bom-2: of two leading BOMs only one is stripped',
    body: concatBytes(BOM, BOM, 'data:1\n\ndata:2\n\ndata:3', '\n\n\n'),
    events: [message('2'), message('3')],
  },
  {
    test: 'format-comments: comments with NUL, CR and long lines are skipped',
    body: concatBytes(`data:1\r:\0\n:\r\ndata:2\n:${x2048}\rdata:3\n:data:fail\r:${x2048}\ndata:4\n`, '\n'),
    events: [message('1\n2\n3\n4')],
  },
  {
    test: 'format-data-before-final-empty-line: the last event has no blank line, so it is not dispatched',
    body: concatBytes('retry:1000\ndata:test1\n\nid:test\ndata:test2', '\n'),
    events: [message('test1', '', { retry: 1000 })],
    reconnectionTime: 1000,
  },
  {
    test: 'format-field-data: "data:" gives "", two bare "data" lines give one LF',
    body: concatBytes('data:\n\ndata\ndata\n\ndata:test', '\n\n\n'),
    events: [message(''), message('\n'), message('test')],
  },
  {
    test: 'format-field-event-empty: an empty event field keeps the type "message"',
    body: concatBytes('event: \ndata:data', '\n\n\n'),
    events: [message('data')],
  },
  {
    test: 'format-field-event: a custom type, then back to "message"',
    body: concatBytes('event:test\ndata:x\n\ndata:x', '\n\n\n'),
    events: [{ type: 'test', data: 'x', lastEventId: '' }, message('x')],
  },
  {
    test: 'format-field-id / format-field-id-2: a non-ASCII id becomes lastEventId',
    body: concatBytes('id: …\nretry: 200\ndata: hello\n\n'),
    events: [message('hello', '…', { retry: 200 })],
    reconnectionTime: 200,
  },
  {
    test: 'format-field-id-3 (persists): the id stays for later events',
    body: concatBytes('id: 1\ndata: 1\n\ndata:2\n\n'),
    events: [message('1', '1'), message('2', '1')],
  },
  {
    test: 'format-field-id-3 (changes and persists)',
    body: concatBytes('id: 1\ndata: 1\n\nid: 2\ndata:2\n\ndata:3\n\n'),
    events: [message('1', '1'), message('2', '2'), message('3', '2')],
  },
  {
    test: 'format-field-id-3 (resets): an empty id clears it',
    body: concatBytes('id: 1\ndata: 1\n\nid:\ndata:2\n\ndata:3\n\n'),
    events: [message('1', '1'), message('2', ''), message('3', '')],
  },
  {
    test: 'format-field-id-null: an id with U+0000 is ignored',
    body: concatBytes('id: \0\0\nretry: 200\ndata: hello\n\n'),
    events: [message('hello', '', { retry: 200 })],
    reconnectionTime: 200,
  },
  {
    test: 'format-field-parsing: only exact "data" fields count; NUL, case and extra characters spoil a name',
    body: concatBytes(
      'data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n',
      '\n',
    ),
    events: [message('\0\n 2\n1\n3\n\n4')],
  },
  {
    test: 'format-field-retry: retry digits are decimal, leading zeros included',
    body: concatBytes('retry:02000\ndata:x', '\n\n\n'),
    events: [message('x', '', { retry: 2000 })],
    reconnectionTime: 2000,
  },
  {
    test: 'format-field-retry-bogus: a retry with a non-digit is ignored, the earlier one stays',
    body: concatBytes('retry:2000\nretry:1000x\ndata:x', '\n\n\n'),
    events: [message('x', '', { retry: 2000 })],
    reconnectionTime: 2000,
  },
  {
    test: 'format-field-retry-empty: a bare "retry" line is ignored',
    body: concatBytes('retry\ndata:test', '\n\n\n'),
    events: [message('test')],
  },
  {
    test: 'format-field-unknown: unknown fields, text and comments are ignored',
    body: concatBytes('data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test', '\n\n\n'),
    events: [message('test\n\ntest')],
  },
  {
    test: 'format-leading-space: a tab is kept, one space is stripped',
    body: concatBytes('data:\ttest\rdata: \ndata:test', '\n\n\n'),
    events: [message('\ttest\n\ntest')],
  },
  {
    test: 'format-newlines: CRLF, LF and CR all end lines',
    body: concatBytes('data:test\r\ndata\ndata:test\r\n\r', '\n'),
    events: [message('test\n\ntest')],
  },
  {
    test: 'format-null-character: U+0000 in data is delivered',
    body: concatBytes('data:\0\n\n', '\n\n\n'),
    events: [message('\0')],
  },
  {
    test: 'format-utf-8: the stream is UTF-8 whatever the Content-Type says',
    body: concatBytes('data:ok', [0xe2, 0x80, 0xa6], '\n\n\n'),
    events: [message('ok…')],
  },
];

describe('web-platform-tests eventsource format expectations', () => {
  for (const c of cases) {
    it(c.test, () => {
      const { result, problems } = parseEveryWay(c.body);
      expect(problems).toEqual([]);
      const got = result.events.map((e): Expected => {
        const out: Expected = { type: e.type, data: e.data, lastEventId: e.lastEventId };
        if (e.retry !== undefined) out.retry = e.retry;
        return out;
      });
      expect(got).toEqual(c.events);
      const parser = new SseParser();
      parser.push(c.body);
      expect(parser.reconnectionTime).toBe(c.reconnectionTime);
    });
  }

  it('format-data-before-final-empty-line: the undispatched event is the tail', () => {
    const body = concatBytes('retry:1000\ndata:test1\n\nid:test\ndata:test2', '\n');
    expect(parseEveryWay(body).result.tail).toMatchObject({ id: 'test', dataLines: ['test2'], hasData: true });
  });
});
