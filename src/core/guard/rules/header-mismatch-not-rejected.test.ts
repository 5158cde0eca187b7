import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze';
import { exchange, recorded, rewritten, setHeader, setResponseText } from '../recorded.fixture';
import { findingsFor } from '../testing';

const RULE = 'header-mismatch-not-rejected';
const refusal = (code: number) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message: 'Header mismatch' } });

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean, rewritten)`, () => {
  const clean = recorded('v2-clean');
  /** The big_result call (id 1) with an Mcp-Name naming another tool, and the answer `answer` gives it. */
  const mismatched = (answer?: (record: ReturnType<typeof exchange>) => void) =>
    rewritten(clean, (copy) => {
      const call = exchange(copy, 'tools/call', 'big_result');
      setHeader(call.requestHeaders, 'Mcp-Name', 'stream_progress');
      answer?.(call);
    });

  it('accepts the recording: no header disagreed with its body', () => {
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds a mismatched request that the server ran (200 and the result)', () => {
    const broken = mismatched();
    const call = exchange(broken, 'tools/call', 'big_result');
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [
        call.id,
        `tools/call (id 1) on ${call.id} sends Mcp-Name "stream_progress" for params.name "big_result", and the server answered 200 without a JSON-RPC error (expected 400 with -32020).`,
      ],
    ]);
  });

  it("finds the Python server's answer: 400 with -32600 and a minted Mcp-Session-Id (also a stateless-session-headers warning)", () => {
    const broken = mismatched((call) => {
      call.status = 400;
      setHeader(call.responseHeaders!, 'mcp-session-id', '6f1c2d');
      setResponseText(call, refusal(-32600));
    });
    const rules = analyze(broken).findings.map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining([RULE, 'stateless-session-headers', 'method-header-mismatch']));
    expect(findingsFor(broken, RULE)[0]?.message).toContain('the server answered 400 with JSON-RPC error -32600');
  });

  it('accepts 400 with -32020: the client is at fault, the server did its part', () => {
    const broken = mismatched((call) => {
      call.status = 400;
      setResponseText(call, refusal(-32020));
    });
    expect(findingsFor(broken, RULE)).toEqual([]);
    expect(findingsFor(broken, 'method-header-mismatch')).toHaveLength(1);
  });
});
