import { describe, expect, it } from 'vitest';
import { asBackgroundToPanel } from './decode-panel';
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
      asBackgroundToPanel({ type: 'deltas', tabId: 7, deltas: [{ kind: 'chunk', id: 'c', t: 1, b64: 'AA==' }] }, 7),
    ).toBeDefined();
    expect(
      asBackgroundToPanel({ type: 'deltas', tabId: 7, deltas: [{ kind: 'chunk', id: 'c', t: '1', b64: 'AA==' }] }, 7),
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
