// Page MAIN world, document_start, every frame: wraps fetch and EventSource before any page script runs.
// Standalone (no runtime imports but its own files); never changes what the page sees; never throws into the page.
import { TapBreaker } from './break/breaker';
import { TapChannel } from './channel';
import { tapEventSource } from './eventsource-tap';
import { tapFetch } from './fetch-tap';
import { guarded } from './guard';
import { installDisguise } from './disguise';
import { captureNatives } from './natives';

guarded(() => {
  const natives = captureNatives(globalThis);
  const instance = Array.from(natives.randomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  const channel = new TapChannel(natives, window, instance);
  const breaker = new TapBreaker(natives, channel, globalThis);
  channel.onBreak = (arm) => breaker.set(arm);
  let counter = 0;
  const ctx = {
    natives,
    disguise: installDisguise(),
    sink: channel,
    nextId: () => `${instance}-${++counter}`,
    baseUrl: () => document.baseURI,
    documentUrl: () => location.href,
    breaker,
  };
  channel.open();
  tapFetch(window, ctx);
  tapEventSource(window, ctx);
});
