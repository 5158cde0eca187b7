import { describe, expect, it } from 'vitest';
import { asBackgroundToPanel, asPanelToBackground } from './decode-panel';
import type { BackgroundToPanel } from './messages';

const snapshot: BackgroundToPanel = {
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
};

describe('asBackgroundToPanel', () => {
  it('accepts well-formed messages and rejects junk', () => {
    expect(asBackgroundToPanel(snapshot, 7)).toEqual(snapshot);
    expect(
      asBackgroundToPanel(
        { type: 'deltas', tabId: 7, deltas: [{ kind: 'chunk', id: 'f3.c', t: 1, bytes: new Uint8Array([1]) }] },
        7,
      ),
    ).toBeDefined();
    expect(
      asBackgroundToPanel(
        { type: 'deltas', tabId: 7, deltas: [{ kind: 'chunk', id: 'c', t: '1', bytes: new Uint8Array([1]) }] },
        7,
      ),
    ).toBeUndefined();
    expect(asBackgroundToPanel({ type: 'evil', tabId: 7 }, 7)).toBeUndefined();
    expect(asBackgroundToPanel('snapshot', 7)).toBeUndefined();
  });
});

describe('asBackgroundToPanel, per message', () => {
  it('drops a message for another tab', () => {
    expect(asBackgroundToPanel({ ...snapshot, tabId: 8 }, 7)).toBeUndefined();
  });

  it('defaults a missing droppedBytes to 0 and rejects a start delta without its connection head', () => {
    const { droppedBytes: _dropped, ...old } = snapshot;
    expect(asBackgroundToPanel(old, 7)).toEqual(snapshot);
    expect(asBackgroundToPanel({ ...snapshot, deltas: [{ kind: 'start', conn: { id: 'c1' } }] }, 7)).toBeUndefined();
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
  });
});
