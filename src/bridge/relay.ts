// Isolated world: the live link to the background. It exists only while a panel watches this tab: the background
// asks (`collect`), the bridge opens a Port, sends its whole buffer as snapshot parts, then every new delta.
import { ownBytes } from '../core/capture/bytes';
import type { BridgeToBackground } from '../protocol/messages';
import type { ConnectionDelta } from '../protocol/records';
import { splitIntoMessages } from '../protocol/split';

export interface RelayPort {
  postMessage(message: BridgeToBackground): void;
  onDisconnect(listener: () => void): void;
}

export class Relay {
  private port: RelayPort | null = null;
  private queue: ConnectionDelta[] = [];
  private scheduled = false;

  constructor(
    private readonly connect: () => RelayPort,
    private readonly documentUrl: () => string,
    private readonly schedule: (task: () => void) => void,
  ) {}

  get live(): boolean {
    return this.port !== null;
  }

  /** Sends `snapshot` (the buffer) for `generation`, then stays live. */
  collect(generation: number, snapshot: ConnectionDelta[], droppedBytes: number): void {
    const port = this.ensurePort();
    this.flush();
    const parts = splitIntoMessages(snapshot);
    if (parts.length === 0) parts.push([]);
    const documentUrl = this.documentUrl();
    parts.forEach((deltas, i) =>
      port.postMessage({
        type: 'snapshot-part',
        generation,
        documentUrl,
        deltas,
        last: i === parts.length - 1,
        droppedBytes,
      }),
    );
  }

  /**
   * Queues a delta for the next live batch (its bytes in a buffer of their own); a no-op while no panel watches. The
   * batch goes in a microtask, or at flush(): after it, the relay keeps no use of the bytes it was given.
   */
  relay(delta: ConnectionDelta): void {
    if (!this.port) return;
    // A view would send its whole buffer (a slab of the tap's, mostly unused): such a chunk travels as a copy.
    this.queue.push(delta.kind === 'chunk' ? { ...delta, bytes: ownBytes(delta.bytes) } : delta);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  private ensurePort(): RelayPort {
    if (this.port) return this.port;
    const port = this.connect();
    port.onDisconnect(() => {
      if (this.port !== port) return;
      this.port = null;
      this.queue = [];
    });
    this.port = port;
    return port;
  }

  flush(): void {
    this.scheduled = false;
    const port = this.port;
    if (!port || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    const documentUrl = this.documentUrl();
    for (const deltas of splitIntoMessages(batch)) port.postMessage({ type: 'deltas', documentUrl, deltas });
  }
}
