// Worker (Chrome service worker / Firefox event page): wires browser events to the Router. Holds nothing that a
// restart could lose: bridges keep the buffers, panels re-attach. May not touch pages except by messages.
import { browser, type Runtime } from '../platform/browser';
import { asBridgeHello, asBridgeToBackground } from '../protocol/decode-bridge';
import { asPanelToBackground } from '../protocol/decode-panel';
import type { BackgroundToBridge } from '../protocol/messages';
import { followRecordOn } from './content-scripts';
import { FrameRoster } from './frame-roster';
import { Router, type BridgeLink, type PanelLink } from './router';

const PRESERVE_KEY = (tabId: number): string => `preserveLog.${tabId}`;

// The tap and bridge are registered here, first, so that pages loaded from now on are recorded from their start.
// `scriptsReady` is what a test's launcher waits for before it loads a page (e2e/launcher.ts).
(globalThis as { scriptsReady?: Promise<void> }).scriptsReady = followRecordOn();

// Session storage: survives a worker restart, gone with the browser session (as the frames are).
const roster = new FrameRoster({
  getAll: () => browser.storage.session.get(null),
  set: (items) => browser.storage.session.set(items),
  remove: (keys) => browser.storage.session.remove(keys),
});

const router = new Router({
  listFrames: (tabId) => roster.list(tabId),
  noteFrame: (tabId, frameId, url) => roster.note(tabId, frameId, url),
  sendToFrame: (tabId, frameId, message: BackgroundToBridge) =>
    browser.tabs.sendMessage(tabId, message, { frameId }).then(
      (answer: unknown) => answer === true,
      () => false,
    ),
  sendToTab: (tabId, message: BackgroundToBridge) => {
    // Rejects when no frame of the tab has a bridge (a chrome:// page, say): then there is nothing to clear.
    browser.tabs.sendMessage(tabId, message).then(
      () => undefined,
      () => undefined,
    );
  },
  getPreserveLog: async (tabId) =>
    (await browser.storage.session.get(PRESERVE_KEY(tabId)))[PRESERVE_KEY(tabId)] === true,
  setPreserveLog: (tabId, preserve) => browser.storage.session.set({ [PRESERVE_KEY(tabId)]: preserve }),
  setTimer: (task, ms) => {
    setTimeout(task, ms);
  },
  tabUrl: async (tabId) => (await browser.tabs.get(tabId)).url ?? '',
});

function connectPanel(port: Runtime.Port): void {
  const link: PanelLink = { post: (message) => port.postMessage(message) };
  port.onMessage.addListener((raw: unknown) => {
    const message = asPanelToBackground(raw);
    if (!message) return;
    router.panelMessage(link, message);
  });
  port.onDisconnect.addListener(() => router.panelDisconnected(link));
}

function connectBridge(port: Runtime.Port): void {
  const tabId = port.sender?.tab?.id;
  const frameId = port.sender?.frameId;
  if (tabId === undefined || frameId === undefined) return port.disconnect();
  const link: BridgeLink = {
    tabId,
    frameId,
    post: (message) => port.postMessage(message),
    disconnect: () => port.disconnect(),
  };
  router.bridgeConnected(link);
  port.onMessage.addListener((raw: unknown) => {
    const message = asBridgeToBackground(raw);
    if (message) router.bridgeMessage(link, message);
  });
  port.onDisconnect.addListener(() => router.bridgeDisconnected(link));
}

const extensionOrigin = browser.runtime.getURL('');

browser.runtime.onConnect.addListener((port) => {
  if (port.name === 'panel' && port.sender?.url?.startsWith(extensionOrigin)) connectPanel(port);
  else if (port.name === 'bridge') connectBridge(port);
  else port.disconnect();
});

// Every bridge says hello once, at document_start (and again when its page comes back from the back-forward cache):
// the frame and its URL come from the sender, which the page cannot forge.
browser.runtime.onMessage.addListener((raw: unknown, sender: Runtime.MessageSender) => {
  const tabId = sender.tab?.id;
  if (!asBridgeHello(raw) || sender.id !== browser.runtime.id || tabId === undefined || sender.frameId === undefined)
    return undefined;
  router.bridgeHello(tabId, sender.frameId, sender.url ?? '');
  return Promise.resolve(true);
});

browser.tabs.onRemoved.addListener((tabId) => {
  router.tabRemoved(tabId);
  roster.forget(tabId).catch(() => undefined);
  // Best effort: a leftover flag of a closed tab only costs a few bytes of session storage, cleared on restart.
  browser.storage.session.remove(PRESERVE_KEY(tabId)).then(
    () => undefined,
    () => undefined,
  );
});
