import { describe, expect, it } from 'vitest';
import { editRequest, exchange, recorded, responseText, rewritten, setResponseText } from '../recorded.fixture';
import { findingsFor, rpc, Transcript } from '../testing';

const RULE = 'request-state-altered';
const ERA = '2026-07-28';
const STATE = 'ask_user:round-1:c2VlbiBvbiB0aGUgd2lyZQ==';

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean: ask_user, rewritten)`, () => {
  const clean = recorded('v2-clean');
  const retried = (edit: (params: Record<string, unknown>, body: Record<string, unknown>) => void) =>
    rewritten(clean, (copy) =>
      editRequest(exchange(copy, 'tools/call', 'ask_user', 1), (body) =>
        edit(body['params'] as Record<string, unknown>, body),
      ),
    );

  it('accepts the recording: the SDK echoed the state byte for byte under a new id', () => {
    const [first, retry] = [0, 1].map((n) => JSON.parse(exchange(clean, 'tools/call', 'ask_user', n).requestBody!));
    expect(responseText(exchange(clean, 'tools/call', 'ask_user'))).toContain(`"requestState":"${STATE}"`);
    expect(retry.params.requestState).toBe(STATE);
    expect(retry.id).not.toBe(first.id);
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds a retry whose requestState was changed, at the retry', () => {
    const broken = retried((params) => (params['requestState'] = `${STATE.slice(0, -2)}`));
    const retry = exchange(broken, 'tools/call', 'ask_user', 1);
    const first = exchange(broken, 'tools/call', 'ask_user', 0);
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [
        retry.id,
        `The retry on ${retry.id} of tools/call (id 2, answered input_required on ${first.id}) changes the requestState ("${STATE}" -> "${STATE.slice(0, -2)}").`,
      ],
    ]);
  });

  it('finds a retry that dropped the state, and one that reused the id', () => {
    expect(
      findingsFor(
        retried((params) => delete params['requestState']),
        RULE,
      )[0]?.message,
    ).toContain('drops the requestState');
    const reused = rewritten(clean, (copy) => {
      const retry = exchange(copy, 'tools/call', 'ask_user', 1);
      editRequest(retry, (body) => (body['id'] = 2));
      setResponseText(retry, responseText(retry).replace('"id":3}', '"id":2}'));
    });
    expect(findingsFor(reused, RULE)[0]?.message).toContain('reuses the request id');
  });
});

describe(RULE, () => {
  const inputRequired = (id: number, state?: string) =>
    rpc.result(id, { resultType: 'input_required', ...(state === undefined ? {} : { requestState: state }) });
  const call = (id: number, extra: Record<string, unknown> = {}) =>
    rpc.request(id, 'tools/call', { name: 'deploy', arguments: {}, ...extra });

  it('finds a retry that adds a requestState the server never sent', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), json: inputRequired(1) }, undefined, ERA);
    t.exchange({ body: call(2, { inputResponses: {}, requestState: 'made-up' }), json: rpc.result(2) }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('adds a requestState the server never sent');
  });

  it('accepts a client that never retries, and an unrelated later call of the same tool', () => {
    const t = new Transcript();
    t.exchange({ body: call(1), json: inputRequired(1, 's1') }, undefined, ERA);
    t.exchange({ body: call(2), json: rpc.result(2) }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });
});
