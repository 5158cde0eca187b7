import { describe, expect, it } from 'vitest';
import { asBackgroundToPanel, asPanelFeed, asPanelToBackground } from './decode-panel';
import type { BackgroundToPanel, PanelFeed } from './messages';
import { pack } from './parcel';

const feed: PanelFeed = {
  type: 'snapshot',
  tabId: 7,
  pageUrl: 'http://127.0.0.1/app',
  deltas: [
    {
      kind: 'start',
      conn: {
        id: 'c1',
        source: 'fetch',
        method: 'POST',
        url: 'http://127.0.0.1/mcp',
        requestHeaders: [],
        startTime: 1,
      },
    },
  ],
  preserveLog: false,
  droppedBytes: 0,
  droppedConnections: 0,
};

const { deltas: _deltas, ...snapshotHead } = feed;
const parcel = pack([
  ...(feed.type === 'snapshot' ? feed.deltas : []),
  { kind: 'chunk', id: 'c1', t: 2, bytes: new Uint8Array([1]) },
]);
const snapshot: BackgroundToPanel = { ...snapshotHead, type: 'snapshot', parcels: [parcel] };

describe('asBackgroundToPanel', () => {
  it('accepts well-formed messages and rejects junk', () => {
    expect(asBackgroundToPanel(snapshot, 7)).toEqual({
      ...snapshot,
      parcels: [{ deltas: [parcel.deltas[0], { kind: 'chunk', id: 'c1', t: 2, size: 1 }], bytes: parcel.bytes }],
    });
    const scoped = { deltas: [{ kind: 'chunk', id: 'f3.c', t: 1, size: 1 }], bytes: new Blob([new Uint8Array([1])]) };
    expect(asBackgroundToPanel({ type: 'deltas', tabId: 7, parcels: [scoped] }, 7)).toBeDefined();
    const badTime = { ...scoped, deltas: [{ kind: 'chunk', id: 'c', t: '1', size: 1 }] };
    expect(asBackgroundToPanel({ type: 'deltas', tabId: 7, parcels: [badTime] }, 7)).toBeUndefined();
    expect(
      asBackgroundToPanel({ type: 'deltas', tabId: 7, parcels: [{ ...scoped, bytes: new Blob([]) }] }, 7),
    ).toBeUndefined();
    // The bridge stream a forwarded parcel came from is checked and kept (the panel acknowledges by it).
    const from = { frameId: 3, link: 'l-1', seq: 2 };
    expect(asBackgroundToPanel({ type: 'deltas', tabId: 7, parcels: [{ ...scoped, from }] }, 7)).toMatchObject({
      parcels: [{ from }],
    });
    for (const bad of [{ ...from, seq: -1 }, { ...from, link: '' }, { frameId: 3 }])
      expect(asBackgroundToPanel({ type: 'deltas', tabId: 7, parcels: [{ ...scoped, from: bad }] }, 7)).toBeUndefined();
    expect(asBackgroundToPanel({ type: 'evil', tabId: 7 }, 7)).toBeUndefined();
    expect(asBackgroundToPanel('snapshot', 7)).toBeUndefined();
  });

  it('drops a message for another tab', () => {
    expect(asBackgroundToPanel({ ...snapshot, tabId: 8 }, 7)).toBeUndefined();
  });
});

describe('asPanelFeed', () => {
  it('defaults a missing droppedBytes to 0 and rejects a start delta without its connection head', () => {
    const { droppedBytes: _dropped, droppedConnections: _connections, ...old } = feed;
    expect(asPanelFeed(old)).toEqual(feed);
    expect(asPanelFeed({ ...feed, deltas: [{ kind: 'start', conn: { id: 'c1' } }] })).toBeUndefined();
    expect(
      asPanelFeed({
        type: 'deltas',
        tabId: 7,
        deltas: [{ kind: 'chunk', id: 'f3.c', t: 1, bytes: new Uint8Array([1]) }],
      }),
    ).toBeDefined();
  });
});

describe('asPanelToBackground', () => {
  it('rebuilds each command from its checked fields and refuses the rest', () => {
    expect(asPanelToBackground({ type: 'attach', tabId: 3, extra: 'x' })).toEqual({ type: 'attach', tabId: 3 });
    expect(asPanelToBackground({ type: 'set-preserve-log', tabId: 3, preserve: true })).toEqual({
      type: 'set-preserve-log',
      tabId: 3,
      preserve: true,
    });
    expect(asPanelToBackground({ type: 'set-preserve-log', tabId: 3, preserve: 'yes' })).toBeNull();
    expect(asPanelToBackground({ type: 'attach', tabId: 1.5 })).toBeNull();
    expect(asPanelToBackground({ type: 'attach' })).toBeNull();
    expect(asPanelToBackground({ type: 'reload', tabId: 3 })).toBeNull();
    const resume = [{ frameId: 0, link: 'l-1', seq: 4 }];
    expect(asPanelToBackground({ type: 'attach', tabId: 3, resume })).toEqual({ type: 'attach', tabId: 3, resume });
    expect(asPanelToBackground({ type: 'attach', tabId: 3, resume: [{ frameId: 0, seq: 4 }] })).toBeNull();
    const ack = { type: 'ack', tabId: 3, frameId: 0, link: 'l-1', seq: 4 };
    expect(asPanelToBackground({ ...ack, junk: 1 })).toEqual(ack);
    expect(asPanelToBackground({ ...ack, seq: '4' })).toBeNull();
  });
});
