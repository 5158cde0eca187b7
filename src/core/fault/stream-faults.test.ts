// Runs in Node (vitest): the 2026-07-28 stream faults: which exchange each strikes, once, and what its stream becomes.
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

const ACK =
  'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{}}\n\n';
const CHANGED = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n';
const RESULT = 'event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n';

function deliver(plan: ExchangePlan, text: string): string {
  if (plan.kind !== 'forward') throw new Error(`not forwarded: ${plan.kind}`);
  const bytes = Buffer.from(text);
  const ops: StreamOp[] = [];
  for (let at = 0; at < bytes.length; at += 7) {
    const chunk = bytes.subarray(at, at + 7);
    ops.push(...(plan.stream ? plan.stream.push(chunk) : [{ op: 'write' as const, bytes: chunk }]));
  }
  if (plan.stream) ops.push(...plan.stream.finish());
  return Buffer.concat(ops.flatMap((op) => (op.op === 'write' ? [op.bytes] : []))).toString();
}

describe('2026-07-28 stream faults', () => {
  it('drop-listen-ack drops the first event of the first listen stream only, and says so', () => {
    const { planner: p, reports } = planner('drop-listen-ack');
    expect(deliver(p.plan(post(1, 'tools/call', { name: 'x' })), RESULT)).toBe(RESULT);
    expect(deliver(p.plan(post(2, 'subscriptions/listen')), ACK + CHANGED)).toBe(CHANGED);
    expect(deliver(p.plan(post(3, 'subscriptions/listen')), ACK + CHANGED)).toBe(ACK + CHANGED);
    expect(reports.map((r) => [r.fault, r.action, r.detail['method']])).toEqual([
      ['drop-listen-ack', 'skip-event', 'subscriptions/listen'],
    ]);
  });

  it('inject-server-request sends roots/list first on the first matching stream, once', () => {
    const { planner: p, reports } = planner('inject-server-request');
    expect(deliver(p.plan(post(1, 'subscriptions/listen')), ACK)).toBe(ACK);
    const out = deliver(p.plan(post(2, 'tools/call', { name: 'x' })), RESULT);
    expect(out).toBe(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'fault-proxy-roots-1', method: 'roots/list', params: {} })}\n\n${RESULT}`,
    );
    expect(deliver(p.plan(post(3, 'tools/call', { name: 'x' })), RESULT)).toBe(RESULT);
    expect(reports.map((r) => r.action)).toEqual(['inject-request']);
  });

  it('inject-server-request takes ,method= and no value', () => {
    expect(parseFaultSpec('inject-server-request,method=prompts/get')).toMatchObject({
      ok: true,
      fault: { kind: 'inject-server-request', match: { method: 'prompts/get' } },
    });
    expect(parseFaultSpec('inject-server-request:3')).toMatchObject({ ok: false });
    expect(parseFaultSpec('drop-listen-ack,method=tools/call')).toMatchObject({ ok: false });
  });
});

describe('2026-07-28 request faults', () => {
  it('set-header replaces one header of the first matching request, once', () => {
    const { planner: p, reports } = planner('set-header:MCP-Protocol-Version=2025-11-25');
    expect(p.plan(post(1, 'server/discover'))).toEqual({ kind: 'forward', delayMs: 0 });
    expect(p.plan(post(2, 'tools/call', { name: 'x' }))).toEqual({
      kind: 'forward',
      delayMs: 0,
      rewrite: { headers: { 'mcp-protocol-version': '2025-11-25' } },
    });
    expect(p.plan(post(3, 'tools/call', { name: 'x' }))).toEqual({ kind: 'forward', delayMs: 0 });
    expect(reports.map((r) => r.detail)).toEqual([
      { method: 'tools/call', header: 'MCP-Protocol-Version', value: '2025-11-25' },
    ]);
  });

  it('alter-request-state changes the first echoed requestState, and nothing else of the body', () => {
    const { planner: p } = planner('alter-request-state');
    expect(p.plan(post(1, 'tools/call', { name: 'x' }))).toEqual({ kind: 'forward', delayMs: 0 });
    const plan = p.plan(post(2, 'tools/call', { name: 'x', requestState: 's1', inputResponses: { a: 1 } }));
    expect(plan.kind === 'forward' && plan.rewrite?.body).toBe(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'x', requestState: 's1-altered', inputResponses: { a: 1 } },
      }),
    );
  });

  it('set-header needs NAME=VALUE', () => {
    expect(parseFaultSpec('set-header:Mcp-Method')).toMatchObject({ ok: false });
    expect(parseFaultSpec('set-header:Mcp Method=x')).toMatchObject({ ok: false });
    expect(parseFaultSpec('alter-request-state,method=tools/call')).toMatchObject({ ok: false });
    expect(parseFaultSpec('set-header:Mcp-Name=other,method=tools/call')).toMatchObject({
      ok: true,
      fault: { kind: 'set-header', header: 'Mcp-Name', value: 'other', match: { method: 'tools/call' } },
    });
  });
});
