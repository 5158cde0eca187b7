import { describe, expect, it } from 'vitest';
import { BodyRewriter } from './body-rewriter';
import { findIdSites } from './json-sites';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const sites = (text: string) =>
  findIdSites(bytes(text), 0, bytes(text).length).map((s) => [s.kind, s.value, text.slice(s.start, s.end)]);

describe('id sites', () => {
  it('finds a response id, a server request id and a progress token, nothing in nested objects', () => {
    expect(sites('{"result":{"id":5,"content":[]},"jsonrpc":"2.0","id":12}')).toEqual([['response-id', 12, '12']]);
    expect(sites('{"method":"elicitation/create","params":{"id":3},"jsonrpc":"2.0","id":0}')).toEqual([
      ['request-id', 0, '0'],
    ]);
    expect(sites('{"method":"notifications/progress","params":{"progressToken":"a\\"b","progress":1}}')).toEqual([
      ['progress-token', 'a"b', '"a\\"b"'],
    ]);
    expect(sites('[{"jsonrpc":"2.0","id":"x","result":{}},{"jsonrpc":"2.0","id":2,"error":{}}]')).toEqual([
      ['response-id', 'x', '"x"'],
      ['response-id', 2, '2'],
    ]);
  });

  it('in a message cut short, keeps what was whole before the cut and never a value the cut went through', () => {
    expect(sites('{"method":"notifications/progress","params":{"progressToken":7,"progress":3,"mess')).toEqual([
      ['progress-token', 7, '7'],
    ]);
    expect(sites('{"jsonrpc":"2.0","id":4')).toEqual([]);
    expect(sites('{"jsonrpc":"2.0","id":4,"res')).toEqual([['response-id', 4, '4']]);
  });
});

describe('body rewriter', () => {
  const body = bytes('data: {"id":1}\n\n');
  const idStart = body.indexOf(0x31);
  const span = (to: string | undefined) => ({
    spans: [{ start: idStart, end: idStart + 1 }],
    replace: () => (to === undefined ? undefined : bytes(to)),
  });
  const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c));

  it('keeps the recorded chunk ends when nothing is replaced', () => {
    const rewriter = new BodyRewriter(body, span(undefined));
    expect(text([rewriter.take(idStart), rewriter.take(body.length)])).toEqual(['data: {"id":', '1}\n\n']);
  });

  it('moves a chunk end that falls inside a replaced span to its end', () => {
    const rewriter = new BodyRewriter(body, span('1234'));
    expect(text([rewriter.take(idStart), rewriter.take(body.length)])).toEqual(['data: {"id":', '1234}\n\n']);
    const inside = new BodyRewriter(bytes('{"id":12}'), {
      spans: [{ start: 6, end: 8 }],
      replace: () => bytes('"z"'),
    });
    expect(text([inside.take(7), inside.take(9)])).toEqual(['{"id":"z"', '}']);
  });
});
