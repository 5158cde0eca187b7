// Page MAIN world: batches the tap's deltas and hands them to the bridge as DOM events, once per microtask.
import type { BridgeToTap, TapToBridge } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { bytesToBase64 } from './base64';
import type { Natives } from './natives';
import { redactSecretHeaders } from './redact';
import { BRIDGE_EVENT, BRIDGE_SOURCE, TAP_EVENT, TAP_SOURCE } from './wire';

/** A delta as the tap holds it before encoding: chunk bytes stay binary until the flush. */
export type TapDelta =
  | Extract<ConnectionDelta, { kind: 'start' | 'response' }>
  | { kind: 'chunk'; id: string; t: number; bytes: Uint8Array }
  | (Extract<ConnectionDelta, { kind: 'end' }> & { end: 'complete' | 'aborted' | 'network-error' });

export interface DeltaSink {
  push(delta: TapDelta): void;
  /** High-resolution wall-clock time, epoch ms. */
  now(): number;
}

/** What the tap holds until the bridge answers; past it new deltas are dropped (no bridge in this frame). */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

export class TapChannel implements DeltaSink {
  /** Whether the user opted in to recording credentials in clear, as the bridge last said; applied when sending. */
  revealSecrets = false;
  private queue: TapDelta[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private bridgeReady = false;

  constructor(
    private readonly natives: Natives,
    private readonly target: EventTarget,
    private readonly instance: string,
  ) {}

  /** Listens for the bridge's settings and says hello (an empty batch) so a bridge that started first answers. */
  open(): void {
    this.natives.addListener(this.target, BRIDGE_EVENT, (event) => this.onBridgeEvent(event));
    this.send([]);
  }

  now(): number {
    return this.natives.timeOrigin + this.natives.now();
  }

  push(delta: TapDelta): void {
    if (!this.bridgeReady && this.pendingBytes > MAX_PENDING_BYTES) return;
    this.queue.push(delta);
    this.pendingBytes += delta.kind === 'chunk' ? delta.bytes.byteLength : 256;
    if (this.scheduled || !this.bridgeReady) return;
    this.scheduled = true;
    this.natives.queueMicrotask(() => this.flush());
  }

  private onBridgeEvent(event: Event): void {
    try {
      const detail: unknown = (event as CustomEvent<unknown>).detail;
      if (typeof detail !== 'string' || detail.length > 1000) return;
      const message = this.natives.parse(detail) as Partial<BridgeToTap> | null;
      if (!message || message.source !== BRIDGE_SOURCE || typeof message.revealSecrets !== 'boolean') return;
      this.revealSecrets = message.revealSecrets;
      if (!this.bridgeReady) {
        this.bridgeReady = true;
        this.flush();
      }
    } catch {
      // A page can dispatch this event too; whatever it holds must never disturb the page.
      return;
    }
  }

  private flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.pendingBytes = 0;
    try {
      this.send(batch.map((d) => this.encode(d)));
    } catch {
      // Runs in a microtask of the page: a throw here would surface as the page's uncaught error.
      return;
    }
  }

  private encode(delta: TapDelta): ConnectionDelta {
    if (delta.kind === 'start' && !this.revealSecrets)
      return { kind: 'start', conn: { ...delta.conn, requestHeaders: redactSecretHeaders(delta.conn.requestHeaders) } };
    if (delta.kind === 'response' && !this.revealSecrets)
      return { ...delta, responseHeaders: redactSecretHeaders(delta.responseHeaders) };
    if (delta.kind !== 'chunk') return delta;
    return { kind: 'chunk', id: delta.id, t: delta.t, b64: bytesToBase64(delta.bytes, this.natives.btoa) };
  }

  private send(deltas: ConnectionDelta[]): void {
    const message: TapToBridge = { source: TAP_SOURCE, instance: this.instance, deltas };
    const event = new this.natives.CustomEvent(TAP_EVENT, { detail: this.natives.stringify(message) });
    this.natives.dispatch(this.target, event);
  }
}
