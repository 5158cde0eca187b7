// Page MAIN world: hands the tap's deltas to the bridge over a MessagePort, in batches, with the buffers holding the
// chunks transferred: no per-byte JavaScript on the page's thread (no base64, no JSON), and the bridge's work runs in
// its own task, never inside the page's read() call. The bridge sends those buffers back for reuse (slabs.ts).
import type { FaultArm } from '../protocol/break';
import type { BridgeToTap, TapToBridge } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { isArray } from './intrinsics';
import type { Natives } from './natives';
import { redactSecretHeaders, redactSecretStart } from './redact';
import { Slabs } from './slabs';
import { BRIDGE_HELLO_EVENT, BRIDGE_SOURCE, TAP_PORT_EVENT, TAP_SOURCE } from './wire';

/** A delta as the tap records it; a chunk's bytes are copied when pushed (the page may keep the ones it read). */
export type TapDelta =
  | Exclude<ConnectionDelta, { kind: 'end' }>
  | (Extract<ConnectionDelta, { kind: 'end' }> & { end: 'complete' | 'aborted' | 'network-error' });

export interface DeltaSink {
  push(delta: TapDelta): void;
  /** High-resolution wall-clock time, epoch ms. */
  now(): number;
}

/** What the tap holds until the bridge answers; past it new deltas are dropped (no bridge in this frame). */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/**
 * Deltas wait this long to travel together: a 64 MB stream then costs the page some 50 messages a second, not one per
 * network chunk (each message is a task for the bridge on this same thread). A panel can wait 16 ms.
 */
const BATCH_MS = 16;
/** A batch this big goes at once (next microtask), so memory held here stays small under any load. */
const BATCH_BYTES = 2 * 1024 * 1024;
/**
 * While a panel watches, each batch costs the page a Blob (protocol/parcel.ts): some 10 ms each plus about 4 ms per
 * MiB, so batches are bigger and rarer then: a 33 MB read at full speed made 12 Blobs at 50 ms, about 6 at 100 ms
 * (panel-attached 0.46 -> 0.52); 200 ms gave 0.58 but the last batch then landed whole and doubled the time from the
 * last byte to the final findings (0.5 -> 1.1 s). The end of a body goes at once. The size stays 8 MiB: the bridge's
 * task for a batch (its copy and the Blob) must stay under 50 ms on the page's thread.
 */
const LIVE_BATCH_MS = 100;
const LIVE_BATCH_BYTES = 8 * 1024 * 1024;
/**
 * The page's first recorded batch leaves in the next task, not after BATCH_MS: the first batch costs this thread
 * one-time work (the tap's encode and post, then the bridge's first message: 6-12 ms cold in Chromium 150 here,
 * 1-4 ms warm). A BATCH_MS timer started at fetch() lands it just when the response arrives on loopback (15-25 ms),
 * in front of the page's first chunk; sent at once, it runs while the request is on the wire.
 */
const FIRST_BATCH_MS = 0;

export class TapChannel implements DeltaSink {
  /** Whether the user opted in to recording credentials in clear, as the bridge last said; applied when sending. */
  revealSecrets = false;
  /** The Break menu's arm or disarm, as the bridge relays it (only this port carries it: no page can). */
  onBreak: ((arm: FaultArm | null) => void) | null = null;
  /** Whether a panel watches, as the bridge last said. */
  private live = false;
  private queue: TapDelta[] = [];
  private readonly slabs: Slabs;
  private queuedBytes = 0;
  private scheduled = false;
  /** Whether a batch was posted yet (the first one goes without waiting: FIRST_BATCH_MS). */
  private posted = false;
  private bridgeReady = false;
  private port: MessagePort | null = null;
  /** The bridge's end until the bridge has taken it. */
  private offered: MessagePort | null = null;

  constructor(
    private readonly natives: Natives,
    private readonly target: EventTarget,
    private readonly instance: string,
  ) {
    this.slabs = new Slabs(natives);
  }

  /** Makes the channel, offers the bridge its end (now, and when a bridge that started later says hello). */
  open(): void {
    const { natives } = this;
    const channel = new natives.MessageChannel();
    this.port = channel.port1;
    this.offered = channel.port2;
    natives.addListener(channel.port1, 'message', (event) => this.onBridgeMessage(event));
    natives.startPort(channel.port1);
    natives.addListener(this.target, BRIDGE_HELLO_EVENT, () => this.offerPort());
    this.offerPort();
  }

  now(): number {
    return this.natives.timeOrigin + this.natives.now();
  }

  push(delta: TapDelta): void {
    if (!this.bridgeReady && this.queuedBytes > MAX_PENDING_BYTES) return;
    const queue = this.queue;
    if (delta.kind === 'chunk') {
      queue[queue.length] = { kind: 'chunk', id: delta.id, t: delta.t, bytes: this.slabs.copy(delta.bytes) };
      this.queuedBytes += this.natives.byteLength(delta.bytes);
    } else {
      queue[queue.length] = delta;
      this.queuedBytes += 256;
    }
    if (!this.bridgeReady) return;
    // A watching panel learns at once that a body ended (its last bytes and the final findings wait for no timer).
    const ended = this.live && delta.kind === 'end';
    if (ended || this.queuedBytes >= (this.live ? LIVE_BATCH_BYTES : BATCH_BYTES)) {
      this.natives.queueMicrotask(() => this.flush());
    } else if (!this.scheduled) {
      this.scheduled = true;
      this.natives.setTimeout(
        () => {
          this.scheduled = false;
          this.flush();
        },
        this.posted ? (this.live ? LIVE_BATCH_MS : BATCH_MS) : FIRST_BATCH_MS,
      );
    }
  }

  private offerPort(): void {
    const port = this.offered;
    if (!port) return;
    try {
      const event = new this.natives.MessageEvent(TAP_PORT_EVENT, { ports: [port], cancelable: true });
      // The bridge cancels the event to say it took the port; its first message says so too (where events lack it).
      if (!this.natives.dispatch(this.target, event)) this.offered = null;
    } catch {
      // Runs at document_start or inside the page's own dispatch of a hello: nothing may reach the page.
      return;
    }
  }

  private onBridgeMessage(event: Event): void {
    try {
      this.offered = null;
      const message = this.natives.messageData(event as MessageEvent) as Partial<BridgeToTap> | null;
      if (typeof message !== 'object' || message === null) return;
      if (message.source !== BRIDGE_SOURCE || typeof message.revealSecrets !== 'boolean') return;
      this.revealSecrets = message.revealSecrets;
      if (typeof message.live === 'boolean' && message.live !== this.live) {
        this.live = message.live;
        this.slabs.setLive(message.live);
      }
      if (message.break !== undefined) this.answerBreak(message.break);
      const slabs = message.slabs;
      if (isArray(slabs)) for (let i = 0; i < slabs.length; i++) this.slabs.give(slabs[i]);
      if (!this.bridgeReady) {
        this.bridgeReady = true;
        this.flush();
      }
      // A receiver that must know it has everything (the Playwright fixture) asks, and gets a marked batch back.
      const flush = message.flush;
      if (typeof flush === 'number') this.flush(flush);
    } catch {
      // Whatever arrives must never disturb the page.
      return;
    }
  }

  /** Arms or disarms, then tells the bridge which arm the tap holds now (the panel says "armed" only then). */
  private answerBreak(arm: FaultArm | null): void {
    this.onBreak?.(arm);
    const port = this.port;
    if (!port) return;
    const answer: TapToBridge = { source: TAP_SOURCE, instance: this.instance, deltas: [], armed: arm?.armId ?? null };
    this.natives.postToPort(port, answer, []);
  }

  /** Posts what is queued; with `mark`, posts even an empty batch, marked `flushed: mark`. */
  private flush(mark?: number): void {
    const port = this.port;
    if (!port || (this.queue.length === 0 && mark === undefined)) return;
    const batch = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    try {
      const deltas: ConnectionDelta[] = [];
      for (let i = 0; i < batch.length; i++) deltas[i] = this.encode(batch[i] as TapDelta);
      const message: TapToBridge = { source: TAP_SOURCE, instance: this.instance, deltas };
      if (mark !== undefined) message.flushed = mark;
      this.natives.postToPort(port, message, this.slabs.take());
      this.posted = true;
    } catch {
      // Runs in a task of the page: a throw here would surface as the page's uncaught error.
      return;
    }
  }

  /** Redacts heads unless the user opted in. */
  private encode(delta: TapDelta): ConnectionDelta {
    if (delta.kind === 'start' && !this.revealSecrets) return { kind: 'start', conn: redactSecretStart(delta.conn) };
    if (delta.kind === 'response' && !this.revealSecrets)
      return { ...delta, responseHeaders: redactSecretHeaders(delta.responseHeaders) };
    return delta;
  }
}
