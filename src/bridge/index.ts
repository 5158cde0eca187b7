// Isolated-world content script, document_start, every frame: decodes what the page tap sends over its port, keeps a
// bounded buffer, relays to the background while a panel watches. Touches the page only through DOM events.
import { browser } from '../platform/browser';
import { DEFAULT_SETTINGS, readSettings, watchSettings, type Settings } from '../platform/settings';
import { asBackgroundToBridge, asBackgroundToBridgePort } from '../protocol/decode-bridge';
import { asTapToBridge } from '../protocol/decode-tap';
import { BRIDGE_SOURCE, TAP_SLAB_BYTES } from '../protocol/events';
import type { BridgeHello, BridgeToTap } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { BreakRelay } from './break-relay';
import { FrameBuffer } from './buffer';
import { Relay, type RelayPort } from './relay';
import { sanitizeDelta } from './sanitize';
import { linkToTap } from './tap-link';

let settings: Settings = DEFAULT_SETTINGS;
/** The tap holds what it records until the bridge answers: answering before the stored settings are read would
 *  make it redact the requests a page makes at load even when the user opted in. */
let settingsRead = false;
const buffer = new FrameBuffer(settings.bufferBytes);

function connectPort(): RelayPort {
  const port = browser.runtime.connect({ name: 'bridge' });
  return {
    postMessage: (m) => port.postMessage(m),
    onDisconnect: (listener) => port.onDisconnect.addListener(listener),
    onMessage: (listener) =>
      port.onMessage.addListener((raw: unknown) => {
        const message = asBackgroundToBridgePort(raw);
        if (message) listener(message);
      }),
  };
}

const relay = new Relay(
  connectPort,
  () => location.href,
  () => answerTap(),
);

function onTapMessage(data: unknown): void {
  const message = asTapToBridge(data);
  if (!message) return;
  if (message.armed !== undefined) breakRelay.answered(message.armed);
  const options = { revealSecrets: settings.revealSecrets, documentUrl: location.href };
  for (const raw of message.deltas) {
    const delta = sanitizeDelta(raw, options);
    if (buffer.add(delta) !== 'rejected') relay.relay(delta);
  }
  // The buffer copied what it keeps and the relay packed what it sends: the tap's buffers go back to it.
  relay.flush();
  const slabs = slabsOf(message.deltas);
  if (slabs.length > 0) tap.send({ ...tapSettings(), slabs }, slabs);
}

/** The tap's slabs among the batch's buffers (a small chunk has a buffer of its own, which stays here). */
function slabsOf(deltas: readonly ConnectionDelta[]): ArrayBuffer[] {
  const slabs = new Set<ArrayBuffer>();
  for (const d of deltas) {
    const buffer = d.kind === 'chunk' ? d.bytes.buffer : undefined;
    if (buffer instanceof ArrayBuffer && buffer.byteLength === TAP_SLAB_BYTES) slabs.add(buffer);
  }
  return [...slabs];
}

const tap = linkToTap(window, onTapMessage, () => answerTap());
const breakRelay = new BreakRelay();

/** Tells the tap the settings it applies at the source (also its signal that a bridge is listening). */
function answerTap(): void {
  if (settingsRead) tap.send(tapSettings());
}

function tapSettings(): BridgeToTap {
  return { source: BRIDGE_SOURCE, revealSecrets: settings.revealSecrets, live: relay.live };
}

function applySettings(next: Settings): void {
  settings = next;
  settingsRead = true;
  buffer.setBudget(next.bufferBytes);
  answerTap();
}

readSettings().then(applySettings, () => applySettings(DEFAULT_SETTINGS));
watchSettings(applySettings);

browser.runtime.onMessage.addListener((value: unknown) => {
  const message = asBackgroundToBridge(value);
  if (!message) return undefined;
  if (message.type === 'clear') buffer.clear();
  else if (message.type === 'break')
    return breakRelay.relay(message.arm, (arm) => tap.send({ ...tapSettings(), break: arm }));
  else
    relay.collect(
      message.generation,
      () => buffer.snapshot(),
      { bytes: buffer.droppedBytes, connections: buffer.droppedConnections },
      message.resume,
    );
  return Promise.resolve(true);
});

/**
 * Tells the background this frame has a new document with a bridge (its stand-in for webNavigation; the listener
 * above is already in place, so the collect that may answer finds it). A page restored from the back-forward cache
 * is a new commit too, with this same bridge (its Port was closed when the page was put away).
 */
function sayHello(): void {
  const hello: BridgeHello = { type: 'bridge-hello' };
  browser.runtime.sendMessage(hello).then(
    () => undefined,
    () => undefined,
  );
}
sayHello();
window.addEventListener('pageshow', (event) => {
  if (event.isTrusted && event.persisted) sayHello();
});
