// Panel (pure): the raw records the panel keeps (folded by protocol/fold.ts), back into deltas, merged after a restart.
import type { CaptureGap, ConnectionRecord } from '../../core/capture/model';
import type { RecordsState } from '../../protocol/fold';
import type { ConnectionDelta } from '../../protocol/records';

// The fold itself lives in src/protocol (the Playwright fixture keeps records with it too).
export { applyDeltas, emptyRecords, type RecordsState } from '../../protocol/fold';

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
  // Each gap goes where the body reaches its offset, among the chunks, as a recorder would have sent it.
  const gaps = record.gaps ?? [];
  let g = 0;
  let offset = 0;
  for (const chunk of record.chunks) {
    for (; g < gaps.length && (gaps[g] as CaptureGap).offset <= offset; g++) {
      const gap = gaps[g] as CaptureGap;
      deltas.push({ kind: 'gap', id, gap });
      offset += gap.bytes;
    }
    deltas.push({ kind: 'chunk', id, t: chunk.t, bytes: chunk.bytes });
    offset += chunk.bytes.byteLength;
  }
  for (; g < gaps.length; g++) deltas.push({ kind: 'gap', id, gap: gaps[g] as CaptureGap });
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
 * in both, the one that holds more bytes wins (the snapshot's when equal and it ended).
 */
export function mergeSnapshot(previous: RecordsState, snapshot: RecordsState): RecordsState {
  const bodyBytes = (record: ConnectionRecord): number =>
    record.chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, 0);
  const merged = new Map<string, ConnectionRecord>();
  for (const record of previous.connections) merged.set(record.id, record);
  for (const record of snapshot.connections) {
    const known = merged.get(record.id);
    // A snapshot trimmed by the bridge's budget (a gap) never replaces a fuller record the panel got live.
    const [mine, theirs] = [bodyBytes(known ?? record), bodyBytes(record)];
    if (!known || theirs > mine || (theirs === mine && record.end !== 'open')) merged.set(record.id, record);
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
