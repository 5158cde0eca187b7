import { describe, expect, it } from 'vitest';
import { exchange, recorded, responseText, rewritten, setResponseText } from '../recorded.fixture';
import { findingsFor, rpc, sseEvent, Transcript } from '../testing';

const RULE = 'listen-not-acknowledged';
const ERA = '2026-07-28';
const ID = 'io.modelcontextprotocol/subscriptionId';

describe(`${RULE} on real TS SDK v2 traffic (fixtures/v2-clean: the listen stream, rewritten)`, () => {
  const clean = recorded('v2-clean');
  const withListen = (edit: (text: string) => string) =>
    rewritten(clean, (copy) => {
      const listen = exchange(copy, 'subscriptions/listen');
      setResponseText(listen, edit(responseText(listen)));
    });

  it('accepts the recording: the acknowledgment, with subscription id "listen:0", came first', () => {
    const text = responseText(exchange(clean, 'subscriptions/listen'));
    expect(text.indexOf('notifications/subscriptions/acknowledged')).toBeLessThan(text.indexOf('list_changed'));
    expect(findingsFor(clean, RULE)).toEqual([]);
  });

  it('finds a change notification sent before the acknowledgment', () => {
    const broken = withListen((text) => {
      const [ack, change] = text.split('\n\n');
      return `${change}\n\n${ack}\n\n`;
    });
    const listen = exchange(broken, 'subscriptions/listen');
    expect(findingsFor(broken, RULE).map((f) => [f.connectionId, f.message])).toEqual([
      [
        listen.id,
        `subscriptions/listen (id "listen:0") on ${listen.id} got notifications/tools/list_changed as its first message.`,
      ],
    ]);
  });

  it('finds an acknowledgment without the subscription id, or with another one', () => {
    const without = withListen((text) => text.replace(`"_meta":{"${ID}":"listen:0"}`, '"_meta":{}'));
    expect(findingsFor(without, RULE)[0]?.message).toContain(`was acknowledged without ${ID}`);
    const other = withListen((text) => text.replace(`{"${ID}":"listen:0"}`, `{"${ID}":"listen:9"}`));
    expect(findingsFor(other, RULE)[0]?.message).toContain('was acknowledged as subscription "listen:9"');
  });
});

describe(RULE, () => {
  const listen = rpc.request(5, 'subscriptions/listen', { notifications: { toolsListChanged: true } });

  it('accepts a listen refused in-band, and one still waiting for its first message', () => {
    const t = new Transcript();
    t.exchange(
      { body: listen, sse: [sseEvent(undefined, rpc.error(5, -32603, 'Subscription limit reached'))] },
      undefined,
      ERA,
    );
    t.exchange({ body: listen, sse: [], end: 'open' }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)).toEqual([]);
  });

  it('finds a listen stream that ended without any message', () => {
    const t = new Transcript();
    t.exchange({ body: listen, sse: [': keep-alive\n\n'] }, undefined, ERA);
    expect(findingsFor(t.capture(), RULE)[0]?.message).toContain('ended without any message');
  });
});
