import { describe, expect, it } from 'vitest';
import { rpc, sseEvent, Transcript } from '../guard/transcript';
import { buildModel } from './build';

const ERA = '2026-07-28';
const call = (id: number, extra: Record<string, unknown> = {}) =>
  rpc.request(id, 'tools/call', { name: 'deploy', arguments: {}, ...extra });
const inputRequired = (id: number, state: string) =>
  rpc.result(id, { resultType: 'input_required', requestState: state });

describe('multi round-trip retries', () => {
  it('link each retry to the round it answers, over two rounds, answers in JSON or SSE', () => {
    const t = new Transcript();
    const first = t.exchange({ body: call(1), json: inputRequired(1, 's1') }, undefined, ERA);
    const second = t.exchange(
      { body: call(2, { requestState: 's1', inputResponses: {} }), sse: [sseEvent(undefined, inputRequired(2, 's2'))] },
      undefined,
      ERA,
    );
    const third = t.exchange(
      { body: call(3, { requestState: 's2', inputResponses: {} }), json: rpc.result(3) },
      undefined,
      ERA,
    );
    const links = buildModel(t.capture()).connections.map((c) => [c.id, c.retryOf]);
    expect(links).toEqual([
      [first, undefined],
      [second, first],
      [third, second],
    ]);
  });

  it('link nothing in 2025 sessions, or for a retry of another tool, or of a round never answered input_required', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), json: inputRequired(1, 's1') }, 'S1', '2025-11-25');
    t.exchange({ body: call(2, { requestState: 's1' }), json: rpc.result(2) }, 'S1', '2025-11-25');
    t.exchange({ body: call(3), json: rpc.result(3) }, undefined, ERA);
    t.exchange({ body: call(4, { requestState: 'x' }), json: rpc.result(4) }, undefined, ERA);
    t.exchange({ body: call(5), json: inputRequired(5, 's5') }, undefined, ERA);
    t.exchange(
      { body: rpc.request(6, 'tools/call', { name: 'other', requestState: 's5' }), json: rpc.result(6) },
      undefined,
      ERA,
    );
    expect(buildModel(t.capture()).connections.filter((c) => c.retryOf !== undefined)).toEqual([]);
  });
});
