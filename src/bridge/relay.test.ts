import { describe, expect, it } from 'vitest';
import type { BridgeToBackground } from '../protocol/messages';
import { unpack } from '../protocol/parcel';
import type { ConnectionDelta, Parcel } from '../protocol/records';
import { Relay, type RelayPort } from './relay';

function fakePort(): RelayPort & { sent: BridgeToBackground[]; disconnect(): void } {
  let onDisconnect = (): void => undefined;
  const sent: BridgeToBackground[] = [];
  return {
    sent,
    postMessage: (m) => sent.push(m),
    onDisconnect: (listener) => (onDisconnect = listener),
    disconnect: () => onDisconnect(),
  };
}

const chunk = (n: number): ConnectionDelta => ({
  kind: 'chunk',
  id: 'c',
  t: n,
  bytes: new TextEncoder().encode('ABC'),
});

function parcelOf(message: BridgeToBackground | undefined): Parcel {
  if (!message || message.type === 'navigated') throw new Error(`no parcel in ${message?.type}`);
  return message.parcel;
}

const deltasOf = (message: BridgeToBackground | undefined) => unpack(parcelOf(message));

function setup(): { relay: Relay; ports: ReturnType<typeof fakePort>[]; run: () => void } {
  const ports: ReturnType<typeof fakePort>[] = [];
  const relay = new Relay(
    () => {
      const p = fakePort();
      ports.push(p);
      return p;
    },
    () => 'http://127.0.0.1/',
  );
  // As the bridge does after each of the tap's batches.
  return { relay, ports, run: () => relay.flush() };
}

describe('Relay', () => {
  it('sends nothing and opens no port until the background collects', () => {
    const { relay, ports, run } = setup();
    relay.relay(chunk(1));
    run();
    expect(ports).toEqual([]);
    expect(relay.live).toBe(false);
  });

  it('answers collect with the snapshot (last part flagged), then relays live deltas in batches', async () => {
    const { relay, ports, run } = setup();
    relay.collect(3, [chunk(1)], 10);
    relay.relay(chunk(2));
    relay.relay(chunk(3));
    run();
    expect(ports).toHaveLength(1);
    const [snapshot, live] = ports[0]!.sent;
    expect(snapshot).toMatchObject({
      type: 'snapshot-part',
      generation: 3,
      documentUrl: 'http://127.0.0.1/',
      last: true,
      droppedBytes: 10,
    });
    expect(live).toMatchObject({ type: 'deltas', documentUrl: 'http://127.0.0.1/' });
    expect(await deltasOf(snapshot)).toEqual([chunk(1)]);
    // One batch, one parcel: both chunks' bytes in one Blob.
    expect(await deltasOf(live)).toEqual([chunk(2), chunk(3)]);
    expect(parcelOf(live).bytes.size).toBe(6);
  });

  it('an empty buffer still gives one (empty, last) part so the background knows the frame answered', () => {
    const { relay, ports } = setup();
    relay.collect(1, [], 0);
    expect(ports[0]!.sent).toMatchObject([{ type: 'snapshot-part', parcel: { deltas: [] }, last: true }]);
  });

  it('goes quiet when the port drops (worker stopped) and reconnects on the next collect', () => {
    const { relay, ports, run } = setup();
    relay.collect(1, [], 0);
    ports[0]!.disconnect();
    expect(relay.live).toBe(false);
    relay.relay(chunk(1));
    run();
    expect(ports[0]!.sent).toHaveLength(1);
    relay.collect(2, [chunk(1)], 0);
    expect(ports).toHaveLength(2);
    expect(ports[1]!.sent).toMatchObject([{ type: 'snapshot-part', generation: 2 }]);
    expect(parcelOf(ports[1]!.sent[0]).deltas).toEqual([{ kind: 'chunk', id: 'c', t: 1, size: 3 }]);
  });

  it('flushes queued live deltas before a new snapshot so other panels keep their order', () => {
    const { relay, ports } = setup();
    relay.collect(1, [], 0);
    relay.relay(chunk(5));
    relay.collect(2, [chunk(5)], 0);
    expect(ports[0]!.sent.map((m) => m.type)).toEqual(['snapshot-part', 'deltas', 'snapshot-part']);
  });
});
