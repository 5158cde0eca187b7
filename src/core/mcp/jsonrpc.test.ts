import { describe, expect, it } from 'vitest';
import { parseMessages } from './jsonrpc';

describe('parseMessages', () => {
  it('classifies requests, notifications, results and errors', () => {
    const parsed = parseMessages(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":"x","result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}]',
    );
    expect(parsed.ok && parsed.messages.map((m) => [m.kind, m.id ?? null])).toEqual([
      ['request', 1],
      ['notification', null],
      ['response', 'x'],
      ['error', 2],
    ]);
  });

  it('accepts an error with id null or without id (a parse error the server could not tie to a request)', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}',
    ]) {
      const parsed = parseMessages(text);
      expect(parsed.ok && parsed.messages[0]?.kind).toBe('error');
    }
  });

  it('says precisely why text is not a message', () => {
    expect(parseMessages('{"jsonrpc":"2.0","id":1,"res')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not complete JSON'),
    });
    expect(parseMessages('{}')).toMatchObject({ ok: false, error: 'valid JSON but not a JSON-RPC 2.0 message' });
    expect(parseMessages('[]')).toMatchObject({ ok: false, error: 'an empty JSON-RPC batch' });
    expect(parseMessages('[{"jsonrpc":"2.0","method":"a"},{}]')).toMatchObject({
      ok: false,
      error: expect.stringContaining('batch item 1'),
    });
  });
});
