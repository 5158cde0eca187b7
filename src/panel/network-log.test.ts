import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_GRACE_MS, watchNetworkLog, type NetworkLog } from './network-log';
import type { PanelTransport } from './transport';

const inner: PanelTransport = {
  tabId: 7,
  start: () => undefined,
  send: () => undefined,
  reattach: () => undefined,
  stop: () => undefined,
};

/** A worker's MCP POST that the tap never saw, as DevTools' HAR has it. */
const workerPost = {
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:9/mcp',
    headers: [],
    postData: { text: '{"jsonrpc":"2.0","id":1}' },
  },
  response: { content: { mimeType: 'application/json' } },
};

function countAfterGrace(log: NetworkLog): number {
  const { unrecorded } = watchNetworkLog(inner, log);
  let count = 0;
  unrecorded.subscribe((n) => (count = n));
  vi.advanceTimersByTime(LOG_GRACE_MS + 1);
  return count;
}

describe('watchNetworkLog reads the log from before the panel opened', () => {
  afterEach(() => vi.useRealTimers());

  it('through a promise-returning getHAR (Firefox, the polyfill)', async () => {
    vi.useFakeTimers();
    const log: NetworkLog = {
      getHAR: () => Promise.resolve({ entries: [workerPost] }),
      onRequestFinished: { addListener: () => undefined },
    };
    const { unrecorded } = watchNetworkLog(inner, log);
    let count = 0;
    unrecorded.subscribe((n) => (count = n));
    await Promise.resolve();
    vi.advanceTimersByTime(LOG_GRACE_MS + 1);
    expect(count).toBe(1);
  });

  it('through a callback-only getHAR (Chromium 150 returns undefined without a callback), without throwing', () => {
    vi.useFakeTimers();
    const log: NetworkLog = {
      getHAR: (callback) => {
        callback?.({ entries: [workerPost] });
        return undefined;
      },
      onRequestFinished: { addListener: () => undefined },
    };
    expect(countAfterGrace(log)).toBe(1);
  });
});
