import { describe, expect, it } from 'vitest';
import { editRequest, exchange, recorded, rewritten, setHeader } from '../recorded.fixture';
import { findingsFor } from '../testing';

const RULE = 'method-header-mismatch';
const sentinel = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');
  const renamed = (name: string, header: string) =>
    rewritten(clean, (copy) => {
      const call = exchange(copy, 'tools/call', 'big_result');
      editRequest(call, (body) => ((body['params'] as { name: string }).name = name));
      setHeader(call.requestHeaders, 'Mcp-Name', header);
    });

  it('accepts the recording (the notifications/cancelled POST has no Mcp-Method: not required of notifications)', () => {
    const cancel = exchange(clean, 'notifications/cancelled');
    expect(cancel.requestHeaders.some((h) => h.name.toLowerCase() === 'mcp-method')).toBe(false);
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds an Mcp-Name that names another tool, and a request without Mcp-Method', () => {
    const broken = rewritten(clean, (copy) => {
      setHeader(exchange(copy, 'tools/call', 'stream_progress').requestHeaders, 'Mcp-Name', 'big_result');
      setHeader(exchange(copy, 'subscriptions/listen').requestHeaders, 'Mcp-Method', undefined);
    });
    const call = exchange(broken, 'tools/call', 'stream_progress');
    const listen = exchange(broken, 'subscriptions/listen');
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [call.id, `tools/call (id 0) on ${call.id} sends Mcp-Name "big_result" for params.name "stream_progress".`],
      [listen.id, `subscriptions/listen (id "listen:0") on ${listen.id} has no Mcp-Method header.`],
    ]);
  });

  it('decodes the Base64 sentinel before comparing: an encoded name that matches is fine', () => {
    expect(findingsFor(renamed('big_result', sentinel('big_result')), RULE)).toEqual([]);
    expect(findingsFor(renamed('grüße', sentinel('grüße')), RULE)).toEqual([]);
  });

  it('finds a name that needed the sentinel and was sent otherwise, and a sentinel that does not decode', () => {
    expect(findingsFor(renamed('grüße', 'gr??e'), RULE)[0]?.message).toContain(
      'sends Mcp-Name "gr??e" for params.name "grüße" (a value like this travels as =?base64?...?=)',
    );
    // A plain-ASCII name shaped like the sentinel must itself be encoded.
    expect(findingsFor(renamed('=?base64?YWJj?=', '=?base64?YWJj?='), RULE)[0]?.message).toContain('(decoded "abc")');
    expect(findingsFor(renamed('big_result', '=?base64?***?='), RULE)[0]?.message).toContain('does not decode');
  });

  it('finds a tools/call without Mcp-Name', () => {
    const broken = rewritten(clean, (copy) =>
      setHeader(exchange(copy, 'tools/call', 'ask_user', 1).requestHeaders, 'Mcp-Name', undefined),
    );
    expect(findingsFor(broken, RULE).map((f) => f.message)).toEqual([
      expect.stringContaining('has no Mcp-Name header (params.name is "ask_user")'),
    ]);
  });
});
