// Isolated world: the bridge's end of the tap's MessagePort (see src/protocol/events.ts). Takes the first port a tap
// offers in this frame and only that one: the tap offers it at document_start, before any page script runs, so a
// port offered later is a page's, and is refused.
import { BRIDGE_HELLO_EVENT, TAP_PORT_EVENT } from '../protocol/events';
import type { BridgeToTap } from '../protocol/messages';

export interface TapLink {
  /** Settings for the tap (also its signal that a bridge listens and it may start sending); `transfer` moves. */
  send(message: BridgeToTap, transfer?: Transferable[]): void;
  readonly connected: boolean;
}

/** Listens for the tap's port on `target` (the window) and says hello in case the tap started first. */
export function linkToTap(target: EventTarget, onMessage: (data: unknown) => void, onConnect: () => void): TapLink {
  let port: MessagePort | null = null;
  const take = (event: Event): void => {
    if (port || !(event instanceof MessageEvent)) return;
    const offered = event.ports[0];
    if (!offered) return;
    event.preventDefault();
    port = offered;
    port.onmessage = (message) => onMessage(message.data);
    onConnect();
  };
  target.addEventListener(TAP_PORT_EVENT, take);
  target.dispatchEvent(new Event(BRIDGE_HELLO_EVENT));
  return {
    send(message, transfer = []) {
      port?.postMessage(message, transfer);
    },
    get connected() {
      return port !== null;
    },
  };
}
