import { describe, expect, it } from 'vitest';
import type { BackgroundToBridge, BackgroundToBridgePort, BackgroundToPanel, BreakAck } from '../protocol/messages';
import { pack } from '../protocol/parcel';
import type { ConnectionDelta, ParcelDelta } from '../protocol/records';
import { Router, SNAPSHOT_TIMEOUT_MS, type BridgeLink, type PanelLink, type RouterEffects } from './router';

const TAB = 4;
const startOf = (id: string): ConnectionDelta => ({
  kind: 'start',
  conn: { id, source: 'fetch', method: 'GET', url: 'http://127.0.0.1/mcp', requestHeaders: [], startTime: 1 },
});
const chunkOf = (id: string, t: number): ConnectionDelta => ({
  kind: 'chunk',
  id,
  t,
  bytes: new TextEncoder().encode('ABC'),
});

/** A panel message as the tests compare it: the heads of its parcels in order (the Blobs are checked elsewhere). */
type Seen =
  | BreakAck
  | Exclude<BackgroundToPanel, { parcels: unknown }>
  | (Omit<Extract<BackgroundToPanel, { parcels: unknown }>, 'parcels'> & { deltas: ParcelDelta[] });

function seen(m: BackgroundToPanel | BreakAck): Seen {
  if (m.type === 'navigated' || m.type === 'break-armed') return m;
  const { parcels, ...rest } = m;
  return { ...rest, deltas: parcels.flatMap((p) => p.deltas) };
}

/** The bridge stream each parcel of a panel message came from. */
function sources(m: BackgroundToPanel | BreakAck): unknown[] {
  return m.type === 'navigated' || m.type === 'break-armed' ? [] : m.parcels.map((p) => p.from);
}

/** The deltas as a parcel carries them: a chunk's bytes are in the Blob, only their size in the head. */
const heads = (deltas: ConnectionDelta[]): ParcelDelta[] =>
  deltas.map((d) => (d.kind === 'chunk' ? { kind: 'chunk', id: d.id, t: d.t, size: d.bytes.byteLength } : d));

interface Harness {
  router: Router;
  collects: { frameId: number; generation: number; resume?: { link: string; seq: number } }[];
  broadcasts: BackgroundToBridge[];
  /** Frames the router asked to remember, from hellos. */
  noted: { frameId: number; url: string }[];
  /** Break arms sent, with the frame they went to. */
  breaks: { frameId: number; message: BackgroundToBridge }[];
  timers: { task: () => void; ms: number }[];
  panel(): PanelLink & { got: Seen[] };
  bridge(frameId: number): BridgeLink & { disconnected: boolean; posted: BackgroundToBridgePort[] };
  settle(): Promise<void>;
  runTimers(ms: number): void;
}

function harness(frames: number[] = [0], withoutBridge: number[] = []): Harness {
  const collects: Harness['collects'] = [];
  const broadcasts: BackgroundToBridge[] = [];
  const breaks: Harness['breaks'] = [];
  const timers: Harness['timers'] = [];
  const noted: Harness['noted'] = [];
  const fx: RouterEffects = {
    listFrames: async () =>
      frames.map((frameId) => ({ frameId, url: frameId === 0 ? 'http://127.0.0.1/page' : 'about:blank' })),
    noteFrame: async (_tab, frameId, url) => {
      noted.push({ frameId, url });
    },
    sendToFrame: async (_tab, frameId, message) => {
      if (message.type === 'collect')
        collects.push({
          frameId,
          generation: message.generation,
          ...(message.resume ? { resume: message.resume } : {}),
        });
      if (message.type === 'break') breaks.push({ frameId, message });
      return !withoutBridge.includes(frameId);
    },
    sendToTab: (_tab, message) => broadcasts.push(message),
    getPreserveLog: async () => true,
    setPreserveLog: async () => undefined,
    setTimer: (task, ms) => timers.push({ task, ms }),
    tabUrl: async () => 'http://localhost/not-picked',
  };
  const router = new Router(fx);
  return {
    router,
    collects,
    broadcasts,
    noted,
    breaks,
    timers,
    panel: () => {
      const got: Seen[] = [];
      return { got, post: (m) => got.push(seen(m)) };
    },
    bridge: (frameId) => {
      const posted: BackgroundToBridgePort[] = [];
      const link = {
        tabId: TAB,
        frameId,
        disconnected: false,
        posted,
        post: (m: BackgroundToBridgePort) => posted.push(m),
        disconnect: () => (link.disconnected = true),
      };
      router.bridgeConnected(link);
      return link;
    },
    settle: () => new Promise((r) => setTimeout(r, 0)),
    runTimers: (ms) => timers.splice(0).forEach((t) => (t.ms <= ms ? t.task() : timers.push(t))),
  };
}

const LINK = 'bridge-link-1';
const part = (generation: number, deltas: ConnectionDelta[], last = true, seq = 0, resumed = false) =>
  ({
    type: 'snapshot-part',
    generation,
    documentUrl: 'http://127.0.0.1/page',
    parcel: pack(deltas),
    last,
    droppedBytes: 0,
    droppedConnections: 0,
    link: LINK,
    seq,
    resumed,
  }) as const;
let liveSeq = 0;
const live = (deltas: ConnectionDelta[], seq = ++liveSeq) =>
  ({ type: 'deltas', documentUrl: 'http://127.0.0.1/page', parcel: pack(deltas), link: LINK, seq }) as const;

describe('Router', () => {
  it('on attach collects every frame and sends one snapshot, then live deltas', async () => {
    const h = harness([0, 3]);
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    expect(h.collects.map((c) => c.frameId)).toEqual([0, 3]);
    const top = h.bridge(0);
    const sub = h.bridge(3);
    h.router.bridgeMessage(top, part(1, [startOf('a')]));
    expect(panel.got).toEqual([]);
    h.router.bridgeMessage(top, live([chunkOf('a', 2)]));
    h.router.bridgeMessage(sub, part(1, [startOf('b')]));
    expect(panel.got).toEqual([
      {
        type: 'snapshot',
        tabId: TAB,
        pageUrl: 'http://127.0.0.1/page',
        deltas: [startOf('a'), { ...startOf('b'), conn: { ...(startOf('b') as { conn: object }).conn, id: 'f3.b' } }],
        preserveLog: true,
        droppedBytes: 0,
        droppedConnections: 0,
      },
      { type: 'deltas', tabId: TAB, deltas: heads([chunkOf('a', 2)]) },
    ]);
    h.router.bridgeMessage(top, live([chunkOf('a', 3)]));
    expect(panel.got.at(-1)).toEqual({ type: 'deltas', tabId: TAB, deltas: heads([chunkOf('a', 3)]) });
  });

  it('drops live deltas a bridge sent before its snapshot (they are in it) so nothing doubles', async () => {
    const h = harness();
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    const top = h.bridge(0);
    h.router.bridgeMessage(top, live([chunkOf('a', 2)]));
    h.router.bridgeMessage(top, part(1, [startOf('a'), chunkOf('a', 2)]));
    expect(panel.got).toHaveLength(1);
    expect(panel.got[0]).toMatchObject({ type: 'snapshot', deltas: heads([startOf('a'), chunkOf('a', 2)]) });
  });

  it('a second panel gets its own snapshot; the first panel does not see the buffer twice', async () => {
    const h = harness();
    const first = h.panel();
    h.router.panelMessage(first, { type: 'attach', tabId: TAB });
    await h.settle();
    const top = h.bridge(0);
    h.router.bridgeMessage(top, part(1, [startOf('a')]));
    const second = h.panel();
    h.router.panelMessage(second, { type: 'attach', tabId: TAB });
    await h.settle();
    expect(h.collects.at(-1)).toEqual({ frameId: 0, generation: 2 });
    h.router.bridgeMessage(top, part(2, [startOf('a')]));
    h.router.bridgeMessage(top, live([chunkOf('a', 5)]));
    expect(first.got.map((m) => m.type)).toEqual(['snapshot', 'deltas']);
    expect(second.got).toMatchObject([
      { type: 'snapshot', deltas: [startOf('a')] },
      { type: 'deltas', deltas: heads([chunkOf('a', 5)]) },
    ]);
  });

  it('tags what it forwards with its bridge stream and acknowledges to a bridge the least any watching panel holds', async () => {
    const h = harness([0, 3]);
    const raw: (BackgroundToPanel | BreakAck)[] = [];
    const a: PanelLink = { post: (m) => raw.push(m) };
    const b = h.panel();
    h.router.panelMessage(a, { type: 'attach', tabId: TAB });
    h.router.panelMessage(b, { type: 'attach', tabId: TAB });
    await h.settle();
    const top = h.bridge(0);
    const sub = h.bridge(3);
    h.router.bridgeMessage(top, part(2, [startOf('a')], true, 4));
    h.router.bridgeMessage(sub, part(2, [], true, 0));
    h.router.bridgeMessage(top, live([chunkOf('a', 2)], 5));
    expect(raw.flatMap(sources)).toEqual([
      { frameId: 0, link: LINK, seq: 4 },
      { frameId: 0, link: LINK, seq: 5 },
    ]);
    h.router.panelMessage(a, { type: 'ack', tabId: TAB, frameId: 0, link: LINK, seq: 5 });
    expect(top.posted).toEqual([]);
    // Of another bridge stream (an older document): ignored.
    h.router.panelMessage(b, { type: 'ack', tabId: TAB, frameId: 0, link: 'old', seq: 9 });
    expect(top.posted).toEqual([]);
    h.router.panelMessage(b, { type: 'ack', tabId: TAB, frameId: 0, link: LINK, seq: 4 });
    expect(top.posted).toEqual([{ type: 'ack', seq: 4 }]);
    expect(sub.posted).toEqual([]);
    // The last panel leaving tells the bridges nobody watches before closing their Ports.
    h.router.panelDisconnected(a);
    h.router.panelDisconnected(b);
    expect(top.posted.at(-1)).toEqual({ type: 'idle' });
    expect(top.disconnected).toBe(true);
  });

  it("passes a re-attaching panel's resume point to its frame's collect", async () => {
    const h = harness([0, 3]);
    const panel = h.panel();
    h.router.panelMessage(panel, {
      type: 'attach',
      tabId: TAB,
      resume: [{ frameId: 3, link: LINK, seq: 7 }],
    });
    await h.settle();
    expect(h.collects).toEqual([
      { frameId: 0, generation: 1 },
      { frameId: 3, generation: 1, resume: { link: LINK, seq: 7 } },
    ]);
  });

  it('ignores parts of a collect that began before the panel attached', async () => {
    const h = harness();
    const first = h.panel();
    h.router.panelMessage(first, { type: 'attach', tabId: TAB });
    await h.settle();
    const top = h.bridge(0);
    h.router.bridgeMessage(top, part(1, [startOf('a')], false));
    const second = h.panel();
    h.router.panelMessage(second, { type: 'attach', tabId: TAB });
    await h.settle();
    h.router.bridgeMessage(top, part(1, [chunkOf('a', 2)], true));
    expect(second.got).toEqual([]);
    h.router.bridgeMessage(top, part(2, [startOf('a'), chunkOf('a', 2)]));
    expect(second.got).toMatchObject([{ type: 'snapshot', deltas: heads([startOf('a'), chunkOf('a', 2)]) }]);
  });

  it("names the tab's page from the browser when its top frame has no bridge (a site not picked for recording)", async () => {
    const h = harness([]);
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    expect(h.collects).toEqual([]);
    expect(panel.got).toMatchObject([{ type: 'snapshot', pageUrl: 'http://localhost/not-picked', deltas: [] }]);
  });

  it('does not wait for frames without a bridge, and sends what it has when a frame never answers', async () => {
    const h = harness([0, 1, 2], [1]);
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    const top = h.bridge(0);
    h.router.bridgeMessage(top, part(1, [startOf('a')]));
    expect(panel.got).toEqual([]);
    h.runTimers(SNAPSHOT_TIMEOUT_MS);
    expect(panel.got).toMatchObject([{ type: 'snapshot', deltas: [startOf('a')] }]);
    const late = h.bridge(2);
    h.router.bridgeMessage(late, part(1, [startOf('z')]));
    expect(panel.got.at(-1)).toMatchObject({ type: 'deltas', deltas: [{ kind: 'start', conn: { id: 'f2.z' } }] });
  });

  it("takes a new bridge's hello in the top frame as a navigation: tells panels and collects the new document", async () => {
    const h = harness();
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    h.router.bridgeMessage(h.bridge(0), part(1, []));
    h.router.bridgeHello(TAB, 0, 'http://127.0.0.1/next');
    expect(h.noted).toEqual([{ frameId: 0, url: 'http://127.0.0.1/next' }]);
    expect(panel.got.at(-1)).toEqual({
      type: 'navigated',
      tabId: TAB,
      pageUrl: 'http://127.0.0.1/next',
      preserveLog: true,
    });
    h.runTimers(0);
    await h.settle();
    expect(h.collects.at(-1)).toEqual({ frameId: 0, generation: 2 });
    const fresh = h.bridge(0);
    h.router.bridgeMessage(fresh, part(2, [startOf('n')]));
    expect(panel.got.at(-1)).toEqual({ type: 'deltas', tabId: TAB, deltas: [startOf('n')] });
  });

  it('remembers the frames of tabs nobody watches, and collects nothing there', () => {
    const h = harness();
    h.router.bridgeHello(TAB, 2, 'http://127.0.0.1/frame');
    expect(h.noted).toEqual([{ frameId: 2, url: 'http://127.0.0.1/frame' }]);
    expect(h.timers).toEqual([]);
  });

  it('a hello in a subframe collects that frame without a navigation mark', async () => {
    const h = harness([0, 5]);
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    h.router.bridgeMessage(h.bridge(0), part(1, []));
    h.runTimers(SNAPSHOT_TIMEOUT_MS);
    h.router.bridgeHello(TAB, 5, 'data:text/html,x');
    h.runTimers(0);
    await h.settle();
    expect(h.collects.at(-1)).toEqual({ frameId: 5, generation: 2 });
    expect(panel.got.some((m) => m.type === 'navigated')).toBe(false);
  });

  it('clear reaches every frame; the last panel leaving disconnects the bridges of its tab', async () => {
    const h = harness();
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    const top = h.bridge(0);
    h.router.panelMessage(panel, { type: 'clear', tabId: TAB });
    expect(h.broadcasts).toEqual([{ type: 'clear' }]);
    h.router.panelDisconnected(panel);
    expect(top.disconnected).toBe(true);
  });

  it('arms the top frame only, tells the panel the tap took it, and disarms when the last panel of the tab goes', async () => {
    const h = harness([0, 3]);
    const panel = h.panel();
    h.router.panelMessage(panel, { type: 'attach', tabId: TAB });
    await h.settle();
    const arm = { armId: 'a1', faults: ['cut-mid-event:60'] };
    h.router.panelMessage(panel, { type: 'break', tabId: TAB, arm });
    await h.settle();
    expect(h.breaks).toEqual([{ frameId: 0, message: { type: 'break', arm } }]);
    expect(panel.got.filter((m) => m.type === 'break-armed')).toEqual([
      { type: 'break-armed', tabId: TAB, armId: 'a1', taken: true },
    ]);
    h.router.panelDisconnected(panel);
    await h.settle();
    expect(h.breaks.at(-1)).toEqual({ frameId: 0, message: { type: 'break', arm: null } });
  });
});
