// Runs in Node (vitest): the two 2026-07-28 faults that change an event's bytes, through the planner: which
// response each strikes (the first matching SSE one; a plain JSON answer leaves it armed), once unless @every, and
// what the client gets, byte for byte, whatever the chunking.
import { describe, expect, it } from 'vitest';
import { type Exchange, type ExchangePlan, type FaultReport, FaultPlanner } from './planner';
import { parseFaultSpec } from './spec';
import type { StreamOp } from './pacing';

function planner(spec: string): { planner: FaultPlanner; reports: FaultReport[] } {
  const parsed = parseFaultSpec(spec);
  if (!parsed.ok) throw new Error(parsed.error);
  const reports: FaultReport[] = [];
  return {
    planner: new FaultPlanner([parsed.fault], { report: (r) => reports.push(r), newEpoch: () => 'e' }),
    reports,
  };
}

const post = (id: number, method: string, params: object = {}): Exchange => ({
  method: 'POST',
  rpc: { jsonrpc: '2.0', id, method, params },
});

/** What the SDK v2 server writes for a tools/call with progress (no ids in 2026-07-28). */
const PROGRESS =
  'event: message\ndata: {"method":"notifications/progress","params":{"progressToken":1,"progress":1},"jsonrpc":"2.0"}\n\n';
const RESULT = (id: number): string =>
  `event: message\ndata: {"result":{"content":[{"type":"text","text":"done"}]},"jsonrpc":"2.0","id":${id}}\n\n`;

/** The plan's stream as the proxy drives it: chunks of `size`, then finish(); `sse` false: a JSON body. */
function deliver(plan: ExchangePlan, text: string, size: number, sse = true): string {
  if (plan.kind !== 'forward') throw new Error(`not forwarded: ${plan.kind}`);
  const bytes = Buffer.from(text);
  const ops: StreamOp[] = [];
  if (sse && plan.stream)
    for (let at = 0; at < bytes.length; at += size) ops.push(...plan.stream.push(bytes.subarray(at, at + size)));
  if (plan.stream) ops.push(...plan.stream.finish());
  if (!sse || !plan.stream) return text;
  return Buffer.concat(ops.flatMap((op) => (op.op === 'write' ? [op.bytes] : []))).toString();
}

const SIZES = [1, 2, 5, 13, 10_000];

describe('add-event-ids', () => {
  it('numbers every event of the first matching SSE response, the first with retry:, comments untouched', () => {
    const input = `: opened\n\n${PROGRESS}${PROGRESS}${RESULT(1)}`;
    const want = `: opened\n\nid: 1\nretry: 1000\n${PROGRESS}id: 2\n${PROGRESS}id: 3\n${RESULT(1)}`;
    for (const size of SIZES) {
      const { planner: p, reports } = planner('add-event-ids:1000');
      expect(deliver(p.plan(post(1, 'tools/call', { name: 'x' })), input, size), `chunks of ${size}`).toBe(want);
      expect(deliver(p.plan(post(2, 'tools/call', { name: 'x' })), input, size)).toBe(input);
      expect(reports).toEqual([
        { fault: 'add-event-ids:1000', action: 'add-event-ids', detail: { method: 'tools/call', retryMs: 1000 } },
      ]);
    }
  });

  it('without RETRY_MS adds ids only; @every numbers each matching response from 1; ,method= picks the request', () => {
    const { planner: p } = planner('add-event-ids@every,method=prompts/get');
    expect(deliver(p.plan(post(1, 'tools/call')), RESULT(1), 3)).toBe(RESULT(1));
    expect(deliver(p.plan(post(2, 'prompts/get')), RESULT(2), 3)).toBe(`id: 1\n${RESULT(2)}`);
    expect(deliver(p.plan(post(3, 'prompts/get')), PROGRESS + RESULT(3), 4)).toBe(
      `id: 1\n${PROGRESS}id: 2\n${RESULT(3)}`,
    );
  });

  it('a plain JSON answer leaves the fault armed for the next matching request', () => {
    const { planner: p, reports } = planner('add-event-ids');
    expect(deliver(p.plan(post(1, 'tools/call')), '{"jsonrpc":"2.0","id":1,"result":{}}', 4, false)).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{}}',
    );
    expect(reports).toEqual([]);
    expect(deliver(p.plan(post(2, 'tools/call')), RESULT(2), 4)).toBe(`id: 1\n${RESULT(2)}`);
    expect(p.spent).toBe(true);
  });

  it('keeps an event id of its own, CRLF line ends and a field line before the first data; never ids a comment', () => {
    const input = 'id: own\r\ndata: a\r\n\r\n: c\r\nevent: x\r\ndata: b\r\n\r\ni: odd\ndata: c\n\nid\ndata: d\n\n';
    const want =
      'id: own\r\ndata: a\r\n\r\n: c\r\nid: 1\nevent: x\r\ndata: b\r\n\r\nid: 2\ni: odd\ndata: c\n\nid\ndata: d\n\n';
    for (const size of SIZES) {
      const { planner: p } = planner('add-event-ids');
      expect(deliver(p.plan(post(1, 'tools/call')), input, size), `chunks of ${size}`).toBe(want);
    }
  });

  it('takes RETRY_MS as a whole number, ,method=, and nothing else', () => {
    expect(parseFaultSpec('add-event-ids:0,method=tools/list')).toMatchObject({
      ok: true,
      fault: { kind: 'add-event-ids', retryMs: 0, match: { method: 'tools/list' } },
    });
    expect(parseFaultSpec('add-event-ids')).toMatchObject({ ok: true, fault: { kind: 'add-event-ids' } });
    expect(parseFaultSpec('add-event-ids:soon')).toEqual({
      ok: false,
      error: 'RETRY_MS "soon" must be a whole number >= 0',
    });
  });
});

describe('rewrite-response-id', () => {
  it("crosses two matching responses in flight: each carries the other request's id, once", () => {
    for (const size of SIZES) {
      const { planner: p, reports } = planner('rewrite-response-id');
      const a = p.plan(post(1, 'tools/call', { name: 'x' }));
      const b = p.plan(post(2, 'tools/call', { name: 'x' }));
      const c = p.plan(post(3, 'tools/call', { name: 'x' }));
      expect(deliver(b, PROGRESS + RESULT(2), size), `chunks of ${size}`).toBe(PROGRESS + RESULT(1));
      expect(deliver(c, RESULT(3), size)).toBe(RESULT(3));
      expect(deliver(a, PROGRESS + RESULT(1), size)).toBe(PROGRESS + RESULT(2));
      expect(reports.map((r) => r.detail)).toEqual([{ method: 'tools/call', from: 2, to: 1, crossed: true }]);
      expect(p.spent).toBe(true);
    }
  });

  it('with no other matching request in flight, carries the response under its id + 1000, every other byte unchanged', () => {
    const input = PROGRESS + PROGRESS + RESULT(4);
    const want = PROGRESS + PROGRESS + RESULT(1004);
    for (const size of SIZES) {
      const { planner: p, reports } = planner('rewrite-response-id');
      expect(deliver(p.plan(post(1, 'server/discover')), RESULT(1), size)).toBe(RESULT(1));
      expect(deliver(p.plan(post(4, 'tools/call', { name: 'x' })), input, size), `chunks of ${size}`).toBe(want);
      expect(deliver(p.plan(post(5, 'tools/call', { name: 'x' })), RESULT(5), size)).toBe(RESULT(5));
      expect(reports).toEqual([
        {
          fault: 'rewrite-response-id',
          action: 'rewrite-response-id',
          detail: { method: 'tools/call', from: 4, to: 1004, crossed: false },
        },
      ]);
    }
  });

  it('a string id gets "-other"; an error answer is a response too; CRLF frames become LF frames of the same fields', () => {
    const { planner: p } = planner('rewrite-response-id@every');
    const error = 'event: message\r\ndata: {"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"x"}}\r\n\r\n';
    expect(deliver(p.plan(post(1, 'tools/call')), error, 3)).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","id":"a-other","error":{"code":-1,"message":"x"}}\n\n',
    );
    // Data split over two lines is one JSON value: it becomes one line.
    const split = 'event: message\ndata: {"jsonrpc":"2.0",\ndata: "id":7,"result":{}}\n\n';
    expect(deliver(p.plan(post(7, 'tools/call')), split, 3)).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","id":1007,"result":{}}\n\n',
    );
  });

  it('a stream that ends inside a frame hands the held bytes back as they came', () => {
    const { planner: p, reports } = planner('rewrite-response-id');
    const torn = PROGRESS + RESULT(3).slice(0, 30);
    for (const size of SIZES) expect(deliver(p.plan(post(3, 'tools/call')), torn, size)).toBe(torn);
    expect(reports).toEqual([]);
  });

  it('a frame bigger than it holds passes as it came (it cannot be read whole)', () => {
    const { planner: p } = planner('rewrite-response-id');
    const big = `event: message\ndata: {"jsonrpc":"2.0","result":{"text":"${'x'.repeat(70_000)}"},"id":1}\n\n`;
    expect(deliver(p.plan(post(1, 'tools/call')), big + RESULT(1), 4096)).toBe(big + RESULT(1001));
  });

  it('takes ,method= and no value', () => {
    expect(parseFaultSpec('rewrite-response-id,method=resources/read')).toMatchObject({
      ok: true,
      fault: { kind: 'rewrite-response-id', match: { method: 'resources/read' } },
    });
    expect(parseFaultSpec('rewrite-response-id:5')).toEqual({
      ok: false,
      error: 'rewrite-response-id takes no value (got ":5")',
    });
  });
});
