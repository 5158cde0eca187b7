// Isolated world (pure): the per-frame record of what the tap saw, bounded, so a panel opened later gets it all.
import type { ConnectionDelta } from '../protocol/records';
import { deltaSize } from '../protocol/size';

export const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;

/** What became of a delta: kept, dropped from the buffer but still worth relaying live, or refused. */
export type Admission = 'buffered' | 'relay-only' | 'rejected';

interface Entry {
  deltas: ConnectionDelta[];
  bytes: number;
  ended: boolean;
}

/** Remembers this many ids of connections no longer buffered (oldest forgotten first). */
const MAX_FORGOTTEN_IDS = 10_000;

export class FrameBuffer {
  private readonly entries = new Map<string, Entry>();
  /** Evicted for space: later deltas are not buffered but still relayed to a panel that has the start. */
  private readonly evicted = new Set<string>();
  /** Cleared by the user: later deltas are dropped everywhere. */
  private readonly cleared = new Set<string>();
  private total = 0;
  droppedBytes = 0;

  constructor(private budget: number = DEFAULT_BUFFER_BYTES) {}

  get bytes(): number {
    return this.total;
  }

  setBudget(budget: number): void {
    this.budget = budget;
    this.evictOverBudget();
  }

  add(delta: ConnectionDelta): Admission {
    const id = delta.kind === 'start' ? delta.conn.id : delta.id;
    if (this.cleared.has(id)) return 'rejected';
    if (this.evicted.has(id)) {
      if (delta.kind === 'start') return 'rejected';
      this.droppedBytes += deltaSize(delta);
      return 'relay-only';
    }
    let entry = this.entries.get(id);
    if (delta.kind === 'start') {
      if (entry) return 'rejected';
      entry = { deltas: [], bytes: 0, ended: false };
      this.entries.set(id, entry);
    } else if (!entry || entry.ended) {
      return 'rejected';
    }
    const size = deltaSize(delta);
    // A chunk sits in one of the tap's slabs, which goes back to the tap: what is kept is a copy.
    entry.deltas.push(delta.kind === 'chunk' ? { ...delta, bytes: delta.bytes.slice() } : delta);
    entry.bytes += size;
    this.total += size;
    if (delta.kind === 'end') entry.ended = true;
    const kept = this.evictOverBudget(id);
    return kept ? 'buffered' : 'relay-only';
  }

  /** Every buffered delta, grouped by connection in the order connections started. */
  snapshot(): ConnectionDelta[] {
    const out: ConnectionDelta[] = [];
    for (const entry of this.entries.values()) out.push(...entry.deltas);
    return out;
  }

  /** Forgets everything; deltas of connections still open are refused from now on. */
  clear(): void {
    for (const [id, entry] of this.entries) if (!entry.ended) remember(this.cleared, id);
    for (const id of this.evicted) remember(this.cleared, id);
    this.entries.clear();
    this.evicted.clear();
    this.total = 0;
    this.droppedBytes = 0;
  }

  /** Drops whole connections, oldest completed first, then oldest open; true when `keep` survived. */
  private evictOverBudget(keep?: string): boolean {
    while (this.total > this.budget && this.entries.size > 0) {
      const victim = this.largest(true) ?? this.largest(false) ?? this.oldest(true) ?? this.oldest(false);
      if (victim === undefined) break;
      const entry = this.entries.get(victim);
      if (!entry) break;
      this.entries.delete(victim);
      this.total -= entry.bytes;
      this.droppedBytes += entry.bytes;
      if (!entry.ended) remember(this.evicted, victim);
    }
    return keep === undefined || this.entries.has(keep);
  }

  /**
   * The biggest connection over SMALL_CONNECTION_BYTES: big streams go first so that the small exchanges a panel
   * needs to make sense of them (initialize, 202s, refusals) survive.
   */
  private largest(ended: boolean): string | undefined {
    let best: string | undefined;
    let bestBytes = SMALL_CONNECTION_BYTES;
    for (const [id, entry] of this.entries) {
      if (entry.ended === ended && entry.bytes > bestBytes) [best, bestBytes] = [id, entry.bytes];
    }
    return best;
  }

  private oldest(ended: boolean): string | undefined {
    for (const [id, entry] of this.entries) if (entry.ended === ended) return id;
    return undefined;
  }
}

/** Connections up to this size are evicted only when nothing bigger is left. */
const SMALL_CONNECTION_BYTES = 64 * 1024;

function remember(set: Set<string>, id: string): void {
  set.add(id);
  if (set.size > MAX_FORGOTTEN_IDS) {
    const oldest = set.values().next().value;
    if (oldest !== undefined) set.delete(oldest);
  }
}
