import { describe, expect, it } from 'vitest';
import { rpc, sseEvent, Transcript } from '../guard/transcript';
import { buildModel } from './build';

const ERA = '2026-07-28';
const call = (id: number, token: number) =>
  rpc.request(id, 'tools/call', { name: 'slow', arguments: { n: 3 }, _meta: { progressToken: token } });
const progress = (token: number) =>
  sseEvent(undefined, rpc.notification('notifications/progress', { progressToken: token, progress: 1 }));

describe('re-issues of lost 2026-07-28 requests', () => {
  it('link the same call sent again (new id, new progress token) to the connection whose stream broke', () => {
    const t = new Transcript();
    const cut = t.exchange({ body: call(1, 1), sse: [progress(1)], end: 'network-error' }, undefined, ERA);
    const again = t.exchange(
      { body: call(2, 2), sse: [progress(2), sseEvent(undefined, rpc.result(2))] },
      undefined,
      ERA,
    );
    const third = t.exchange({ body: call(3, 3), json: rpc.result(3) }, undefined, ERA);
    const model = buildModel(t.capture());
    expect(model.connections.map((c) => [c.id, c.reissueOf])).toEqual([
      [cut, undefined],
      [again, cut],
      [third, undefined],
    ]);
    expect(model.sessions.map((s) => s.stateless)).toEqual([true]);
  });

  it('link nothing for a stream answered before it broke, another call, or a 2025 session', () => {
    const t = new Transcript();
    t.exchange({ body: call(1, 1), sse: [sseEvent(undefined, rpc.result(1))], end: 'network-error' }, undefined, ERA);
    t.exchange({ body: call(2, 2), json: rpc.result(2) }, undefined, ERA);
    t.exchange({ body: call(3, 3), sse: [progress(3)], end: 'network-error' }, undefined, ERA);
    t.exchange({ body: rpc.request(4, 'tools/call', { name: 'other' }), json: rpc.result(4) }, undefined, ERA);
    t.exchange({ body: call(5, 5), sse: [progress(5)], end: 'network-error' }, 'S1', '2025-11-25');
    t.exchange({ body: call(6, 6), json: rpc.result(6) }, 'S1', '2025-11-25');
    expect(buildModel(t.capture()).connections.filter((c) => c.reissueOf !== undefined)).toEqual([]);
  });
});
