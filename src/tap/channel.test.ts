import { describe, expect, it } from 'vitest';
import type { TapToBridge } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { redactedTag } from '../core/capture/redact/hash';
import { TapChannel } from './channel';
import { captureNatives } from './natives';
import { BRIDGE_HELLO_EVENT, BRIDGE_SOURCE, SLAB_BYTES, TAP_PORT_EVENT } from './wire';

/** A channel on its own bus; the test plays the bridge, taking the port and answering when it chooses. */
function channelOnBus(natives = captureNatives(globalThis)) {
  const bus = new EventTarget();
  const batches: ConnectionDelta[][] = [];
  const marks: (number | undefined)[] = [];
  const offers: MessagePort[] = [];
  let waiting: (() => void)[] = [];
  bus.addEventListener(TAP_PORT_EVENT, (event) => {
    const port = (event as MessageEvent).ports[0];
    if (port) offers.push(port);
  });
  const channel = new TapChannel(natives, bus, 'test');
  channel.open();
  const port = offers[0] as MessagePort;
  port.onmessage = (message: MessageEvent<TapToBridge>) => {
    batches.push(message.data.deltas);
    marks.push(message.data.flushed);
    waiting.splice(0).forEach((wake) => wake());
  };
  waiting = [];
  const answer = (revealSecrets: boolean) => port.postMessage({ source: BRIDGE_SOURCE, revealSecrets });
  const nextBatch = () => new Promise<void>((resolve) => waiting.push(resolve));
  return { bus, channel, batches, marks, offers, port, answer, nextBatch, close: () => port.close() };
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
  it('holds them until the bridge answers, then sends them in clear when the user opted in', async () => {
    const bus = channelOnBus();
    atLoad(bus.channel);
    const sent = bus.nextBatch();
    bus.answer(true);
    await sent;
    expect(bus.batches).toHaveLength(1);
    expect(bus.batches[0]).toMatchObject([
      { kind: 'start', conn: { requestHeaders: [{ name: 'authorization', value: 'Bearer s3cret' }] } },
      { kind: 'response', responseHeaders: [{ name: 'set-cookie', value: 'sid=1' }] },
    ]);
    bus.close();
  });

  it('redacts them when the bridge says the user did not', async () => {
    const bus = channelOnBus();
    atLoad(bus.channel);
    const sent = bus.nextBatch();
    bus.answer(false);
    await sent;
    expect(bus.batches[0]).toMatchObject([
      {
        kind: 'start',
        conn: { requestHeaders: [{ name: 'authorization', value: `Bearer ${redactedTag('s3cret')}` }] },
      },
      { kind: 'response', responseHeaders: [{ name: 'set-cookie', value: redactedTag('sid=1') }] },
    ]);
    bus.close();
  });
});

describe('tap channel: bytes leave the page without being encoded', () => {
  it('copies big chunks into one slab, moves the slab to the bridge and leaves the page its bytes', async () => {
    const bus = channelOnBus();
    bus.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const first = new Uint8Array(100 * 1024).fill(1);
    const whole = new Uint8Array(300 * 1024).fill(2);
    const view = whole.subarray(100 * 1024);
    const sent = bus.nextBatch();
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 3, bytes: first });
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 4, bytes: view });
    await sent;
    expect(bus.batches).toHaveLength(1);
    const [a, b] = bus.batches[0] as Extract<ConnectionDelta, { kind: 'chunk' }>[];
    expect(a?.bytes.every((x) => x === 1) && a.bytes.byteLength).toBe(100 * 1024);
    expect(b?.bytes.every((x) => x === 2) && b.bytes.byteLength).toBe(200 * 1024);
    // Both copies sit one after the other in the same moved slab; the bytes the page read are untouched.
    expect(a?.bytes.buffer).toBe(b?.bytes.buffer);
    expect(a?.bytes.buffer.byteLength).toBe(SLAB_BYTES);
    expect(b?.bytes.byteOffset).toBe(100 * 1024);
    expect(first.byteLength).toBe(100 * 1024);
    expect(whole.byteLength).toBe(300 * 1024);
    bus.close();
  });

  it('gives a small chunk a buffer of its own: a slab would move 2 MiB for a few bytes', async () => {
    const bus = channelOnBus();
    bus.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const own = new TextEncoder().encode('data: 1\n\n');
    const sent = bus.nextBatch();
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 3, bytes: own });
    await sent;
    const [chunk] = bus.batches[0] as Extract<ConnectionDelta, { kind: 'chunk' }>[];
    expect(new TextDecoder().decode(chunk?.bytes)).toBe('data: 1\n\n');
    expect(chunk?.bytes.buffer.byteLength).toBe(9);
    expect(own.byteLength).toBe(9);
    bus.close();
  });

  it('writes the next batch into a slab the bridge gave back instead of a fresh one', async () => {
    let made = 0;
    const natives = captureNatives(globalThis);
    const counting = new Proxy(ArrayBuffer, {
      construct(target, args: [number]) {
        made++;
        return new target(...args);
      },
    });
    const bus = channelOnBus({ ...natives, ArrayBuffer: counting });
    bus.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    let sent = bus.nextBatch();
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 1, bytes: new Uint8Array(100 * 1024).fill(1) });
    await sent;
    expect(made).toBe(1);
    const chunkAt = (batch: number) => bus.batches[batch]?.[0] as Extract<ConnectionDelta, { kind: 'chunk' }>;
    const slab = chunkAt(0).bytes.buffer as ArrayBuffer;
    // The flip of revealSecrets tells when the tap has read the message that gave the slab back.
    bus.port.postMessage({ source: BRIDGE_SOURCE, revealSecrets: true, slabs: [slab] }, [slab]);
    while (!bus.channel.revealSecrets) await new Promise((resolve) => setTimeout(resolve, 1));
    sent = bus.nextBatch();
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 2, bytes: new Uint8Array(100 * 1024).fill(2) });
    await sent;
    expect(made).toBe(1);
    expect(chunkAt(1).bytes.byteLength).toBe(100 * 1024);
    expect(chunkAt(1).bytes.every((x) => x === 2)).toBe(true);
    bus.close();
  });
});

describe('tap channel: the handshake', () => {
  it('offers its port again to a bridge that says hello before taking one, never a second port', () => {
    const bus = channelOnBus();
    bus.bus.dispatchEvent(new Event(BRIDGE_HELLO_EVENT));
    expect(bus.offers).toHaveLength(2);
    expect(bus.offers[1]).toBe(bus.offers[0]);
    bus.close();
  });
});

/** Lets the page's first batch go (it leaves at once: FIRST_BATCH_MS), so what follows meets the batch timers. */
async function pastFirstBatch(bus: ReturnType<typeof channelOnBus>): Promise<void> {
  const sent = bus.nextBatch();
  bus.channel.push({ kind: 'chunk', id: 'c0', t: 0, bytes: new Uint8Array(1).fill(7) });
  await sent;
  bus.batches.length = 0;
  bus.marks.length = 0;
}

describe('tap channel: the first batch', () => {
  it('goes in the next task, not after the batch timer, and later ones wait for it', async () => {
    const bus = channelOnBus();
    bus.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 1, bytes: new Uint8Array(10).fill(7) });
    // Two macrotasks later: well before the 16 ms timer, the first batch has gone.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bus.batches.map((b) => b.map((d) => d.kind))).toEqual([['chunk']]);
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 2, bytes: new Uint8Array(10).fill(7) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bus.batches).toHaveLength(1);
    await bus.nextBatch();
    expect(bus.batches).toHaveLength(2);
    bus.close();
  });
});

describe('tap channel: while a panel watches', () => {
  it('sends bigger batches: 2 MiB no longer goes at once, 8 MiB goes in one batch', async () => {
    const bus = channelOnBus();
    // The flip of revealSecrets tells when the tap has read the message that says a panel watches.
    bus.port.postMessage({ source: BRIDGE_SOURCE, revealSecrets: true, live: true });
    while (!bus.channel.revealSecrets) await new Promise((resolve) => setTimeout(resolve, 1));
    await pastFirstBatch(bus);
    const mib = () => new Uint8Array(1024 * 1024).fill(7);
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 1, bytes: mib() });
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 2, bytes: mib() });
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 3, bytes: mib() });
    // A macrotask later (the 100 ms batch timer expires after it), nothing has gone yet.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bus.batches).toHaveLength(0);
    const sent = bus.nextBatch();
    for (let t = 4; t <= 8; t++) bus.channel.push({ kind: 'chunk', id: 'c1', t, bytes: mib() });
    await sent;
    expect(bus.batches).toHaveLength(1);
    expect(bus.batches[0]?.map((d) => (d.kind === 'chunk' ? d.t : 0))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    bus.close();
  });

  it('sends a batch holding the end of a body at once, without waiting for the timer', async () => {
    const bus = channelOnBus();
    bus.port.postMessage({ source: BRIDGE_SOURCE, revealSecrets: true, live: true });
    while (!bus.channel.revealSecrets) await new Promise((resolve) => setTimeout(resolve, 1));
    await pastFirstBatch(bus);
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 1, bytes: new Uint8Array(10).fill(7) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bus.batches).toHaveLength(0);
    bus.channel.push({ kind: 'end', id: 'c1', end: 'complete', endTime: 2 });
    // A macrotask later: the 100 ms timer has not fired, the batch has gone.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bus.batches[0]?.map((d) => d.kind)).toEqual(['chunk', 'end']);
    bus.close();
  });
});

describe('tap channel: a receiver that asks for a flush', () => {
  it('gets what the tap holds at once, marked, and an empty marked batch when it holds nothing', async () => {
    const bus = channelOnBus();
    bus.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await pastFirstBatch(bus);
    bus.channel.push({ kind: 'chunk', id: 'c1', t: 1, bytes: new Uint8Array(10).fill(7) });
    // Asked before the 16 ms timer fired: the chunk comes in the marked batch, not in one of its own before it.
    let sent = bus.nextBatch();
    bus.port.postMessage({ source: BRIDGE_SOURCE, revealSecrets: false, flush: 7 });
    await sent;
    expect(bus.batches.map((b) => b.map((d) => d.kind))).toEqual([['chunk']]);
    expect(bus.marks).toEqual([7]);
    sent = bus.nextBatch();
    bus.port.postMessage({ source: BRIDGE_SOURCE, revealSecrets: false, flush: 8 });
    await sent;
    expect(bus.batches[1]).toEqual([]);
    expect(bus.marks).toEqual([7, 8]);
    bus.close();
  });
});
