// Panel (inside DevTools only): watches DevTools' network log beside the transport, so the panel can say how many
// MCP-looking requests happened that the tap never saw (a worker's). Injected with `devtools.network`; a panel
// opened as a plain page has no network log and shows nothing of this.
import type { TransportMessage } from '../protocol/messages';
import type { PanelTransport } from './transport';
import { mcpEntry, UnrecordedTally } from './unrecorded';

/** The part of `devtools.network` used here. */
export interface NetworkLog {
  /** A promise where the browser (or the polyfill) gives one; Chromium 150 gives none and answers a callback only. */
  getHAR(callback?: (har: unknown) => void): Promise<unknown> | undefined;
  onRequestFinished: { addListener(listener: (request: unknown) => void): void };
}

export interface UnrecordedFeed {
  /** Calls `listener` with the count now and on every change; returns the unsubscribe. */
  subscribe(listener: (count: number) => void): () => void;
}

/**
 * A finished request is counted only after this grace: the tap's record of the same request may still be in a
 * batch on its way (the bridge batches up to 100 ms while a panel watches), and must not be reported as missing.
 */
export const LOG_GRACE_MS = 1500;

function startsOf(message: TransportMessage): { id: string; method: string; url: string }[] {
  if (message.type === 'navigated') return [];
  const deltas = 'parcels' in message ? message.parcels.flatMap((p) => p.deltas) : message.deltas;
  return deltas.flatMap((d) => (d.kind === 'start' ? [{ id: d.conn.id, method: d.conn.method, url: d.conn.url }] : []));
}

/** The log so far, through whichever form of getHAR the browser has (a promise, else a callback). */
function readHar(log: NetworkLog, take: (har: unknown) => void): void {
  const pending = log.getHAR();
  if (pending && typeof pending.then === 'function') pending.then(take, () => undefined);
  else void log.getHAR(take);
}

export function watchNetworkLog(
  inner: PanelTransport,
  log: NetworkLog,
): { transport: PanelTransport; unrecorded: UnrecordedFeed } {
  const tally = new UnrecordedTally();
  const listeners = new Set<(count: number) => void>();
  let shown = 0;
  const changed = (): void => {
    if (tally.count === shown) return;
    shown = tally.count;
    for (const l of listeners) l(shown);
  };
  const logged = (har: unknown): void => {
    const entry = mcpEntry(har);
    if (!entry) return;
    setTimeout(() => {
      tally.networkEntry(entry);
      changed();
    }, LOG_GRACE_MS);
  };
  log.onRequestFinished.addListener(logged);
  // What the log holds from before this panel was first shown (Chromium loads a panel when it is first selected).
  readHar(log, (har) => {
    const entries = (har as { entries?: unknown } | undefined)?.entries;
    if (Array.isArray(entries)) entries.forEach(logged);
  });
  const transport: PanelTransport = {
    get tabId() {
      return inner.tabId;
    },
    ...(inner.settings ? { settings: inner.settings } : {}),
    start: (listener) =>
      inner.start({
        ...listener,
        message: (message, owned) => {
          if (message.type === 'navigated' && !message.preserveLog) tally.reset();
          for (const s of startsOf(message)) tally.recordedStart(s.id, s.method, s.url);
          changed();
          listener.message(message, owned);
        },
      }),
    send: (message) => {
      if (message.type === 'clear') tally.reset();
      inner.send(message);
      changed();
    },
    reattach: () => inner.reattach(),
    stop: () => inner.stop(),
  };
  return {
    transport,
    unrecorded: {
      subscribe: (listener) => {
        listeners.add(listener);
        listener(shown);
        return () => listeners.delete(listener);
      },
    },
  };
}
