// Runs in Node (vitest): which exchange each fault strikes, in which order, how often; and what a struck stream
// becomes, byte for byte.
import { describe, expect, it } from 'vitest';
import type { Fault } from './fault';
import { type Exchange, type ExchangePlan, type FaultReport, FaultPlanner } from './planner';
import { parseFaultSpec } from './spec';
import type { StreamOp } from './pacing';

const faults = (...specs: string[]): Fault[] =>
  specs.map((spec) => {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.fault;
  });

function planner(...specs: string[]): { planner: FaultPlanner; reports: FaultReport[] } {
  const reports: FaultReport[] = [];
  return {
    planner: new FaultPlanner(faults(...specs), { report: (r) => reports.push(r), newEpoch: () => 'ep' }),
    reports,
  };
}

let nextId = 1;
const post = (method: string, params: object = {}): Exchange => ({
  method: 'POST',
  sessionId: 's1',
  rpc: { jsonrpc: '2.0', id: nextId++, method, params },
});
const resume = (lastEventId: string, sessionId = 's1'): Exchange => ({ method: 'GET', sessionId, lastEventId });

const STREAM = [
  'id: 1\ndata: \n\n',
  'event: message\nid: 2\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
  'event: message\nid: 3\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2}}\n\n',
  'event: message\nid: 4\ndata: {"jsonrpc":"2.0","result":{"content":[]},"id":1}\n\n',
].join('');

/** Runs the stream through the plan in chunks of `size`; what the client gets and whether it was cut. */
function deliver(plan: ExchangePlan, text = STREAM, size = 5): { out: string; cut: boolean } {
  if (plan.kind !== 'forward') throw new Error(`not forwarded: ${plan.kind}`);
  const bytes = Buffer.from(text);
  const ops: StreamOp[] = [];
  for (let at = 0; at < bytes.length && !ops.some((op) => op.op === 'cut'); at += size) {
    const chunk = bytes.subarray(at, at + size);
    ops.push(...(plan.stream ? plan.stream.push(chunk) : [{ op: 'write' as const, bytes: chunk }]));
  }
  if (plan.stream) ops.push(...plan.stream.finish());
  const written = ops.flatMap((op) => (op.op === 'write' ? [op.bytes] : []));
  return { out: Buffer.concat(written).toString(), cut: ops.some((op) => op.op === 'cut') };
}

describe('FaultPlanner', () => {
  it('never strikes initialize; a cut strikes the first tools/call, once', () => {
    const { planner: p, reports } = planner('cut-at-boundary');
    expect(deliver(p.plan(post('initialize')))).toEqual({ out: STREAM, cut: false });
    expect(deliver(p.plan(post('tools/list')))).toEqual({ out: STREAM, cut: false });
    const first = deliver(p.plan(post('tools/call', { name: 'x' })));
    expect(first).toEqual({ out: STREAM.slice(0, STREAM.indexOf('event: message\nid: 3')), cut: true });
    expect(deliver(p.plan(post('tools/call', { name: 'x' })))).toEqual({ out: STREAM, cut: false });
    expect(reports.map((r) => [r.fault, r.action, r.detail['tool'], r.detail['lastCompleteEventId']])).toEqual([
      ['cut-at-boundary', 'cut', 'x', '2'],
    ]);
  });

  it('cut-mid-event cuts BYTES into the data of the first event that carries data; @every strikes each time', () => {
    const { planner: p, reports } = planner('cut-mid-event:7@every');
    for (let i = 0; i < 2; i++) {
      const { out, cut } = deliver(p.plan(post('tools/call')), STREAM, 3);
      expect(cut).toBe(true);
      expect(out).toBe('id: 1\ndata: \n\nevent: message\nid: 2\ndata: {"jsonr');
    }
    expect(reports.map((r) => [r.detail['midEvent'], r.detail['tornEventId']])).toEqual([
      [true, '2'],
      [true, '2'],
    ]);
  });

  it(',method= picks the request; notifications (no id) are never struck', () => {
    const { planner: p } = planner('cut-at-boundary:2,method=tools/list');
    expect(deliver(p.plan(post('tools/call'))).cut).toBe(false);
    expect(deliver(p.plan({ method: 'POST', rpc: { jsonrpc: '2.0', method: 'tools/list' } })).cut).toBe(false);
    expect(deliver(p.plan(post('tools/list'))).cut).toBe(true);
  });

  it('a stream that ends before its cut point leaves the cut for the next matching request', () => {
    const { planner: p } = planner('cut-at-boundary:5');
    expect(deliver(p.plan(post('tools/call')))).toEqual({ out: STREAM, cut: false });
    const longer = STREAM + STREAM.replace(/id: (\d)/g, 'id: 1$1');
    expect(deliver(p.plan(post('tools/call')), longer).cut).toBe(true);
  });

  it('resume faults wait for the cut, strike only its session, once; several compose in order', () => {
    const { planner: p, reports } = planner('cut-at-boundary:2', 'replay-cursor', 'restart-epoch');
    // Before the cut, a resume passes untouched.
    expect(deliver(p.plan(resume('1')))).toEqual({ out: STREAM, cut: false });
    deliver(p.plan(post('tools/call')));
    expect(deliver(p.plan(resume('3', 'other')))).toEqual({ out: STREAM, cut: false });
    const replay = 'event: message\nid: 4\ndata: {"jsonrpc":"2.0","result":{"content":[]},"id":1}\n\n';
    const resumed = deliver(p.plan(resume('3')), replay);
    // The cursor's own event first, then the replay, all re-id'd under the new epoch.
    expect(resumed.out).toBe(
      'event: message\nid: ep:1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2}}\n\n' +
        replay.replace('id: 4', 'id: ep:2'),
    );
    expect(deliver(p.plan(resume('4')), replay).out).toBe(replay);
    expect(reports.map((r) => r.action)).toEqual(['cut', 'repeat-event', 'restart-epoch']);
  });

  it('resume-status answers without the server, once unless @every; resume-silent keeps the stream quiet', () => {
    const { planner: p } = planner('cut-at-boundary', 'resume-status:409', 'resume-silent');
    deliver(p.plan(post('tools/call')));
    expect(p.plan(resume('2'))).toMatchObject({ kind: 'respond', status: 409, fault: 'resume-status:409' });
    expect(p.plan(resume('2'))).toEqual({ kind: 'silent', fault: 'resume-silent' });
    expect(p.plan(resume('2'))).toMatchObject({ kind: 'forward' });
    const every = planner('cut-at-boundary', 'resume-status:404@every').planner;
    deliver(every.plan(post('tools/call')));
    for (let i = 0; i < 3; i++) expect(every.plan(resume('2'))).toMatchObject({ kind: 'respond', status: 404 });
  });

  it('close-resumes answers every resume itself: 200, one priming event after the cursor, the end', () => {
    const { planner: p, reports } = planner('close-resumes');
    const answers = ['7', '8', '9'].map((cursor) => p.plan(resume(cursor)));
    expect(answers).toEqual(
      ['8', '9', '10'].map((id) => ({
        kind: 'respond',
        fault: 'close-resumes',
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        body: `id: ${id}\ndata: \n\n`,
      })),
    );
    expect(reports.map((r) => [r.action, r.detail])).toEqual([
      ['close-resume', { lastEventId: '7', primingId: '8' }],
      ['close-resume', { lastEventId: '8', primingId: '9' }],
      ['close-resume', { lastEventId: '9', primingId: '10' }],
    ]);
    expect(p.spent).toBe(false);
    // Requests and GETs without a cursor pass as they came.
    expect(p.plan(post('tools/call'))).toMatchObject({ kind: 'forward', delayMs: 0 });
    expect(p.plan({ method: 'GET', sessionId: 's1' })).toMatchObject({ kind: 'forward' });
  });

  it('close-resumes after a cut strikes only the cut session, every resume of it', () => {
    const { planner: p } = planner('cut-at-boundary', 'close-resumes');
    expect(p.plan(resume('2'))).toMatchObject({ kind: 'forward' });
    deliver(p.plan(post('tools/call')));
    for (const cursor of ['2', '3']) expect(p.plan(resume(cursor))).toMatchObject({ kind: 'respond', status: 200 });
    expect(p.plan(resume('3', 'other'))).toMatchObject({ kind: 'forward' });
  });

  it('drop-first-replayed drops whole events; delay holds the matching request', () => {
    const { planner: p, reports } = planner('delay:40', 'cut-at-boundary', 'drop-first-replayed:2');
    const call = p.plan(post('tools/call'));
    expect(call).toMatchObject({ kind: 'forward', delayMs: 40 });
    deliver(call);
    expect(p.plan(post('tools/call'))).toMatchObject({ delayMs: 0 });
    const { out } = deliver(p.plan(resume('2')));
    expect(out).toBe(STREAM.slice(STREAM.indexOf('event: message\nid: 3')));
    expect(reports.filter((r) => r.action === 'skip-event').map((r) => r.detail['eventId'])).toEqual(['1', '2']);
  });

  describe('on the 2024-11-05 HTTP+SSE transport', () => {
    const ENDPOINT = 'event: endpoint\ndata: /messages?sessionId=abc\n\n';
    const legacyPost = (method: string, url = '/messages?sessionId=abc'): Exchange => ({
      method: 'POST',
      url,
      rpc: { jsonrpc: '2.0', id: nextId++, method, params: { name: 'x' } },
    });
    const progressEvent = (n: number) =>
      `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":${n}}}\n\n`;
    /** Pushes text into a live stream's plan; what it forwards and whether it cut. */
    const push = (plan: ExchangePlan, text: string) => {
      if (plan.kind !== 'forward' || !plan.stream) throw new Error('the GET stream is not watched');
      const ops = plan.stream.push(Buffer.from(text));
      const out = Buffer.concat(ops.flatMap((op) => (op.op === 'write' ? [op.bytes] : []))).toString();
      return { out, cut: ops.some((op) => op.op === 'cut') };
    };

    it('a cut of a request POSTed to the endpoint strikes the GET stream that named it, counting from the POST', () => {
      const { planner: p, reports } = planner('cut-at-boundary:2');
      const sse = p.plan({ method: 'GET', url: '/sse' });
      expect(push(sse, ENDPOINT + progressEvent(0))).toEqual({ out: ENDPOINT + progressEvent(0), cut: false });
      // initialize and tools/list are never struck; the POSTs themselves pass untouched (their answer is 202).
      expect(p.plan(legacyPost('initialize'))).toEqual({ kind: 'forward', delayMs: 0 });
      expect(p.plan(legacyPost('tools/list'))).toEqual({ kind: 'forward', delayMs: 0 });
      expect(push(sse, progressEvent(1)).cut).toBe(false);
      expect(p.plan(legacyPost('tools/call'))).toEqual({ kind: 'forward', delayMs: 0 });
      expect(push(sse, progressEvent(2))).toEqual({ out: progressEvent(2), cut: false });
      expect(push(sse, progressEvent(3) + progressEvent(4))).toEqual({ out: progressEvent(3), cut: true });
      expect(reports).toEqual([
        expect.objectContaining({
          action: 'cut',
          detail: expect.objectContaining({ method: 'tools/call', midEvent: false }),
        }),
      ]);
    });

    it('cut-mid-event tears the first event with data after the POST, on the stream that named its endpoint only', () => {
      const { planner: p, reports } = planner('cut-mid-event:10');
      const relative = p.plan({ method: 'GET', url: '/sse' });
      const absolute = p.plan({ method: 'GET', url: '/sse' });
      push(relative, 'event: endpoint\ndata: messages?sessionId=abc\n\n');
      push(absolute, 'event: endpoint\ndata: http://127.0.0.1:9/messages?sessionId=zzz\n\n');
      p.plan(legacyPost('tools/call', '/messages?sessionId=zzz'));
      expect(push(relative, progressEvent(1))).toEqual({ out: progressEvent(1), cut: false });
      expect(push(absolute, progressEvent(1))).toEqual({ out: 'event: message\ndata: {"jsonrpc"', cut: true });
      expect(reports.map((r) => r.action)).toEqual(['cut']);
      // A POST to a path no stream named gets a response stream of its own, and the cut strikes there.
      const own = planner('cut-mid-event:10').planner.plan(legacyPost('tools/call', '/mcp'));
      expect(deliver(own, progressEvent(1)).cut).toBe(true);
    });

    it('a stream that ends before its cut point leaves the cut armed for the next request', () => {
      const { planner: p, reports } = planner('cut-at-boundary');
      const first = p.plan({ method: 'GET', url: '/sse' });
      push(first, ENDPOINT);
      p.plan(legacyPost('tools/call'));
      if (first.kind === 'forward') first.stream?.finish();
      const next = p.plan({ method: 'GET', url: '/sse' });
      push(next, ENDPOINT);
      p.plan(legacyPost('tools/call'));
      expect(push(next, progressEvent(1) + progressEvent(2))).toEqual({ out: progressEvent(1), cut: true });
      expect(reports.map((r) => r.action)).toEqual(['cut']);
    });

    it('without a listed cut, a GET without a session is not watched; without a url (the tap), never', () => {
      expect(planner('delay:5').planner.plan({ method: 'GET', url: '/sse' })).toEqual({ kind: 'forward', delayMs: 0 });
      expect(planner('cut-mid-event').planner.plan({ method: 'GET' })).toEqual({ kind: 'forward', delayMs: 0 });
    });
  });
});
