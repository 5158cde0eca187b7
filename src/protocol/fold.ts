// Runs anywhere (pure): folds wire deltas back into the core's raw capture records (the join of the tap's split). The
// panel's worker and the Playwright fixture's recorder keep their records with it.
import type { CaptureGap, ConnectionRecord } from '../core/capture/model';
import type { ConnectionDelta } from './records';

/** Raw records folded from deltas; everything shown is derived from these. */
export interface RecordsState {
  /** Connections in the order their `start` arrived. */
  readonly connections: readonly ConnectionRecord[];
  readonly indexById: ReadonlyMap<string, number>;
  /** Connections that started while recording was paused; their later deltas are dropped quietly. */
  readonly ignoredIds: ReadonlySet<string>;
  /** Deltas that named a connection never seen starting: data the panel could not place. */
  readonly orphanDeltas: number;
}

export const emptyRecords: RecordsState = {
  connections: [],
  indexById: new Map(),
  ignoredIds: new Set(),
  orphanDeltas: 0,
};

export interface ApplyOptions {
  /** False while recording is paused: connections already known keep filling, new ones are not taken. */
  acceptNew?: boolean;
}

/**
 * Returns a new state with the deltas applied in order; the input state is never mutated.
 * Each touched record (and its chunk list) is copied once per call, so a batch costs O(batch + touched).
 */
export function applyDeltas(
  state: RecordsState,
  deltas: readonly ConnectionDelta[],
  options: ApplyOptions = {},
): RecordsState {
  if (deltas.length === 0) return state;
  const acceptNew = options.acceptNew ?? true;
  const connections = state.connections.slice();
  let indexById = state.indexById;
  let indexCopied = false;
  let orphanDeltas = state.orphanDeltas;
  let ignoredIds = state.ignoredIds;
  const touched = new Set<number>();

  const editable = (index: number): ConnectionRecord => {
    const current = connections[index] as ConnectionRecord;
    if (touched.has(index)) return current;
    const copy: ConnectionRecord = { ...current, chunks: current.chunks.slice() };
    connections[index] = copy;
    touched.add(index);
    return copy;
  };

  for (const delta of deltas) {
    if (delta.kind === 'start') {
      const known = indexById.get(delta.conn.id);
      if (known !== undefined) continue; // a replayed start (e.g. snapshot overlap) changes nothing
      if (!acceptNew) {
        if (ignoredIds === state.ignoredIds) ignoredIds = new Set(ignoredIds);
        (ignoredIds as Set<string>).add(delta.conn.id);
        continue;
      }
      if (!indexCopied) {
        indexById = new Map(indexById);
        indexCopied = true;
      }
      const record: ConnectionRecord = {
        ...delta.conn,
        requestHeaders: delta.conn.requestHeaders.slice(),
        chunks: [],
        end: 'open',
      };
      (indexById as Map<string, number>).set(record.id, connections.length);
      touched.add(connections.length);
      connections.push(record);
      continue;
    }
    const index = indexById.get(delta.id);
    if (index === undefined) {
      if (!ignoredIds.has(delta.id)) orphanDeltas++;
      continue;
    }
    const record = editable(index);
    switch (delta.kind) {
      case 'response':
        record.status = delta.status;
        record.statusText = delta.statusText;
        record.responseHeaders = delta.responseHeaders.slice();
        record.responseTime = delta.responseTime;
        break;
      case 'chunk':
        record.chunks.push({ t: delta.t, bytes: delta.bytes });
        break;
      case 'end':
        record.end = delta.end;
        record.endTime = delta.endTime;
        if (delta.error !== undefined) record.error = delta.error;
        break;
      case 'fault':
        record.faults = [...(record.faults ?? []), delta.mark];
        break;
      case 'gap':
        record.gaps = addGap(record.gaps, delta.gap);
        break;
    }
  }
  return { connections, indexById, ignoredIds, orphanDeltas };
}

/** The gaps with `gap` added: one that starts where the last ends grows it (a buffer evicts chunk after chunk). */
function addGap(gaps: readonly CaptureGap[] | undefined, gap: CaptureGap): CaptureGap[] {
  const list = gaps ? gaps.slice() : [];
  const last = list.at(-1);
  if (last && last.offset + last.bytes === gap.offset && last.cause === gap.cause)
    list[list.length - 1] = { ...last, bytes: last.bytes + gap.bytes };
  else if (!last || gap.offset >= last.offset + last.bytes) list.push({ ...gap });
  // A gap that overlaps what is known already (a re-sent eviction) adds nothing.
  return list;
}
