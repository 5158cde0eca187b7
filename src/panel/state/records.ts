// Panel (pure): folds wire deltas into raw capture records. No DOM, no extension APIs.
import type { ConnectionRecord } from '../../core/capture/model';
import type { ConnectionDelta } from '../../protocol/records';

/** The raw records the panel keeps; everything shown is derived from these. */
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
    }
  }
  return { connections, indexById, ignoredIds, orphanDeltas };
}

/** The inverse of applyDeltas for one record: what a background would have sent. Used by import tests and the dev harness. */
export function recordToDeltas(record: ConnectionRecord): ConnectionDelta[] {
  const { id, source, method, url, requestHeaders, requestBody, startTime, documentUrl } = record;
  const deltas: ConnectionDelta[] = [
    {
      kind: 'start',
      conn: {
        id,
        source,
        method,
        url,
        requestHeaders,
        startTime,
        ...(requestBody !== undefined ? { requestBody } : {}),
        ...(documentUrl !== undefined ? { documentUrl } : {}),
      },
    },
  ];
  if (record.status !== undefined) {
    deltas.push({
      kind: 'response',
      id,
      status: record.status,
      statusText: record.statusText ?? '',
      responseHeaders: record.responseHeaders ?? [],
      responseTime: record.responseTime ?? startTime,
    });
  }
  for (const chunk of record.chunks) deltas.push({ kind: 'chunk', id, t: chunk.t, bytes: chunk.bytes });
  for (const mark of record.faults ?? []) deltas.push({ kind: 'fault', id, mark });
  if (record.end !== 'open') {
    deltas.push({
      kind: 'end',
      id,
      end: record.end,
      endTime: record.endTime ?? startTime,
      ...(record.error !== undefined ? { error: record.error } : {}),
    });
  }
  return deltas;
}

/**
 * After a worker restart the snapshot holds only what live bridges still buffer: documents navigated away from
 * (preserve log) and connections evicted from a bridge are kept from what the panel already had. For a connection
 * in both, the one that received more bytes wins.
 */
export function mergeSnapshot(previous: RecordsState, snapshot: RecordsState): RecordsState {
  const bodyBytes = (record: ConnectionRecord): number =>
    record.chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
  const merged = new Map<string, ConnectionRecord>();
  for (const record of previous.connections) merged.set(record.id, record);
  for (const record of snapshot.connections) {
    const known = merged.get(record.id);
    if (!known || bodyBytes(record) >= bodyBytes(known) || record.end !== 'open') merged.set(record.id, record);
  }
  const connections = [...merged.values()]
    .map((record, order) => ({ record, order }))
    .sort((a, b) => a.record.startTime - b.record.startTime || a.order - b.order)
    .map(({ record }) => record);
  return {
    connections,
    indexById: new Map(connections.map((record, index) => [record.id, index])),
    ignoredIds: new Set([...previous.ignoredIds, ...snapshot.ignoredIds]),
    orphanDeltas: previous.orphanDeltas + snapshot.orphanDeltas,
  };
}
