import { describe, expect, it } from 'vitest';
import { LIMITS, parseTapDetail, validateTapMessage } from './validate';

const start = {
  kind: 'start',
  conn: {
    id: 'ab12-1',
    source: 'fetch',
    method: 'POST',
    url: 'http://127.0.0.1:8080/mcp',
    requestHeaders: [{ name: 'mcp-session-id', value: 's1' }],
    requestBody: '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
    startTime: 1_764_000_000_000.25,
    documentUrl: 'http://127.0.0.1:8080/',
  },
};
const response = {
  kind: 'response',
  id: 'ab12-1',
  status: 200,
  statusText: 'OK',
  responseHeaders: [],
  responseTime: 1_764_000_000_001,
};
const chunk = { kind: 'chunk', id: 'ab12-1', t: 1_764_000_000_002, b64: btoa('data: {}\n\n') };
const end = { kind: 'end', id: 'ab12-1', end: 'complete', endTime: 1_764_000_000_003 };

function message(deltas: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { source: 'mcp-stream-inspector/tap', instance: 'ab12', deltas, ...extra };
}

describe('validateTapMessage', () => {
  it('accepts what the tap sends, rebuilt field by field', () => {
    const result = validateTapMessage(message([start, response, chunk, end]));
    expect(result).toEqual(message([start, response, chunk, end]));
  });

  it('drops fields it does not know (no smuggling through extra properties)', () => {
    const result = validateTapMessage(message([{ ...chunk, more: true, html: '<img onerror>' }], { extra: 1 }));
    expect(result?.deltas).toEqual([chunk]);
    expect(result).not.toHaveProperty('extra');
  });

  it('refuses other senders and wrong shapes', () => {
    expect(validateTapMessage(null)).toBeNull();
    expect(validateTapMessage('hello')).toBeNull();
    expect(validateTapMessage([])).toBeNull();
    expect(validateTapMessage({ ...(message([]) as object), source: 'someone-else' })).toBeNull();
    expect(validateTapMessage(message([{ kind: 'explode' }]))).toBeNull();
    expect(validateTapMessage(message([{ ...response, status: '200' }]))).toBeNull();
    expect(validateTapMessage(message([{ ...response, status: 2000 }]))).toBeNull();
    expect(validateTapMessage(message([{ ...end, end: 'open' }]))).toBeNull();
    expect(validateTapMessage(message([{ ...chunk, t: Number.NaN }]))).toBeNull();
    expect(validateTapMessage(message([{ ...chunk, t: -1 }]))).toBeNull();
    expect(
      validateTapMessage(message([{ ...start, conn: { ...start.conn, requestHeaders: [{ name: 1, value: 'x' }] } }])),
    ).toBeNull();
  });

  it('refuses fake ids, sources a page cannot have and methods that are not tokens', () => {
    expect(validateTapMessage(message([{ ...chunk, id: '../../x' }]))).toBeNull();
    // The top frame must not pose as subframe 3, whose ids the background scopes as "f3.<id>".
    expect(validateTapMessage(message([{ ...chunk, id: 'f3.ab12-1' }]))).toBeNull();
    expect(validateTapMessage(message([{ ...chunk, id: 'x'.repeat(LIMITS.idChars + 1) }]))).toBeNull();
    expect(validateTapMessage(message([{ ...start, conn: { ...start.conn, source: 'har' } }]))).toBeNull();
    expect(validateTapMessage(message([{ ...start, conn: { ...start.conn, method: 'GET /x HTTP/1.1' } }]))).toBeNull();
  });

  it('refuses chunks that are not base64', () => {
    expect(validateTapMessage(message([{ ...chunk, b64: 'not base64!' }]))).toBeNull();
    expect(validateTapMessage(message([{ ...chunk, b64: 'abc' }]))).toBeNull();
    expect(validateTapMessage(message([{ ...chunk, b64: '' }]))).toBeNull();
  });

  it('refuses oversized strings and too many deltas', () => {
    expect(
      validateTapMessage(message([{ ...start, conn: { ...start.conn, url: 'x'.repeat(LIMITS.urlChars + 1) } }])),
    ).toBeNull();
    const manyHeaders = Array.from({ length: LIMITS.headers + 1 }, () => ({ name: 'a', value: 'b' }));
    expect(validateTapMessage(message([{ ...response, responseHeaders: manyHeaders }]))).toBeNull();
    expect(validateTapMessage(message(Array.from({ length: LIMITS.deltas + 1 }, () => chunk)))).toBeNull();
  });
});

describe('parseTapDetail', () => {
  it('parses a JSON string detail', () => {
    expect(parseTapDetail(JSON.stringify(message([chunk])))?.deltas).toEqual([chunk]);
  });

  it('refuses non-strings, broken JSON and huge details before parsing', () => {
    expect(parseTapDetail({ source: 'mcp-stream-inspector/tap' })).toBeNull();
    expect(parseTapDetail('{"source":')).toBeNull();
    expect(parseTapDetail(' '.repeat(LIMITS.detailChars + 1))).toBeNull();
  });
});
