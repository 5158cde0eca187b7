// Isolated world: the live link to the background. It exists only while a panel watches this tab: the background
// asks (`collect`), the bridge opens a Port, sends its whole buffer as one snapshot part, then every new batch, each
// as a parcel (its chunk bytes in one Blob: see protocol/parcel.ts) numbered in order. Every parcel is kept until the
// panels acknowledge it (through the background): when the worker is stopped the Port drops, what was in flight is
// lost there, and the panel that comes back names the last parcel it holds; the bridge re-sends the rest.
import type { BackgroundToBridgePort, BridgeToBackground, ResumePoint } from '../protocol/messages';
import { pack } from '../protocol/parcel';
import type { ConnectionDelta, Parcel, ParcelDelta } from '../protocol/records';

export interface RelayPort {
  postMessage(message: BridgeToBackground): void;
  onDisconnect(listener: () => void): void;
  onMessage(listener: (message: BackgroundToBridgePort) => void): void;
}

/** Unacknowledged parcels kept at most (their bytes); above it the oldest lose their chunks to gaps. */
export const DEFAULT_HOLD_BYTES = 32 * 1024 * 1024;

interface Held {
  seq: number;
  parcel: Parcel;
  /** The body offset of each chunk of the parcel, in order (for the gap that replaces it over budget). */
  offsets: number[];
}

/**
 * A random id for this bridge's stream of parcels: a panel's resume point names the stream it came from. Not
 * `crypto.randomUUID`: it exists only in secure contexts, and a data: iframe is not one (the bridge would die there).
 */
export function newLink(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export class Relay {
  private port: RelayPort | null = null;
  private queue: ConnectionDelta[] = [];
  /** The body offset of each chunk in the queue, in order. */
  private queueOffsets: number[] = [];
  /** Body bytes relayed so far per open connection (the offsets of gaps). */
  private readonly bodies = new Map<string, number>();
  private readonly held: Held[] = [];
  private heldBytes = 0;
  private seq = 0;
  /** The Port went away without the background saying nobody watches: the worker stopped; keep everything. */
  private holding = false;
  /** The background said nobody watches (a Port that drops after it was closed on purpose). */
  private released = false;
  readonly link = newLink();

  constructor(
    private readonly connect: () => RelayPort,
    private readonly documentUrl: () => string,
    /** Told when a panel starts or stops watching (the bridge tells the tap, which then batches bigger). */
    private readonly liveChanged: (live: boolean) => void = () => undefined,
    private readonly holdBytes: number = DEFAULT_HOLD_BYTES,
  ) {}

  get live(): boolean {
    return this.port !== null || this.holding;
  }

  /** Parcels sent and not yet acknowledged (tests, budgets). */
  get unacknowledged(): number {
    return this.held.length;
  }

  /**
   * Answers `collect` of `generation`. With a resume point of this bridge whose successors are all still held, the
   * panel keeps what it has and gets exactly the parcels after it; otherwise the buffer's snapshot.
   */
  collect(
    generation: number,
    snapshot: () => ConnectionDelta[],
    dropped: { bytes: number; connections: number },
    resume?: ResumePoint,
  ): void {
    // Panels already watching get the queued batch before this snapshot, in order.
    if (this.port) this.flush();
    const port = this.ensurePort();
    this.seal();
    this.holding = false;
    const base = { type: 'snapshot-part' as const, generation, documentUrl: this.documentUrl(), last: true };
    const first = this.held[0];
    const canResume =
      resume !== undefined &&
      resume.link === this.link &&
      resume.seq <= this.seq &&
      (first === undefined ? resume.seq === this.seq : first.seq <= resume.seq + 1);
    if (resume && canResume) {
      this.ack(resume.seq);
      port.postMessage({
        ...base,
        parcel: pack([]),
        droppedBytes: 0,
        droppedConnections: 0,
        link: this.link,
        seq: resume.seq,
        resumed: true,
      });
      for (const h of this.held) port.postMessage(this.deltasMessage(h));
      return;
    }
    // The snapshot holds everything the buffer kept; parcels held for an earlier panel are superseded by it.
    this.dropHeld();
    port.postMessage({
      ...base,
      parcel: pack(snapshot()),
      droppedBytes: dropped.bytes,
      droppedConnections: dropped.connections,
      link: this.link,
      seq: this.seq,
      resumed: false,
    });
  }

  /**
   * Queues a delta for the live batch that flush() sends (the bridge flushes after each of the tap's batches); a
   * no-op while no panel watches. Until then a chunk's bytes must stay as they are; after it, the relay keeps no use
   * of them.
   */
  relay(delta: ConnectionDelta): void {
    if (delta.kind === 'chunk') {
      const offset = this.bodies.get(delta.id) ?? 0;
      this.bodies.set(delta.id, offset + delta.bytes.byteLength);
      if (this.live) this.queueOffsets.push(offset);
    } else if (delta.kind === 'end') this.bodies.delete(delta.id);
    if (this.live) this.queue.push(delta);
  }

  /** The panels hold every parcel up to `seq`. */
  ack(seq: number): void {
    while (this.held.length > 0 && (this.held[0] as Held).seq <= seq) {
      const h = this.held.shift() as Held;
      this.heldBytes -= h.parcel.bytes.size;
    }
  }

  /** The background says nobody watches any more: what is held has no one to go to. */
  release(): void {
    this.released = true;
    this.holding = false;
    this.dropHeld();
  }

  flush(): void {
    const sealed = this.seal();
    if (sealed && this.port) this.port.postMessage(this.deltasMessage(sealed));
  }

  private deltasMessage(h: Held): BridgeToBackground {
    return { type: 'deltas', documentUrl: this.documentUrl(), parcel: h.parcel, link: this.link, seq: h.seq };
  }

  /** Packs the queue into the next numbered parcel, held until acknowledged. */
  private seal(): Held | undefined {
    if (this.queue.length === 0) return undefined;
    const held: Held = { seq: ++this.seq, parcel: pack(this.queue), offsets: this.queueOffsets };
    this.queue = [];
    this.queueOffsets = [];
    this.held.push(held);
    this.heldBytes += held.parcel.bytes.size;
    this.trimHeld();
    return held;
  }

  /**
   * Over budget, the oldest held parcels keep their heads and lose their chunks to gaps (shown, not silent). With no
   * Port (the worker stopped and no panel came back), holding on would grow without end: the bridge lets go, and a
   * panel that comes back after all gets the buffer's snapshot, its own losses marked there.
   */
  private trimHeld(): void {
    if (this.heldBytes > this.holdBytes && !this.port) {
      this.release();
      this.queue = [];
      this.queueOffsets = [];
      this.liveChanged(false);
      return;
    }
    for (const h of this.held) {
      if (this.heldBytes <= this.holdBytes) return;
      if (h.parcel.bytes.size === 0) continue;
      this.heldBytes -= h.parcel.bytes.size;
      h.parcel = { deltas: withGaps(h.parcel.deltas, h.offsets), bytes: new Blob([]) };
    }
  }

  private dropHeld(): void {
    this.held.length = 0;
    this.heldBytes = 0;
  }

  private ensurePort(): RelayPort {
    if (this.port) return this.port;
    const port = this.connect();
    this.released = false;
    port.onMessage((message) => {
      if (this.port !== port) return;
      if (message.type === 'ack') this.ack(message.seq);
      else this.release();
    });
    port.onDisconnect(() => {
      if (this.port !== port) return;
      this.port = null;
      // A worker that stopped comes back with the panel: go on collecting for it. Closed on purpose: stop.
      this.holding = !this.released;
      if (!this.holding) {
        this.queue = [];
        this.queueOffsets = [];
        this.liveChanged(false);
      }
    });
    const wasLive = this.live;
    this.port = port;
    if (!wasLive) this.liveChanged(true);
    return port;
  }
}

/** The heads with each chunk replaced by a gap of its size at its offset (the bytes could not be kept). */
function withGaps(deltas: readonly ParcelDelta[], offsets: readonly number[]): ParcelDelta[] {
  let k = 0;
  return deltas.map((d): ParcelDelta => {
    if (d.kind !== 'chunk') return d;
    const offset = offsets[k++] ?? 0;
    return { kind: 'gap', id: d.id, gap: { offset, bytes: d.size, t: d.t, cause: 'unacknowledged' } };
  });
}
