// Isolated world: the live link to the background. It exists only while a panel watches this tab: the background
// asks (`collect`), the bridge opens a Port, sends its whole buffer as one snapshot part, then every new batch, each
// as a parcel (its chunk bytes in one Blob: see protocol/parcel.ts).
import type { BridgeToBackground } from '../protocol/messages';
import { pack } from '../protocol/parcel';
import type { ConnectionDelta } from '../protocol/records';

export interface RelayPort {
  postMessage(message: BridgeToBackground): void;
  onDisconnect(listener: () => void): void;
}

export class Relay {
  private port: RelayPort | null = null;
  private queue: ConnectionDelta[] = [];

  constructor(
    private readonly connect: () => RelayPort,
    private readonly documentUrl: () => string,
    /** Told when a panel starts or stops watching (the bridge tells the tap, which then batches bigger). */
    private readonly liveChanged: (live: boolean) => void = () => undefined,
  ) {}

  get live(): boolean {
    return this.port !== null;
  }

  /** Sends `snapshot` (the buffer) for `generation`, then stays live. */
  collect(generation: number, snapshot: ConnectionDelta[], droppedBytes: number): void {
    const port = this.ensurePort();
    this.flush();
    port.postMessage({
      type: 'snapshot-part',
      generation,
      documentUrl: this.documentUrl(),
      parcel: pack(snapshot),
      last: true,
      droppedBytes,
    });
  }

  /**
   * Queues a delta for the live batch that flush() sends (the bridge flushes after each of the tap's batches); a
   * no-op while no panel watches. Until then a chunk's bytes must stay as they are; after it, the relay keeps no use
   * of them.
   */
  relay(delta: ConnectionDelta): void {
    if (this.port) this.queue.push(delta);
  }

  private ensurePort(): RelayPort {
    if (this.port) return this.port;
    const port = this.connect();
    port.onDisconnect(() => {
      if (this.port !== port) return;
      this.port = null;
      this.queue = [];
      this.liveChanged(false);
    });
    this.port = port;
    this.liveChanged(true);
    return port;
  }

  flush(): void {
    const port = this.port;
    if (!port || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    port.postMessage({ type: 'deltas', documentUrl: this.documentUrl(), parcel: pack(batch) });
  }
}
