import { describe, expect, it } from 'vitest';
import { LIMITS } from './decode-fields';
import { asTapToBridge } from './decode-tap';

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
const chunk = { kind: 'chunk', id: 'ab12-1', t: 1_764_000_000_002, bytes: new TextEncoder().encode('data: {}\n\n') };
const end = { kind: 'end', id: 'ab12-1', end: 'complete', endTime: 1_764_000_000_003 };

function message(deltas: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { source: 'mcp-stream-inspector/tap', instance: 'ab12', deltas, ...extra };
}

describe('asTapToBridge', () => {
  it('accepts what the tap sends, rebuilt field by field', () => {
    const result = asTapToBridge(message([start, response, chunk, end]));
    expect(result).toEqual(message([start, response, chunk, end]));
  });

  it("keeps a flush's mark, and refuses one that is not a whole number", () => {
    expect(asTapToBridge(message([], { flushed: 3 }))).toEqual(message([], { flushed: 3 }));
    expect(asTapToBridge(message([], { flushed: 1.5 }))).toBeNull();
    expect(asTapToBridge(message([], { flushed: '3' }))).toBeNull();
  });

  it('drops fields it does not know (no smuggling through extra properties)', () => {
    const result = asTapToBridge(message([{ ...chunk, html: '<img onerror>' }], { extra: 1 }));
    expect(result?.deltas).toEqual([chunk]);
    expect(result).not.toHaveProperty('extra');
  });

  it('refuses other senders and wrong shapes', () => {
    expect(asTapToBridge(null)).toBeNull();
    expect(asTapToBridge('hello')).toBeNull();
    expect(asTapToBridge([])).toBeNull();
    expect(asTapToBridge({ ...(message([]) as object), source: 'someone-else' })).toBeNull();
    expect(asTapToBridge(message([{ kind: 'explode' }]))).toBeNull();
    expect(asTapToBridge(message([{ ...response, status: '200' }]))).toBeNull();
    expect(asTapToBridge(message([{ ...response, status: 2000 }]))).toBeNull();
    expect(asTapToBridge(message([{ ...end, end: 'open' }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, t: Number.NaN }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, t: -1 }]))).toBeNull();
    expect(
      asTapToBridge(message([{ ...start, conn: { ...start.conn, requestHeaders: [{ name: 1, value: 'x' }] } }])),
    ).toBeNull();
  });

  it('refuses fake ids, sources a page cannot have and methods that are not tokens', () => {
    expect(asTapToBridge(message([{ ...chunk, id: '../../x' }]))).toBeNull();
    // The top frame must not pose as subframe 3, whose ids the background scopes as "f3.<id>".
    expect(asTapToBridge(message([{ ...chunk, id: 'f3.ab12-1' }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, id: 'x'.repeat(LIMITS.idChars + 1) }]))).toBeNull();
    expect(asTapToBridge(message([{ ...start, conn: { ...start.conn, source: 'har' } }]))).toBeNull();
    expect(asTapToBridge(message([{ ...start, conn: { ...start.conn, method: 'GET /x HTTP/1.1' } }]))).toBeNull();
  });

  it('refuses chunks whose bytes are not a non-empty Uint8Array', () => {
    expect(asTapToBridge(message([{ ...chunk, bytes: 'data: {}' }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, bytes: [100, 97] }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, bytes: new Uint16Array(4) }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, bytes: new Uint8Array(0) }]))).toBeNull();
    expect(asTapToBridge(message([{ ...chunk, bytes: { byteLength: 3, 0: 1 } }]))).toBeNull();
  });

  it('refuses oversized strings and too many deltas', () => {
    expect(
      asTapToBridge(message([{ ...start, conn: { ...start.conn, url: 'x'.repeat(LIMITS.urlChars + 1) } }])),
    ).toBeNull();
    const manyHeaders = Array.from({ length: LIMITS.headers + 1 }, () => ({ name: 'a', value: 'b' }));
    expect(asTapToBridge(message([{ ...response, responseHeaders: manyHeaders }]))).toBeNull();
    expect(asTapToBridge(message(Array.from({ length: LIMITS.deltas + 1 }, () => chunk)))).toBeNull();
  });
});
