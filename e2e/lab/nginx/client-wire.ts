// Runs in Node (the intermediaries' fixture recorder): the client's own recording (the lab's recording fetch: what the
// SDK client received, chunk by chunk, after every box in between) as the wire recording wire-har.ts writes as HAR +
// chunks.ndjson. Recorded at the client because the intermediary (nginx, a compression middleware) is what is judged.
import type { ConnectionRecord } from '../../../src/core/capture/model';
import type { WireEnd, WireExchange } from '../proxy/wire-recorder';
import type { WireRecording } from '../wire-har';

function end(record: ConnectionRecord): WireEnd {
  return record.end === 'network-error' ? 'failed' : record.end;
}

function exchange(record: ConnectionRecord, index: number, t0: number): WireExchange {
  const chunks: WireExchange['chunks'] = [];
  const body: Buffer[] = [];
  let bytes = 0;
  for (const chunk of record.chunks) {
    chunks.push({ at: chunk.t - t0, offset: bytes, length: chunk.bytes.length });
    body.push(Buffer.from(chunk.bytes));
    bytes += chunk.bytes.length;
  }
  return {
    seq: index + 1,
    // The fetch API does not say which TCP connection carried a request: each exchange gets its own number.
    conn: index + 1,
    method: record.method,
    url: record.url,
    httpVersion: 'HTTP/1.1',
    requestHeaders: record.requestHeaders.map(({ name, value }): [string, string] => [name, value]),
    ...(record.requestBody !== undefined && { requestBody: Buffer.from(record.requestBody) }),
    startAt: record.startTime - t0,
    ...(record.status !== undefined && { status: record.status, statusText: record.statusText ?? '' }),
    ...(record.responseHeaders && {
      responseHeaders: record.responseHeaders.map(({ name, value }): [string, string] => [name, value]),
    }),
    ...(record.responseTime !== undefined && { responseAt: record.responseTime - t0 }),
    chunks,
    body,
    bytes,
    end: end(record),
    ...(record.endTime !== undefined && { endAt: record.endTime - t0 }),
    ...(record.error !== undefined && { error: record.error }),
  };
}

/**
 * The client's records in the order it made the requests; time 0 is the first request. `observedUntil` (epoch ms):
 * the recording stopped then, with what was open still open.
 */
export function clientWireRecording(
  connections: readonly ConnectionRecord[],
  pageUrl: string,
  observedUntil?: number,
): WireRecording {
  const ordered = [...connections].sort((a, b) => a.startTime - b.startTime);
  const startedAt = ordered[0]?.startTime ?? Date.now();
  return {
    startedAt,
    pageUrl,
    exchanges: ordered.map((record, index) => exchange(record, index, startedAt)),
    ...(observedUntil !== undefined && { observedUntil: observedUntil - startedAt }),
  };
}
