import { describe, expect, it, vi } from 'vitest';
import type { BackgroundToBridgePort, BridgeToBackground } from '../protocol/messages';
import { unpack } from '../protocol/parcel';
import type { ConnectionDelta, Parcel } from '../protocol/records';
import { link } from '../protocol/decode-bridge';
import { newLink, Relay, type RelayPort } from './relay';

function fakePort(): RelayPort & {
  sent: BridgeToBackground[];
  disconnect(): void;
  receive(m: BackgroundToBridgePort): void;
} {
  let onDisconnect = (): void => undefined;
  let onMessage = (_m: BackgroundToBridgePort): void => undefined;
  const sent: BridgeToBackground[] = [];
  return {
    sent,
    postMessage: (m) => sent.push(m),
    onDisconnect: (listener) => (onDisconnect = listener),
    onMessage: (listener) => (onMessage = listener),
    disconnect: () => onDisconnect(),
    receive: (m) => onMessage(m),
  };
}

const NONE = { bytes: 0, connections: 0 };

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
    relay.collect(3, () => [chunk(1)], { bytes: 10, connections: 1 });
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
      droppedConnections: 1,
      resumed: false,
      seq: 0,
    });
    expect(live).toMatchObject({ type: 'deltas', documentUrl: 'http://127.0.0.1/', link: relay.link, seq: 1 });
    expect(await deltasOf(snapshot)).toEqual([chunk(1)]);
    // One batch, one parcel: both chunks' bytes in one Blob.
    expect(await deltasOf(live)).toEqual([chunk(2), chunk(3)]);
    expect(parcelOf(live).bytes.size).toBe(6);
  });

  it('an empty buffer still gives one (empty, last) part so the background knows the frame answered', () => {
    const { relay, ports } = setup();
    relay.collect(1, () => [], NONE);
    expect(ports[0]!.sent).toMatchObject([{ type: 'snapshot-part', parcel: { deltas: [] }, last: true }]);
  });

  it('goes quiet when the background says nobody watches, and sends a snapshot on the next collect', () => {
    const { relay, ports, run } = setup();
    relay.collect(1, () => [], NONE);
    ports[0]!.receive({ type: 'idle' });
    ports[0]!.disconnect();
    expect(relay.live).toBe(false);
    relay.relay(chunk(1));
    run();
    expect(ports[0]!.sent).toHaveLength(1);
    expect(relay.unacknowledged).toBe(0);
    relay.collect(2, () => [chunk(1)], NONE);
    expect(ports).toHaveLength(2);
    expect(ports[1]!.sent).toMatchObject([{ type: 'snapshot-part', generation: 2, resumed: false }]);
    expect(parcelOf(ports[1]!.sent[0]).deltas).toEqual([{ kind: 'chunk', id: 'c', t: 1, size: 3 }]);
  });

  it('keeps what was not acknowledged across a worker stop and re-sends exactly what follows the resume point', async () => {
    const { relay, ports, run } = setup();
    relay.collect(1, () => [], NONE);
    for (const n of [1, 2, 3]) {
      relay.relay(chunk(n));
      run();
    }
    ports[0]!.receive({ type: 'ack', seq: 1 });
    expect(relay.unacknowledged).toBe(2);
    // The worker stops: parcel 3 was lost on the way, and what the page sends meanwhile is kept too.
    ports[0]!.disconnect();
    expect(relay.live).toBe(true);
    relay.relay(chunk(4));
    run();
    relay.collect(2, () => [chunk(99)], NONE, { link: relay.link, seq: 2 });
    const sent = ports[1]!.sent;
    expect(sent[0]).toMatchObject({ type: 'snapshot-part', resumed: true, seq: 2, parcel: { deltas: [] } });
    expect(sent.slice(1).map((m) => (m.type === 'deltas' ? m.seq : -1))).toEqual([3, 4]);
    expect(await deltasOf(sent[2])).toEqual([chunk(4)]);
  });

  it('sends the whole snapshot when the resume point is of another bridge or older than what it holds', () => {
    const { relay, ports, run } = setup();
    relay.collect(1, () => [], NONE);
    for (const n of [1, 2, 3]) {
      relay.relay(chunk(n));
      run();
    }
    ports[0]!.receive({ type: 'ack', seq: 2 });
    ports[0]!.disconnect();
    relay.collect(2, () => [chunk(1)], NONE, { link: relay.link, seq: 1 });
    expect(ports[1]!.sent).toMatchObject([{ type: 'snapshot-part', resumed: false, seq: 3 }]);
    ports[1]!.disconnect();
    relay.collect(3, () => [chunk(1)], NONE, { link: 'another-bridge', seq: 3 });
    expect(ports[2]!.sent).toMatchObject([{ type: 'snapshot-part', resumed: false }]);
  });

  it('over its hold budget, the oldest unacknowledged parcels keep their heads and turn their chunks into gaps', async () => {
    const ports: ReturnType<typeof fakePort>[] = [];
    const relay = new Relay(
      () => {
        const p = fakePort();
        ports.push(p);
        return p;
      },
      () => 'http://127.0.0.1/',
      () => undefined,
      8,
    );
    relay.collect(1, () => [], NONE);
    relay.relay(chunk(1));
    relay.flush();
    relay.relay(chunk(2));
    relay.relay({ kind: 'end', id: 'c', end: 'complete', endTime: 3 });
    relay.flush();
    relay.relay({
      kind: 'start',
      conn: { id: 'd', source: 'fetch', method: 'GET', url: 'u', requestHeaders: [], startTime: 4 },
    });
    relay.relay({ kind: 'chunk', id: 'd', t: 5, bytes: new TextEncoder().encode('ABCDEFGH') });
    relay.flush();
    ports[0]!.disconnect();
    relay.collect(2, () => [], NONE, { link: relay.link, seq: 0 });
    const resent = await Promise.all(ports[1]!.sent.slice(1).map(deltasOf));
    expect(ports[1]!.sent[0]).toMatchObject({ resumed: true });
    expect(resent).toEqual([
      [{ kind: 'gap', id: 'c', gap: { offset: 0, bytes: 3, t: 1, cause: 'unacknowledged' } }],
      [
        { kind: 'gap', id: 'c', gap: { offset: 3, bytes: 3, t: 2, cause: 'unacknowledged' } },
        { kind: 'end', id: 'c', end: 'complete', endTime: 3 },
      ],
      [
        {
          kind: 'start',
          conn: { id: 'd', source: 'fetch', method: 'GET', url: 'u', requestHeaders: [], startTime: 4 },
        },
        { kind: 'chunk', id: 'd', t: 5, bytes: new TextEncoder().encode('ABCDEFGH') },
      ],
    ]);
  });

  it('flushes queued live deltas before a new snapshot so other panels keep their order', () => {
    const { relay, ports } = setup();
    relay.collect(1, () => [], NONE);
    relay.relay(chunk(5));
    relay.collect(2, () => [chunk(5)], NONE);
    expect(ports[0]!.sent.map((m) => m.type)).toEqual(['snapshot-part', 'deltas', 'snapshot-part']);
  });

  it('lets go of what it holds once over budget with no worker to send it to, and goes quiet', () => {
    const ports: ReturnType<typeof fakePort>[] = [];
    const lives: boolean[] = [];
    const relay = new Relay(
      () => {
        const p = fakePort();
        ports.push(p);
        return p;
      },
      () => 'http://127.0.0.1/',
      (live) => lives.push(live),
      8,
    );
    relay.collect(1, () => [], NONE);
    ports[0]!.disconnect();
    relay.relay(chunk(1));
    relay.flush();
    expect(relay.unacknowledged).toBe(1);
    relay.relay({ kind: 'chunk', id: 'c', t: 2, bytes: new TextEncoder().encode('ABCDEFGH') });
    relay.flush();
    expect(relay.unacknowledged).toBe(0);
    expect(relay.live).toBe(false);
    expect(lives).toEqual([true, false]);
    relay.collect(2, () => [chunk(1)], NONE, { link: relay.link, seq: 0 });
    expect(ports[1]!.sent).toMatchObject([{ type: 'snapshot-part', resumed: false }]);
  });
});

describe('newLink', () => {
  it('works where crypto.randomUUID does not exist (a data: iframe is no secure context) and decodes as a link', () => {
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
    try {
      const a = newLink();
      expect(link(a)).toBe(a);
      expect(newLink()).not.toBe(a);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
