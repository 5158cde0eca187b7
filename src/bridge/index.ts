// Isolated-world content script, document_start, every frame: validates what the page tap posts, keeps a bounded
// buffer, relays to the background while a panel watches. Touches the page only through DOM events.
import { browser } from '../platform/browser';
import { DEFAULT_SETTINGS, readSettings, watchSettings, type Settings } from '../platform/settings';
import type { BackgroundToBridge, BridgeToTap } from '../protocol/messages';
import { BRIDGE_EVENT, BRIDGE_SOURCE, TAP_EVENT } from '../protocol/events';
import { FrameBuffer } from './buffer';
import { Relay, type RelayPort } from './relay';
import { sanitizeDelta } from './sanitize';
import { parseTapDetail } from './validate';

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
  };
}

const relay = new Relay(
  connectPort,
  () => location.href,
  (task) => queueMicrotask(task),
);

/** Tells the tap the settings it applies at the source (also its signal that a bridge is listening). */
function answerTap(): void {
  if (!settingsRead) return;
  const message: BridgeToTap = { source: BRIDGE_SOURCE, revealSecrets: settings.revealSecrets };
  window.dispatchEvent(new CustomEvent(BRIDGE_EVENT, { detail: JSON.stringify(message) }));
}

function applySettings(next: Settings): void {
  settings = next;
  settingsRead = true;
  buffer.setBudget(next.bufferBytes);
  answerTap();
}

function onTapEvent(event: Event): void {
  const message = parseTapDetail((event as CustomEvent<unknown>).detail);
  if (!message) return;
  if (message.deltas.length === 0) return answerTap();
  const options = { revealSecrets: settings.revealSecrets, documentUrl: location.href };
  for (const raw of message.deltas) {
    const delta = sanitizeDelta(raw, options);
    if (buffer.add(delta) !== 'rejected') relay.relay(delta);
  }
}

function asBackgroundMessage(value: unknown): BackgroundToBridge | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Partial<Record<string, unknown>>;
  if (m.type === 'clear') return { type: 'clear' };
  if (m.type === 'collect' && typeof m.generation === 'number') return { type: 'collect', generation: m.generation };
  return null;
}

window.addEventListener(TAP_EVENT, onTapEvent);
readSettings().then(applySettings, () => applySettings(DEFAULT_SETTINGS));
watchSettings(applySettings);

browser.runtime.onMessage.addListener((value: unknown) => {
  const message = asBackgroundMessage(value);
  if (!message) return undefined;
  if (message.type === 'clear') buffer.clear();
  else relay.collect(message.generation, buffer.snapshot(), buffer.droppedBytes);
  return Promise.resolve(true);
});
