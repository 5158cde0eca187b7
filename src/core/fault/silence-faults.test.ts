// Runs in Node (vitest): the silence faults (buffer, stall, idle-cut): how their specs read, which response each
// strikes, and the ops a struck stream becomes (the runtime's clock stands outside: a test fires the idle cut).
import { describe, expect, it } from 'vitest';
import type { Fault } from './fault';
import type { FaultStream } from './fault-stream';
import type { StreamOp } from './pacing';
import { type Exchange, type ExchangePlan, type FaultReport, FaultPlanner } from './planner';
import { parseFaultSpec } from './spec';

function parsed(spec: string): Fault {
  const result = parseFaultSpec(spec);
  if (!result.ok) throw new Error(result.error);
  return result.fault;
}

function planner(...specs: string[]): { planner: FaultPlanner; reports: FaultReport[] } {
  const reports: FaultReport[] = [];
  const p = new FaultPlanner(specs.map(parsed), { report: (r) => reports.push(r), newEpoch: () => 'ep' });
  return { planner: p, reports };
}

let nextId = 1;
const post = (method: string, sessionId = 's1'): Exchange => ({
  method: 'POST',
  sessionId,
  rpc: { jsonrpc: '2.0', id: nextId++, method, params: { name: 'slow' } },
});
const get = (lastEventId?: string): Exchange => ({
  method: 'GET',
  sessionId: 's1',
  ...(lastEventId !== undefined && { lastEventId }),
});

const PRIMING = 'id: 1\ndata: \n\n';
const PROGRESS = (n: number) =>
  `event: message\nid: ${n + 1}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":${n}}}\n\n`;
const RESULT = 'event: message\nid: 4\ndata: {"jsonrpc":"2.0","result":{"content":[]},"id":1}\n\n';
const STREAM = PRIMING + PROGRESS(1) + PROGRESS(2) + RESULT;

function streamOf(plan: ExchangePlan): FaultStream {
  if (plan.kind !== 'forward' || !plan.stream) throw new Error(`no fault stream: ${plan.kind}`);
  return plan.stream;
}

/** The stream in chunks of `size`, then its end: every op, writes as text. */
function run(stream: FaultStream, text = STREAM, size = 9): (string | StreamOp)[] {
  const bytes = Buffer.from(text);
  const ops: StreamOp[] = [];
  for (let at = 0; at < bytes.length && !ops.some((op) => op.op === 'cut'); at += size)
    ops.push(...stream.push(bytes.subarray(at, at + size)));
  if (!ops.some((op) => op.op === 'cut')) ops.push(...stream.finish());
  return ops.map((op) => (op.op === 'write' ? Buffer.from(op.bytes).toString() : op));
}

/** Adjacent writes joined: what the client gets between pauses and cuts. */
function joined(ops: (string | StreamOp)[]): (string | StreamOp)[] {
  const out: (string | StreamOp)[] = [];
  for (const op of ops) {
    const last = out.at(-1);
    if (typeof op === 'string' && typeof last === 'string') out[out.length - 1] = last + op;
    else out.push(op);
  }
  return out;
}

describe('silence fault specs', () => {
  it('reads buffer, buffer:body, stall:MS, idle-cut:SECONDS with @every and ,method=', () => {
    expect(parsed('buffer')).toMatchObject({ kind: 'buffer', holdHead: true, match: { method: 'tools/call' } });
    expect(parsed('buffer:body@every')).toMatchObject({ kind: 'buffer', holdHead: false, every: true });
    expect(parsed('stall:500,method=tools/list')).toMatchObject({
      kind: 'stall',
      ms: 500,
      match: { method: 'tools/list' },
    });
    expect(parsed('idle-cut:1')).toMatchObject({ kind: 'idle-cut', ms: 1000, anyStream: false, every: false });
    expect(parsed('idle-cut:2.5@every')).toMatchObject({ ms: 2500, anyStream: true, every: true });
    expect(parsed('idle-cut:0.001@every,method=tools/call')).toMatchObject({ ms: 1, anyStream: false });
  });

  it('refuses a bad value, saying what would be right', () => {
    const refused: [string, string][] = [
      [
        'buffer:all',
        'buffer takes no value (the head and the body held until the end) or ":body" (the head sent at once); got ":all"',
      ],
      ['stall', 'MS is needed (a whole number >= 1)'],
      ['stall:0', 'MS "0" must be a whole number >= 1'],
      ['stall:1.5', 'MS "1.5" must be a whole number >= 1'],
      ['idle-cut', 'SECONDS is needed (idle-cut:30 cuts a stream after 30 s with no byte forwarded)'],
      ['idle-cut:0', 'SECONDS "0" must be a number of seconds above 0, at most 3 decimals (30, 2.5)'],
      ['idle-cut:0.0001', 'SECONDS "0.0001" must be a number of seconds above 0, at most 3 decimals (30, 2.5)'],
      ['idle-cut:-1', 'SECONDS "-1" must be a number of seconds above 0, at most 3 decimals (30, 2.5)'],
      ['idle-cut:1s', 'SECONDS "1s" must be a number of seconds above 0, at most 3 decimals (30, 2.5)'],
      ['idle-cut:1,method=initialize', 'faults never strike the initialize exchange (,method=initialize)'],
      ['stall:5@once', '"@once" is not a suffix; the only one is @every'],
    ];
    for (const [spec, error] of refused) expect(parseFaultSpec(spec), spec).toEqual({ ok: false, error });
  });
});

describe('buffer', () => {
  it('holds the first tools/call stream, head and body, and sends it whole at its end; once', () => {
    const { planner: p, reports } = planner('buffer');
    expect(p.plan(post('tools/list'))).toEqual({ kind: 'forward', delayMs: 0 });
    const stream = streamOf(p.plan(post('tools/call')));
    expect(stream.opened()).toEqual({ holdHead: true });
    expect(run(stream)).toEqual([STREAM]);
    expect(p.plan(post('tools/call'))).toEqual({ kind: 'forward', delayMs: 0 });
    expect(reports).toEqual([
      {
        fault: 'buffer',
        action: 'buffer',
        detail: {
          method: 'tools/call',
          tool: 'slow',
          sessionId: 's1',
          head: 'held',
          bytes: STREAM.length,
          events: 4,
          released: true,
        },
      },
    ]);
  });

  it('buffer:body sends the head; a JSON answer leaves it armed for the next event stream', () => {
    const { planner: p, reports } = planner('buffer:body');
    // Not an event stream: the runtime never opens it.
    expect(streamOf(p.plan(post('tools/call'))).finish()).toEqual([]);
    const stream = streamOf(p.plan(post('tools/call')));
    expect(stream.opened()).toEqual({ holdHead: false });
    expect(run(stream)).toEqual([STREAM]);
    expect(reports.map((r) => r.detail['head'])).toEqual(['sent']);
  });

  it('loses what it held when a cut on the same stream strikes', () => {
    const { planner: p, reports } = planner('buffer', 'cut-at-boundary:2');
    const ops = run(streamOf(p.plan(post('tools/call'))));
    expect(ops).toEqual([expect.objectContaining({ op: 'cut' })]);
    expect(reports.map((r) => [r.action, r.detail['released'] ?? null])).toEqual([
      ['cut', null],
      ['buffer', false],
    ]);
  });
});

describe('stall', () => {
  it('pauses the first tools/call stream once, before its first event that carries data, then passes it whole', () => {
    const { planner: p, reports } = planner('stall:500');
    expect(joined(run(streamOf(p.plan(post('tools/call')))))).toEqual([
      PRIMING,
      { op: 'pause', ms: 500 },
      PROGRESS(1) + PROGRESS(2) + RESULT,
    ]);
    expect(p.plan(post('tools/call'))).toEqual({ kind: 'forward', delayMs: 0 });
    expect(reports.map((r) => [r.action, r.detail['ms'], r.detail['frameIndex'], r.detail['bytesForwarded']])).toEqual([
      ['stall', 500, 1, PRIMING.length],
    ]);
  });

  it('a stream with no event that carries data leaves it for the next; @every strikes each', () => {
    const { planner: p } = planner('stall:20@every');
    expect(run(streamOf(p.plan(post('tools/call'))), PRIMING)).toEqual([PRIMING]);
    for (let i = 0; i < 2; i++)
      expect(joined(run(streamOf(p.plan(post('tools/call'))), RESULT, 4))).toEqual([{ op: 'pause', ms: 20 }, RESULT]);
  });

  it('composes with a cut on the same stream: the pause, then the cut where it falls', () => {
    const { planner: p } = planner('stall:100', 'cut-at-boundary:2');
    const ops = joined(run(streamOf(p.plan(post('tools/call')))));
    expect(ops).toEqual([
      PRIMING,
      { op: 'pause', ms: 100 },
      PROGRESS(1) + PROGRESS(2),
      expect.objectContaining({ op: 'cut' }),
    ]);
  });
});

describe('idle-cut', () => {
  it('gives the first tools/call stream a deadline; the cut reports what the client had, and counts as a cut', () => {
    const { planner: p, reports } = planner('idle-cut:1', 'resume-status:409');
    expect(p.plan(post('tools/list'))).toEqual({ kind: 'forward', delayMs: 0 });
    const stream = streamOf(p.plan(post('tools/call')));
    expect(stream.opened()).toEqual({ holdHead: false, idleCutMs: 1000 });
    const [first] = stream.push(Buffer.from(PRIMING));
    if (first?.op !== 'write') throw new Error('the priming event passes');
    stream.written(first.bytes);
    expect(stream.idleCut()).toEqual([
      {
        op: 'cut',
        info: {
          frameIndex: 0,
          bytesIntoFrame: 0,
          bytesForwarded: PRIMING.length,
          midEvent: false,
          tornEventId: undefined,
          lastCompleteEventId: '1',
        },
      },
    ]);
    // Spent: the stream passes nothing more, and is not struck twice.
    expect(stream.push(Buffer.from(RESULT))).toEqual([]);
    expect(stream.idleCut()).toEqual([]);
    expect(p.cutSessionId).toBe('s1');
    // The resume fault listed after it strikes the resume that follows.
    expect(p.plan(get('1'))).toMatchObject({ kind: 'respond', status: 409 });
    expect(reports.map((r) => [r.fault, r.action])).toEqual([
      ['idle-cut:1', 'idle-cut'],
      ['resume-status:409', 'reject-resume'],
    ]);
    expect(reports[0]?.detail).toMatchObject({ method: 'tools/call', tool: 'slow', idleMs: 1000, midEvent: false });
  });

  it('a stream that ends before its silence leaves it armed; a cut mid-event names the torn event', () => {
    const { planner: p, reports } = planner('idle-cut:2');
    const quick = streamOf(p.plan(post('tools/call')));
    expect(quick.opened().idleCutMs).toBe(2000);
    run(quick);
    const slow = streamOf(p.plan(post('tools/call')));
    expect(slow.opened().idleCutMs).toBe(2000);
    const torn = PRIMING + PROGRESS(1).slice(0, 24);
    for (const op of slow.push(Buffer.from(torn))) if (op.op === 'write') slow.written(op.bytes);
    expect(slow.idleCut()).toMatchObject([
      { op: 'cut', info: { midEvent: true, bytesIntoFrame: 24, tornEventId: '2' } },
    ]);
    expect(reports.map((r) => r.action)).toEqual(['idle-cut']);
  });

  it('@every without ,method= strikes every stream but initialize: the standalone GET, resumes, any POST', () => {
    const { planner: p } = planner('idle-cut:3@every');
    const deadline = (exchange: Exchange): number | undefined => {
      const plan = p.plan(exchange);
      return plan.kind === 'forward' ? plan.stream?.opened().idleCutMs : undefined;
    };
    expect([post('initialize'), get(), get('7'), post('tools/list'), post('tools/call')].map(deadline)).toEqual([
      undefined,
      3000,
      3000,
      3000,
      3000,
    ]);
    const { planner: only } = planner('idle-cut:3@every,method=tools/call');
    const plans = [get(), post('tools/call')].map((x) => only.plan(x));
    expect(plans.map((plan) => (plan.kind === 'forward' ? plan.stream?.opened().idleCutMs : null))).toEqual([
      undefined,
      3000,
    ]);
  });

  it('listed after a cut, waits for that cut; then strikes the next stream', () => {
    const { planner: p } = planner('cut-at-boundary', 'idle-cut:1');
    const cut = streamOf(p.plan(post('tools/call')));
    expect(cut.opened()).toEqual({ holdHead: false });
    run(cut);
    expect(streamOf(p.plan(post('tools/call'))).opened()).toEqual({ holdHead: false, idleCutMs: 1000 });
  });
});
