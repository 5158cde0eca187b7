// Isolated world (pure): the per-frame record of what the tap saw, bounded, so a panel opened later gets it all, or
// as much as fits with the rest marked: a big stream keeps its head and its latest bytes, and the middle it had to
// evict becomes a gap at its body offset (a panel reopened on a stream bigger than the budget still shows it).
import type { CaptureGap, ConnectionDelta } from '../protocol/records';
import { deltaSize } from '../protocol/size';
import { HEAD_KEEP_BYTES, inHead, middleRun, widenGap } from '../protocol/trim';

export const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;

/** What became of a delta: kept, dropped from the buffer but still worth relaying live, or refused. */
export type Admission = 'buffered' | 'relay-only' | 'rejected';

// The first body bytes of a connection are never trimmed (protocol/trim.ts, shared with the panel's budget).
export { HEAD_KEEP_BYTES };

interface Entry {
  /** Deltas in order; evicted ones are null (their slots are compacted away now and then). */
  deltas: (ConnectionDelta | null)[];
  /** deltas[0..keep) are the head, never trimmed. */
  keep: number;
  /** The first delta after the head that is still held. */
  next: number;
  /** Non-chunk deltas met while trimming (fault marks): kept, sent before the gap. */
  extras: ConnectionDelta[];
  gap: CaptureGap | undefined;
  /** Body bytes the page received on this connection so far (kept or evicted). */
  body: number;
  bytes: number;
  ended: boolean;
}

/** Remembers this many ids of connections no longer buffered (oldest forgotten first). */
const MAX_FORGOTTEN_IDS = 10_000;

export class FrameBuffer {
  private readonly entries = new Map<string, Entry>();
  /** Evicted whole for space: later deltas are not buffered but still relayed to a panel that has the start. */
  private readonly evicted = new Set<string>();
  /** Cleared by the user: later deltas are dropped everywhere. */
  private readonly cleared = new Set<string>();
  private total = 0;
  /** Bytes of connections evicted whole (a panel attaching later cannot show them at all). */
  droppedBytes = 0;
  /** Connections evicted whole. */
  droppedConnections = 0;
  /** Body bytes trimmed out of connections still held (each is a gap in the snapshot). */
  trimmedBytes = 0;

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
      // Not counted as dropped: a watching panel gets it live, and a later panel misses the whole connection, which
      // its eviction counted once.
      return delta.kind === 'start' ? 'rejected' : 'relay-only';
    }
    let entry = this.entries.get(id);
    if (delta.kind === 'start') {
      if (entry) return 'rejected';
      entry = { deltas: [], keep: 0, next: 0, extras: [], gap: undefined, body: 0, bytes: 0, ended: false };
      this.entries.set(id, entry);
    } else if (!entry || entry.ended) {
      return 'rejected';
    }
    if (delta.kind === 'chunk' && entry.gap !== undefined && !entry.ended && entry.next === entry.deltas.length) {
      // An open stream already trimmed to its head: the rest goes into its gap, uncopied. Copying every chunk of a
      // long stream only to trim it again cost the page's thread some 300 ms per 64 MB (tap-throughput B 1.09 ->
      // 0.77); a watching panel still gets the chunk live.
      entry.gap.bytes += delta.bytes.byteLength;
      entry.body += delta.bytes.byteLength;
      this.trimmedBytes += delta.bytes.byteLength;
      return 'relay-only';
    }
    const size = deltaSize(delta);
    // A chunk sits in one of the tap's slabs, which goes back to the tap: what is kept is a copy.
    entry.deltas.push(delta.kind === 'chunk' ? { ...delta, bytes: delta.bytes.slice() } : delta);
    if (delta.kind === 'chunk') entry.body += delta.bytes.byteLength;
    // The head grows until the body passes HEAD_KEEP_BYTES, and only while nothing was trimmed.
    if (entry.gap === undefined && entry.keep === entry.deltas.length - 1 && inHead(entry.body - chunkBytes(delta)))
      entry.keep = entry.next = entry.deltas.length;
    entry.bytes += size;
    this.total += size;
    if (delta.kind === 'end') entry.ended = true;
    const kept = this.evictOverBudget(id);
    return kept ? 'buffered' : 'relay-only';
  }

  /** Every buffered delta, grouped by connection in the order connections started; trimmed parts are gaps. */
  snapshot(): ConnectionDelta[] {
    const out: ConnectionDelta[] = [];
    for (const [id, entry] of this.entries) {
      for (let i = 0; i < entry.keep; i++) pushHeld(out, entry.deltas[i]);
      out.push(...entry.extras);
      if (entry.gap) out.push({ kind: 'gap', id, gap: { ...entry.gap } });
      for (let i = entry.next; i < entry.deltas.length; i++) pushHeld(out, entry.deltas[i]);
    }
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
    this.droppedConnections = 0;
    this.trimmedBytes = 0;
  }

  /**
   * Trims the middle of big connections (ended first, the biggest first), then drops whole connections, oldest
   * ended first, then oldest open; true when `keep` survived.
   */
  private evictOverBudget(keep?: string): boolean {
    while (this.total > this.budget && this.entries.size > 0) {
      const trim = this.largestTrimmable(true) ?? this.largestTrimmable(false);
      if (trim !== undefined) {
        this.trim(trim);
        continue;
      }
      const victim = this.oldest(true) ?? this.oldest(false);
      if (victim === undefined) break;
      const entry = this.entries.get(victim);
      if (!entry) break;
      this.entries.delete(victim);
      this.total -= entry.bytes;
      this.droppedBytes += entry.bytes;
      this.droppedConnections++;
      if (!entry.ended) remember(this.evicted, victim);
    }
    return keep === undefined || this.entries.has(keep);
  }

  /**
   * Evicts the entry's oldest chunks after its head until the buffer fits or nothing is left to trim; an open one
   * loses everything after its head at once (its later chunks then go straight into the gap, see add).
   */
  private trim(entry: Entry): void {
    const all = !entry.ended;
    // The run to give up: after the head, oldest first; an ended entry keeps its last delta.
    const { end } = middleRun(
      entry.next,
      all ? entry.deltas.length : entry.deltas.length - 1,
      all ? Infinity : this.total - this.budget,
      (i) => {
        const delta = entry.deltas[i];
        return delta?.kind === 'chunk' ? deltaSize(delta) : undefined;
      },
    );
    const offset = entry.gap ? entry.gap.offset : bodyBefore(entry);
    for (; entry.next < end; entry.next++) {
      const delta = entry.deltas[entry.next];
      entry.deltas[entry.next] = null;
      if (!delta) continue;
      if (delta.kind !== 'chunk') {
        entry.extras.push(delta);
        continue;
      }
      const size = deltaSize(delta);
      const length = delta.bytes.byteLength;
      entry.gap = widenGap(entry.gap, offset, length, delta.t, 'evicted');
      entry.bytes -= size;
      this.total -= size;
      this.trimmedBytes += length;
    }
    // Evicted slots are compacted once they are most of the array, so trimming a long stream stays linear.
    if (entry.next - entry.keep > 1024 && entry.next - entry.keep > entry.deltas.length / 2) {
      entry.deltas = [...entry.deltas.slice(0, entry.keep), ...entry.deltas.slice(entry.next)];
      entry.next = entry.keep;
    }
  }

  /** The biggest connection with a chunk it can trim and more than HEAD_KEEP_BYTES held. */
  private largestTrimmable(ended: boolean): Entry | undefined {
    let best: Entry | undefined;
    let bestBytes = HEAD_KEEP_BYTES;
    for (const entry of this.entries.values()) {
      if (entry.ended === ended && entry.bytes > bestBytes && hasTrimmable(entry, !ended))
        [best, bestBytes] = [entry, entry.bytes];
    }
    return best;
  }

  private oldest(ended: boolean): string | undefined {
    for (const [id, entry] of this.entries) if (entry.ended === ended) return id;
    return undefined;
  }
}

/**
 * A chunk after the head, with something after it (the latest bytes of an ended connection are what a panel needs
 * most); with `all`, the last chunk too.
 */
function hasTrimmable(entry: Entry, all = false): boolean {
  const end = all ? entry.deltas.length : entry.deltas.length - 1;
  for (let i = entry.next; i < end; i++) if (entry.deltas[i]?.kind === 'chunk') return true;
  return false;
}

/** Body bytes before the entry's first trimmed chunk: the head's chunks. */
function bodyBefore(entry: Entry): number {
  let bytes = 0;
  for (let i = 0; i < entry.next; i++) bytes += chunkBytes(entry.deltas[i] ?? null);
  return bytes;
}

function chunkBytes(delta: ConnectionDelta | null): number {
  return delta?.kind === 'chunk' ? delta.bytes.byteLength : 0;
}

function pushHeld(out: ConnectionDelta[], delta: ConnectionDelta | null | undefined): void {
  if (delta) out.push(delta);
}

function remember(set: Set<string>, id: string): void {
  set.add(id);
  if (set.size > MAX_FORGOTTEN_IDS) {
    const oldest = set.values().next().value;
    if (oldest !== undefined) set.delete(oldest);
  }
}
