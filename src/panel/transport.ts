// Panel: how the panel hears about a tab. It depends on this interface only, never on chrome.runtime, so the
// same UI runs in DevTools, as a plain extension page, in tests, and on an imported file with no extension.
import type { Settings } from '../platform/settings';
import { asBackgroundToPanel, asBreakAck } from '../protocol/decode-panel';
import type { BreakAck, PanelFeed, PanelToBackground, TransportMessage } from '../protocol/messages';
import { HeldParcels } from './held-parcels';

/** connecting: port opening; attached: snapshot received; reconnecting: the worker went away, trying again;
 *  offline: no extension (import only); gone: the extension was reloaded or removed, the panel must be reopened. */
export type LinkStatus = 'connecting' | 'attached' | 'reconnecting' | 'offline' | 'gone';

export interface TransportListener {
  /**
   * `owned`: nothing else keeps a use for the message's chunk buffers, so the panel may transfer them to its worker
   * instead of copying (a port's messages are fresh clones; an offline transport's initial messages are re-delivered
   * on reattach and are not given away).
   */
  message(message: TransportMessage, owned?: boolean): void;
  status(status: LinkStatus): void;
  /** The background's answer to a Break arm: whether the tab's tap took it. */
  breakAck?(ack: BreakAck): void;
}

export interface PanelTransport {
  /** The inspected tab, when there is one. */
  readonly tabId: number | undefined;
  start(listener: TransportListener): void;
  send(message: PanelToBackground): void;
  /** Asks for a fresh snapshot (after viewing an imported file, say). */
  reattach(): void;
  stop(): void;
  /** The extension's recording settings; absent without an extension (an imported file has nothing to set). */
  readonly settings?: SettingsAccess;
}

export interface SettingsAccess {
  read(): Promise<Settings>;
  /** Applies at once: the bridges hear of it and use it for the requests that start next. */
  write(change: Partial<Settings>): Promise<void>;
  /** Calls `listener` whenever the settings change, from this panel or anywhere else; returns the unsubscribe. */
  watch(listener: (settings: Settings) => void): () => void;
}

/** What a settings store offers: its change feed has no unsubscribe (storage.onChanged), so one feed is shared. */
export interface SettingsSource {
  read(): Promise<Settings>;
  write(change: Partial<Settings>): Promise<void>;
  watch(listener: (settings: Settings) => void): void;
}

/** Fans one source's change feed out to any number of watchers that come and go (components mount and unmount). */
export function createSettingsAccess(load: () => Promise<SettingsSource>): SettingsAccess {
  const watchers = new Set<(settings: Settings) => void>();
  let source: Promise<SettingsSource> | undefined;
  const get = (): Promise<SettingsSource> => {
    if (!source) {
      source = load();
      source.then(
        (s) => s.watch((settings) => watchers.forEach((w) => w(settings))),
        // A failed load also fails the read or write that asked for it; that caller reports it.
        () => undefined,
      );
    }
    return source;
  };
  return {
    read: () => get().then((s) => s.read()),
    write: (change) => get().then((s) => s.write(change)),
    watch(listener) {
      watchers.add(listener);
      void get();
      return () => watchers.delete(listener);
    },
  };
}

/** The extension's settings, loaded on first use: src/platform may only load inside an extension page. */
function platformSettings(): SettingsAccess {
  return createSettingsAccess(async () => {
    const { readSettings, writeSettings, watchSettings } = await import('../platform/settings');
    return { read: readSettings, write: writeSettings, watch: watchSettings };
  });
}

/** The slice of runtime.Port the transport uses; chrome and browser ports both fit. */
export interface PortLike {
  postMessage(message: PanelToBackground): void;
  disconnect(): void;
  onMessage: { addListener(callback: (message: unknown) => void): void };
  onDisconnect: { addListener(callback: () => void): void };
}

export interface PortTransportOptions {
  tabId: number;
  /** Opens a Port named "panel"; throws when the extension context is gone. */
  connect: () => PortLike;
  /** Timer seam for tests. */
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Delays before successive reconnect attempts; the last one repeats. */
  retryDelays?: readonly number[];
  /** Settings seam for tests; by default the extension's storage through src/platform/settings. */
  settings?: SettingsAccess;
}

const DEFAULT_RETRY_DELAYS = [0, 100, 250, 500, 1000, 2000];

/** Port transport: attach on connect; on disconnect (the service worker stopped) reconnect and attach again. */
export function createPortTransport(options: PortTransportOptions): PanelTransport {
  const setTimer = options.setTimer ?? ((cb: () => void, ms: number) => setTimeout(cb, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const delays = options.retryDelays ?? DEFAULT_RETRY_DELAYS;
  let listener: TransportListener | undefined;
  let port: PortLike | undefined;
  let attempt = 0;
  let timer: unknown;
  let stopped = false;
  const pending: PanelToBackground[] = [];
  const held = new HeldParcels();

  const open = () => {
    timer = undefined;
    if (stopped || !listener) return;
    let next: PortLike;
    try {
      next = options.connect();
    } catch {
      // Only an invalidated extension context makes connect throw: retrying cannot help.
      port = undefined;
      listener.status('gone');
      return;
    }
    port = next;
    next.onMessage.addListener((raw) => {
      if (port !== next || !listener) return;
      const ack = asBreakAck(raw, options.tabId);
      if (ack) return listener.breakAck?.(ack);
      const decoded = asBackgroundToPanel(raw, options.tabId);
      if (!decoded) return;
      const message = held.admit(decoded);
      if (message.type === 'snapshot') {
        attempt = 0;
        listener.status('attached');
      }
      if (message.type !== 'deltas' || message.parcels.length > 0) listener.message(message, true);
      for (const ack of held.acks(options.tabId)) next.postMessage(ack);
    });
    next.onDisconnect.addListener(() => {
      if (port !== next) return;
      port = undefined;
      if (stopped || !listener) return;
      listener.status('reconnecting');
      const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1000;
      attempt++;
      timer = setTimer(open, delay);
    });
    const resume = held.points();
    next.postMessage(
      resume.length > 0 ? { type: 'attach', tabId: options.tabId, resume } : { type: 'attach', tabId: options.tabId },
    );
    for (const message of pending.splice(0)) next.postMessage(message);
  };

  return {
    tabId: options.tabId,
    settings: options.settings ?? platformSettings(),
    start(l) {
      listener = l;
      l.status('connecting');
      open();
    },
    send(message) {
      if (port) port.postMessage(message);
      else if (message.type !== 'attach') pending.push(message); // delivered after the next attach
    },
    reattach() {
      // A fresh snapshot: what the panel held was put aside (an imported file was on screen), so no resume point.
      held.reset();
      if (port) port.postMessage({ type: 'attach', tabId: options.tabId });
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimer(timer);
      const current = port;
      port = undefined;
      current?.disconnect();
    },
  };
}

/** No extension: nothing arrives but what the caller feeds (tests, the dev harness); sends are kept for inspection. */
export interface OfflineTransport extends PanelTransport {
  readonly sent: readonly PanelToBackground[];
  /** Hands a message to the panel for good: its buffers may be transferred (the caller must not use them after). */
  deliver(message: PanelFeed): void;
}

export function createOfflineTransport(initial: readonly PanelFeed[] = []): OfflineTransport {
  let listener: TransportListener | undefined;
  const sent: PanelToBackground[] = [];
  // What is delivered before the panel starts listening waits for it, after the initial messages.
  const early: PanelFeed[] = [];
  // Initial messages are delivered again on reattach, so they stay the transport's; delivered ones are the panel's.
  return {
    tabId: undefined,
    sent,
    start(l) {
      listener = l;
      l.status('offline');
      for (const message of initial) l.message(message, false);
      for (const message of early.splice(0)) l.message(message, true);
    },
    send(message) {
      sent.push(message);
    },
    reattach() {
      for (const message of initial) listener?.message(message, false);
    },
    deliver(message) {
      if (listener) listener.message(message, true);
      else early.push(message);
    },
    stop() {
      listener = undefined;
    },
  };
}
