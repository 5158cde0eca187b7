import { describe, expect, it } from 'vitest';
import type { TapToBridge } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { TapChannel } from './channel';
import { captureNatives } from './natives';
import { BRIDGE_EVENT, BRIDGE_SOURCE, TAP_EVENT } from './wire';

/** A channel on its own bus; the test plays the bridge, answering when it chooses. */
function channelOnBus() {
  const bus = new EventTarget();
  const sent: ConnectionDelta[] = [];
  bus.addEventListener(TAP_EVENT, (event) =>
    sent.push(...(JSON.parse((event as CustomEvent<string>).detail) as TapToBridge).deltas),
  );
  const channel = new TapChannel(captureNatives(globalThis), bus, 'test');
  channel.open();
  const answer = (revealSecrets: boolean) =>
    bus.dispatchEvent(
      new CustomEvent(BRIDGE_EVENT, { detail: JSON.stringify({ source: BRIDGE_SOURCE, revealSecrets }) }),
    );
  return { channel, sent, answer };
}

const atLoad = (channel: TapChannel) => {
  channel.push({
    kind: 'start',
    conn: {
      id: 'c1',
      source: 'fetch',
      method: 'GET',
      url: 'http://127.0.0.1/sse',
      startTime: 1,
      requestHeaders: [{ name: 'authorization', value: 'Bearer s3cret' }],
    },
  });
  channel.push({
    kind: 'response',
    id: 'c1',
    status: 200,
    statusText: 'OK',
    responseTime: 2,
    responseHeaders: [{ name: 'set-cookie', value: 'sid=1' }],
  });
};

describe('tap channel: credentials of requests made before the bridge answered', () => {
  it('sends them in clear when the bridge then says the user opted in', () => {
    const { channel, sent, answer } = channelOnBus();
    atLoad(channel);
    expect(sent).toEqual([]);
    answer(true);
    expect(sent).toMatchObject([
      { kind: 'start', conn: { requestHeaders: [{ name: 'authorization', value: 'Bearer s3cret' }] } },
      { kind: 'response', responseHeaders: [{ name: 'set-cookie', value: 'sid=1' }] },
    ]);
  });

  it('redacts them when the bridge says the user did not', () => {
    const { channel, sent, answer } = channelOnBus();
    atLoad(channel);
    answer(false);
    expect(sent).toMatchObject([
      { kind: 'start', conn: { requestHeaders: [{ name: 'authorization', value: '[redacted]' }] } },
      { kind: 'response', responseHeaders: [{ name: 'set-cookie', value: '[redacted]' }] },
    ]);
  });
});
