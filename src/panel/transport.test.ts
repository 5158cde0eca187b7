import { describe, expect, it } from 'vitest';
import type { BackgroundToPanel, PanelFeed, PanelToBackground, TransportMessage } from '../protocol/messages';
import { pack } from '../protocol/parcel';
import type { ConnectionDelta } from '../protocol/records';
import type { Settings } from '../platform/settings';
import {
  createOfflineTransport,
  createPortTransport,
  createSettingsAccess,
  type LinkStatus,
  type PortLike,
  type SettingsSource,
} from './transport';

class FakePort implements PortLike {
  posted: PanelToBackground[] = [];
  private messageListeners: Array<(m: unknown) => void> = [];
  private disconnectListeners: Array<() => void> = [];
  disconnected = false;
  postMessage(message: PanelToBackground) {
    this.posted.push(message);
  }
  disconnect() {
    this.disconnected = true;
  }
  onMessage = { addListener: (cb: (m: unknown) => void) => void this.messageListeners.push(cb) };
  onDisconnect = { addListener: (cb: () => void) => void this.disconnectListeners.push(cb) };
  receive(m: unknown) {
    for (const cb of this.messageListeners) cb(m);
  }
  drop() {
    for (const cb of this.disconnectListeners) cb();
  }
}

function harness() {
  const ports: FakePort[] = [];
  const timers: Array<() => void> = [];
  const messages: TransportMessage[] = [];
  const statuses: LinkStatus[] = [];
  const transport = createPortTransport({
    tabId: 7,
    connect: () => {
      const p = new FakePort();
      ports.push(p);
      return p;
    },
    setTimer: (cb) => timers.push(cb),
    clearTimer: () => undefined,
  });
  transport.start({ message: (m) => messages.push(m), status: (s) => statuses.push(s) });
  return { ports, timers, messages, statuses, transport };
}

const snapshot: PanelFeed = {
  type: 'snapshot',
  tabId: 7,
  pageUrl: 'http://127.0.0.1/',
  deltas: [],
  preserveLog: false,
  droppedBytes: 0,
};
/** The same snapshot as the background sends it: deltas in parcels. */
const wireSnapshot: BackgroundToPanel = {
  type: 'snapshot',
  tabId: 7,
  pageUrl: 'http://127.0.0.1/',
  parcels: [],
  preserveLog: false,
  droppedBytes: 0,
  droppedConnections: 0,
};
const chunk = (t: number, text: string): ConnectionDelta => ({
  kind: 'chunk',
  id: 'c',
  t,
  bytes: new TextEncoder().encode(text),
});

describe('port transport', () => {
  it('attaches to its tab on connect and reports attached on the snapshot', () => {
    const h = harness();
    expect(h.ports[0]!.posted).toEqual([{ type: 'attach', tabId: 7 }]);
    h.ports[0]!.receive(wireSnapshot);
    expect(h.statuses).toEqual(['connecting', 'attached']);
    expect(h.messages).toEqual([wireSnapshot]);
  });

  it('hands the background messages on as they came: the bytes in their parcels stay unread here', () => {
    const h = harness();
    const parcel = pack([chunk(1, 'a')]);
    h.ports[0]!.receive({ type: 'deltas', tabId: 7, parcels: [parcel] });
    expect(h.messages).toHaveLength(1);
    const [delivered] = h.messages;
    expect(delivered && 'parcels' in delivered && delivered.parcels[0]?.bytes).toBe(parcel.bytes);
  });

  it('reconnects and re-attaches when the worker goes away', () => {
    const h = harness();
    h.ports[0]!.drop();
    expect(h.statuses.at(-1)).toBe('reconnecting');
    expect(h.ports).toHaveLength(1);
    h.timers.shift()!();
    expect(h.ports).toHaveLength(2);
    expect(h.ports[1]!.posted).toEqual([{ type: 'attach', tabId: 7 }]);
    h.ports[1]!.receive(wireSnapshot);
    expect(h.statuses.at(-1)).toBe('attached');
  });

  it('acknowledges the numbered parcels it holds, re-attaches naming them, and drops what is sent twice', () => {
    const h = harness();
    const numbered = (frameId: number, seq: number) => ({
      ...pack([chunk(seq, 'a')]),
      from: { frameId, link: 'l-1', seq },
    });
    h.ports[0]!.receive({ ...wireSnapshot, parcels: [numbered(0, 2)] });
    h.ports[0]!.receive({ type: 'deltas', tabId: 7, parcels: [numbered(0, 3), numbered(5, 1)] });
    expect(h.ports[0]!.posted.slice(1)).toEqual([
      { type: 'ack', tabId: 7, frameId: 0, link: 'l-1', seq: 2 },
      { type: 'ack', tabId: 7, frameId: 0, link: 'l-1', seq: 3 },
      { type: 'ack', tabId: 7, frameId: 5, link: 'l-1', seq: 1 },
    ]);
    h.ports[0]!.drop();
    h.timers.shift()!();
    expect(h.ports[1]!.posted[0]).toEqual({
      type: 'attach',
      tabId: 7,
      resume: [
        { frameId: 0, link: 'l-1', seq: 3 },
        { frameId: 5, link: 'l-1', seq: 1 },
      ],
    });
    const before = h.messages.length;
    // The bridge re-sends from its oldest unacknowledged parcel: the one held already is left out.
    h.ports[1]!.receive({ ...wireSnapshot, parcels: [] });
    h.ports[1]!.receive({ type: 'deltas', tabId: 7, parcels: [numbered(0, 3), numbered(0, 4)] });
    const [, resent] = h.messages.slice(before);
    expect(resent && 'parcels' in resent && resent.parcels.map((p) => p.from?.seq)).toEqual([4]);
    h.ports[1]!.receive({ type: 'deltas', tabId: 7, parcels: [numbered(0, 4)] });
    expect(h.messages).toHaveLength(before + 2);
  });

  it('ignores messages from a port it already dropped and for other tabs', () => {
    const h = harness();
    const old = h.ports[0]!;
    old.drop();
    h.timers.shift()!();
    old.receive(wireSnapshot);
    h.ports[1]!.receive({ ...wireSnapshot, tabId: 8 });
    expect(h.messages).toEqual([]);
  });

  it('queues commands sent while disconnected and delivers them after attaching', () => {
    const h = harness();
    h.ports[0]!.drop();
    h.transport.send({ type: 'clear', tabId: 7 });
    h.timers.shift()!();
    expect(h.ports[1]!.posted).toEqual([
      { type: 'attach', tabId: 7 },
      { type: 'clear', tabId: 7 },
    ]);
  });

  it('gives up with "gone" when the extension context is invalidated', () => {
    const statuses: LinkStatus[] = [];
    const t = createPortTransport({
      tabId: 1,
      connect: () => {
        throw new Error('Extension context invalidated.');
      },
    });
    t.start({ message: () => undefined, status: (s) => statuses.push(s) });
    expect(statuses).toEqual(['connecting', 'gone']);
  });

  it('stops reconnecting after stop()', () => {
    const h = harness();
    h.transport.stop();
    expect(h.ports[0]!.disconnected).toBe(true);
    h.ports[0]!.drop();
    expect(h.timers).toHaveLength(0);
  });
});

describe('offline transport', () => {
  it('reports offline, replays what it was given and keeps what the panel sent', () => {
    const t = createOfflineTransport([snapshot]);
    const got: TransportMessage[] = [];
    const statuses: LinkStatus[] = [];
    t.start({ message: (m) => got.push(m), status: (s) => statuses.push(s) });
    t.send({ type: 'clear', tabId: 0 });
    expect(statuses).toEqual(['offline']);
    expect(got).toEqual([snapshot]);
    expect(t.sent).toEqual([{ type: 'clear', tabId: 0 }]);
  });

  it('keeps messages delivered before start and hands them over after the initial ones', () => {
    const t = createOfflineTransport([snapshot]);
    const early: PanelFeed = { type: 'deltas', tabId: 0, deltas: [] };
    t.deliver(early);
    const got: TransportMessage[] = [];
    t.start({ message: (m) => got.push(m), status: () => undefined });
    expect(got).toEqual([snapshot, early]);
  });
});

/** A settings store like storage.local: a change feed without unsubscribe, and a count of how often it loaded. */
function fakeStore(initial: Settings) {
  let stored = initial;
  const feed: Array<(s: Settings) => void> = [];
  const store = { loads: 0, feeds: feed };
  const source: SettingsSource = {
    read: async () => stored,
    write: async (change) => {
      stored = { ...stored, ...change };
      for (const f of feed) f(stored);
    },
    watch: (listener) => void feed.push(listener),
  };
  const load = async () => {
    store.loads++;
    return source;
  };
  return { store, load };
}

const defaults: Settings = {
  bufferBytes: 4 * 1024 * 1024,
  revealSecrets: false,
  panelBytes: 256 * 1024 * 1024,
  panelConnections: 5000,
  recordOn: 'every-site',
  pickedSites: [],
  hangAfterSeconds: 30,
  idleCutAfterSeconds: 1,
  bufferedAfterSeconds: 1,
};

describe('settings access', () => {
  it('reads and writes through the store, and tells every watcher of a change', async () => {
    const { store, load } = fakeStore(defaults);
    const access = createSettingsAccess(load);
    const a: Settings[] = [];
    const b: Settings[] = [];
    access.watch((s) => a.push(s));
    access.watch((s) => b.push(s));
    expect(await access.read()).toEqual(defaults);
    await access.write({ revealSecrets: true });
    expect(await access.read()).toEqual({ ...defaults, revealSecrets: true });
    expect(a).toEqual([{ ...defaults, revealSecrets: true }]);
    expect(b).toEqual(a);
    // One load and one subscription to the store, however many watchers.
    expect(store.loads).toBe(1);
    expect(store.feeds).toHaveLength(1);
  });

  it('stops telling a watcher that unsubscribed', async () => {
    const { load } = fakeStore(defaults);
    const access = createSettingsAccess(load);
    const seen: Settings[] = [];
    const unwatch = access.watch((s) => seen.push(s));
    await access.write({ bufferBytes: 8 * 1024 * 1024 });
    unwatch();
    await access.write({ bufferBytes: 16 * 1024 * 1024 });
    expect(seen.map((s) => s.bufferBytes)).toEqual([8 * 1024 * 1024]);
  });

  it('reports a store that cannot load to the reader and writer', async () => {
    const access = createSettingsAccess(() => Promise.reject(new Error('Extension context invalidated.')));
    access.watch(() => undefined);
    await expect(access.read()).rejects.toThrow('Extension context invalidated.');
    await expect(access.write({ revealSecrets: true })).rejects.toThrow('Extension context invalidated.');
  });

  it('the port transport offers settings, loading nothing until asked; the offline transport has none', async () => {
    const { store, load } = fakeStore(defaults);
    const port = createPortTransport({ tabId: 1, connect: () => new FakePort(), settings: createSettingsAccess(load) });
    expect(store.loads).toBe(0);
    expect(await port.settings?.read()).toEqual(defaults);
    expect(createPortTransport({ tabId: 1, connect: () => new FakePort() }).settings).toBeDefined();
    expect(createOfflineTransport().settings).toBeUndefined();
  });
});
