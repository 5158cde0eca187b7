// Page MAIN world, document_start (the Playwright fixture's init script, right after the tap): takes the tap's port as
// the extension's bridge would and hands every batch to the test's Node process through the fixture's binding. Adds
// nothing a page script can see: the binding is taken off window before any page script runs, the port event is the
// tap's own, and every built-in it calls later was captured now.
import { RECORDER_BINDING } from '../../protocol/events';
import type {
  BridgeToTap,
  RecorderRequest,
  RecorderSettings,
  RecorderToNode,
  TapToBridge,
} from '../../protocol/messages';
import type { ConnectionDelta } from '../../protocol/records';
import { attempt } from '../../tap/guard';
import type { Natives } from '../../tap/natives';
import { BRIDGE_HELLO_EVENT, BRIDGE_SOURCE, SLAB_BYTES, TAP_PORT_EVENT, TAP_SOURCE } from '../../tap/wire';

type Send = (message: RecorderToNode) => Promise<unknown>;

/** Built-ins the receiver needs beyond the tap's natives, captured before the page can replace them. */
function captureExtras(g: typeof globalThis) {
  const apply = Reflect.apply;
  const { preventDefault } = g.Event.prototype;
  const portsGetter = Object.getOwnPropertyDescriptor(g.MessageEvent.prototype, 'ports')?.get;
  const { then } = g.Promise.prototype;
  return {
    Event: g.Event,
    Uint8Array: g.Uint8Array,
    isArray: Array.isArray,
    preventDefault: (event: Event): void => {
      apply(preventDefault, event, []);
    },
    ports: (event: Event): readonly MessagePort[] =>
      portsGetter ? (apply(portsGetter, event, []) as MessagePort[]) : [],
    /** Runs `onValue` when it settles, swallowing failures: an unhandled rejection would reach the page as an event. */
    quiet: (promise: Promise<unknown>, onValue: (value: unknown) => void = () => undefined): void => {
      void apply(then, promise, [(value: unknown) => attempt(() => onValue(value)), () => undefined]);
    },
  };
}

/** `list.includes(item)`, which a page may have replaced by the time a batch comes. */
function has<T>(list: readonly T[], item: T): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === item) return true;
  return false;
}

/** Starts the receiver in this document; does nothing when the fixture's binding is not there. */
export function startReceiver(g: typeof globalThis, natives: Natives): void {
  const holder = g as unknown as Record<string, unknown>;
  const send = holder[RECORDER_BINDING];
  if (typeof send !== 'function') return;
  delete holder[RECORDER_BINDING];
  const call = send as Send;
  const x = captureExtras(g);
  const instance = Array.from(natives.randomValues(new x.Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
  let port: MessagePort | null = null;
  let settings: RecorderSettings | null = null;

  /** Settings to the tap (its signal to start sending), with whatever else this message carries. */
  const tell = (extra: Partial<BridgeToTap> = {}, transfer: Transferable[] = []): void => {
    if (!port || !settings) return;
    const message: BridgeToTap = { source: BRIDGE_SOURCE, revealSecrets: settings.revealSecrets, ...extra };
    natives.postToPort(port, message, transfer);
  };

  const copy = (bytes: Uint8Array): Uint8Array => {
    const out = new x.Uint8Array(natives.byteLength(bytes));
    natives.setBytes(out, bytes, 0);
    return out;
  };

  const onTap = (data: unknown): void => {
    const m = data as Partial<TapToBridge> | null;
    if (typeof m !== 'object' || m === null || m.source !== TAP_SOURCE || !x.isArray(m.deltas)) return;
    const deltas: ConnectionDelta[] = [];
    const slabs: ArrayBuffer[] = [];
    for (let i = 0; i < m.deltas.length; i++) {
      const d = m.deltas[i] as ConnectionDelta;
      if (d.kind !== 'chunk') {
        deltas[i] = d;
        continue;
      }
      // The chunk sits in one of the tap's slabs, which goes back to the tap: what travels on is a copy.
      deltas[i] = { kind: 'chunk', id: d.id, t: d.t, bytes: copy(d.bytes) };
      const buffer = natives.bufferOf(d.bytes);
      if (buffer instanceof ArrayBuffer && natives.bufferLength(buffer) === SLAB_BYTES && !has(slabs, buffer))
        slabs[slabs.length] = buffer;
    }
    const message: RecorderToNode = { kind: 'deltas', instance, deltas };
    if (typeof m.flushed === 'number') message.flushed = m.flushed;
    x.quiet(call(message));
    if (slabs.length > 0) tell({ slabs }, slabs);
  };

  /** Waits for the test to ask for a flush, asks the tap, and waits again; the tap's marked batch answers it. */
  const serve = (): void => {
    x.quiet(call({ kind: 'next', instance }), (reply) => {
      const request = reply as RecorderRequest | undefined;
      if (request?.kind !== 'flush') return;
      tell({ flush: request.flush });
      serve();
    });
  };

  natives.addListener(g, TAP_PORT_EVENT, (event) => {
    const offered = x.ports(event)[0];
    if (port || !offered) return;
    // Cancelled: the tap's sign that its port was taken (the bridge does the same).
    x.preventDefault(event);
    port = offered;
    natives.addListener(port, 'message', (message) => onTap(natives.messageData(message as MessageEvent)));
    natives.startPort(port);
    tell();
  });
  // The tap ran first: it offers its port again on hello.
  natives.dispatch(g, new x.Event(BRIDGE_HELLO_EVENT));
  x.quiet(call({ kind: 'hello', instance }), (reply) => {
    settings = { revealSecrets: (reply as RecorderSettings | undefined)?.revealSecrets === true };
    tell();
    serve();
  });
}
