// Panel worker (pure): the per-tab budget of the records the analysis worker holds, so a flood (a page streaming for
// hours, or forging bytes) cannot grow the panel without bound. Over it, the oldest finished connections give up
// their bodies first (a `panel-budget` gap where the bytes were, so rules never judge across them), then open
// streams their middles (head and newest bytes kept, as the bridge's buffer does: protocol/trim.ts), then whole
// connections go, oldest finished first; every drop is counted.
import type { ConnectionRecord, HttpHeader } from '../../core/capture/model';
import type { RecordsState } from '../../protocol/fold';
import { gapChunks, HEAD_KEEP_BYTES, keepEnds, recordedBytes } from '../../protocol/trim';

const MIB = 1024 * 1024;

export interface PanelBudget {
  /** Bytes of records held per tab (bodies plus an estimate for heads). */
  bytes: number;
  /** Connections held per tab. */
  connections: number;
}

export const DEFAULT_PANEL_BUDGET: PanelBudget = { bytes: 256 * MIB, connections: 5000 };
export const PANEL_BUDGET_LIMITS = {
  bytes: { min: 1 * MIB, max: 4096 * MIB },
  connections: { min: 10, max: 1_000_000 },
} as const;

/** What the budget took away whole (gapped bodies are counted by their gaps). */
export interface BudgetDrops {
  connections: number;
  bytes: number;
}

export const NO_DROPS: BudgetDrops = { connections: 0, bytes: 0 };

/**
 * Once over, the records are brought down to this share of the budget: a stream that keeps arriving is then trimmed
 * now and then, not on every batch (each trim makes the analyzer read that record again from its start).
 */
const LOW_WATER = 0.75;
/** Connections are dropped down to this share of their budget, for the same reason. */
const CONNECTIONS_LOW_WATER = 0.9;
/** Ids of dropped connections remembered (their late deltas are then dropped quietly, not reported as lost). */
const MAX_IGNORED_IDS = 10_000;
/** A chunk's own cost besides its bytes (its object and view), and a record's besides its body. */
const CHUNK_OVERHEAD = 64;
const RECORD_OVERHEAD = 512;

// A memo, not state: a record object never changes (the fold copies what it touches), so its size is computed once.
const sizes = new WeakMap<ConnectionRecord, number>();

function headersSize(headers: readonly HttpHeader[] | undefined): number {
  let size = 0;
  for (const h of headers ?? []) size += h.name.length + h.value.length + 16;
  return size;
}

/** The bytes a record holds: its body's kept chunks, and an estimate of its head (UTF-16 strings count double). */
export function recordSize(record: ConnectionRecord): number {
  const known = sizes.get(record);
  if (known !== undefined) return known;
  let size =
    RECORD_OVERHEAD +
    2 *
      (record.url.length +
        (record.requestBody?.length ?? 0) +
        headersSize(record.requestHeaders) +
        headersSize(record.responseHeaders) +
        (record.error?.length ?? 0)) +
    96 * ((record.gaps?.length ?? 0) + (record.faults?.length ?? 0));
  for (const chunk of record.chunks) size += chunk.bytes.byteLength + CHUNK_OVERHEAD;
  sizes.set(record, size);
  return size;
}

export function heldBytes(records: RecordsState): number {
  let total = 0;
  for (const record of records.connections) total += recordSize(record);
  return total;
}

/** Connections held with a `panel-budget` gap. */
export function gappedConnections(records: RecordsState): number {
  let count = 0;
  for (const record of records.connections) if (record.gaps?.some((g) => g.cause === 'panel-budget')) count++;
  return count;
}

/**
 * A record brought within `room` bytes (its head included): its first bytes up to HEAD_KEEP_BYTES and its newest
 * bytes kept, the middle a gap; a few tries, as splitting and each chunk's overhead move the size a little.
 */
function keepWithin(record: ConnectionRecord, room: number): ConnectionRecord {
  const body = recordedBytes(record.chunks);
  let keep = body - (recordSize(record) - room);
  for (let attempt = 0; attempt < 4 && keep > 0; attempt++) {
    const head = Math.min(HEAD_KEEP_BYTES, Math.floor(keep / 2));
    const next = keepEnds(record, head, keep - head, 'panel-budget');
    const over = recordSize(next) - room;
    if (over <= 0) return next;
    keep -= over;
  }
  return gapChunks(record, 0, record.chunks.length, 'panel-budget');
}

export interface Budgeted {
  records: RecordsState;
  dropped: BudgetDrops;
}

/** The records within `budget` (the same object when they already are), and `dropped` plus what went whole. */
export function enforceBudget(records: RecordsState, budget: PanelBudget, dropped: BudgetDrops): Budgeted {
  let total = heldBytes(records);
  if (total <= budget.bytes && records.connections.length <= budget.connections) return { records, dropped };
  const list = records.connections.slice();
  const gone = new Set<number>();
  let drops = dropped;
  const low = Math.floor(budget.bytes * LOW_WATER);
  const replace = (i: number, next: ConnectionRecord) => {
    total += recordSize(next) - recordSize(list[i] as ConnectionRecord);
    list[i] = next;
  };
  const drop = (i: number) => {
    const size = recordSize(list[i] as ConnectionRecord);
    total -= size;
    gone.add(i);
    drops = { connections: drops.connections + 1, bytes: drops.bytes + size };
  };
  // Oldest first, finished before open; a cursor each, since what is gone stays gone and no record ends here.
  const cursors = { finished: 0, open: 0 };
  const oldest = (): number => {
    for (const kind of ['finished', 'open'] as const) {
      for (; cursors[kind] < list.length; cursors[kind]++) {
        const i = cursors[kind];
        if (!gone.has(i) && ((list[i] as ConnectionRecord).end !== 'open') === (kind === 'finished')) return i;
      }
    }
    return -1;
  };
  const connectionsLow = Math.floor(budget.connections * CONNECTIONS_LOW_WATER);
  if (list.length > budget.connections) {
    while (list.length - gone.size > connectionsLow) {
      const i = oldest();
      if (i < 0) break;
      drop(i);
    }
  }
  if (total > budget.bytes) {
    // 1. Finished connections, oldest first, give up their whole bodies; the last one needed only what it must
    // (its head and newest bytes stay, as for an open stream), so the newest finished stream is not emptied for a
    // few bytes over.
    for (let i = 0; i < list.length && total > low; i++) {
      const record = list[i] as ConnectionRecord;
      if (gone.has(i) || record.end === 'open' || record.chunks.length === 0) continue;
      const excess = total - low;
      replace(
        i,
        excess >= recordedBytes(record.chunks)
          ? gapChunks(record, 0, record.chunks.length, 'panel-budget')
          : keepWithin(record, recordSize(record) - excess),
      );
    }
    // 2. Open streams, biggest body first, give up their middles: the head (up to HEAD_KEEP_BYTES) and the newest
    // bytes stay, as much as the room left for the stream holds.
    const open = list
      .map((record, i) => ({ i, bytes: recordedBytes(record.chunks) }))
      .filter(({ i, bytes }) => !gone.has(i) && (list[i] as ConnectionRecord).end === 'open' && bytes > 0)
      .sort((a, b) => b.bytes - a.bytes || a.i - b.i);
    for (const { i } of open) {
      if (total <= low) break;
      replace(i, keepWithin(list[i] as ConnectionRecord, recordSize(list[i] as ConnectionRecord) - (total - low)));
    }
    // 3. Heads alone are over: whole connections go, oldest finished first.
    while (total > low) {
      const i = oldest();
      if (i < 0) break;
      drop(i);
    }
  }
  if (gone.size === 0) {
    const changed = list.some((record, i) => record !== records.connections[i]);
    return { records: changed ? { ...records, connections: list } : records, dropped: drops };
  }
  const kept = list.filter((_, i) => !gone.has(i));
  const ignored = [...records.ignoredIds, ...list.filter((_, i) => gone.has(i)).map((r) => r.id)];
  return {
    records: {
      connections: kept,
      indexById: new Map(kept.map((record, i) => [record.id, i])),
      ignoredIds: new Set(ignored.slice(-MAX_IGNORED_IDS)),
      orphanDeltas: records.orphanDeltas,
    },
    dropped: drops,
  };
}
