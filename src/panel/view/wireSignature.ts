// Runs anywhere (pure): a count of raw records that the page itself and the panel can both make identically, so a
// test can tell that the panel holds everything the page's fetch saw (a causal "caught up", not a quiet spell).
import type { ConnectionRecord, GapCause } from '../../core/capture/model';
import { mediaType } from '../../core/mcp/headers';

/**
 * What both ends of the pipeline count the same way. Each number only grows while traffic flows, and the panel's
 * can never exceed the page's: equal numbers mean the panel holds every connection, answer, byte and end.
 */
export interface WireSignature {
  connections: number;
  /** Connections that got a response head, or failed without one. */
  answered: number;
  /**
   * Body bytes of fetch() event-stream answers: the tap copies each chunk as the page reads it. EventSource records
   * are re-encoded by the tap, and other bodies are copied whether the page reads them or not: neither is counted.
   */
  streamBytes: number;
  /** Event-stream answers whose body ended (complete, cut, cancelled or aborted); open streams are not ended. */
  streamsEnded: number;
}

const isStream = (record: ConnectionRecord): boolean =>
  record.source === 'eventsource' || mediaType(record.responseHeaders) === 'text/event-stream';

export function wireSignature(records: readonly ConnectionRecord[]): WireSignature {
  const signature: WireSignature = { connections: records.length, answered: 0, streamBytes: 0, streamsEnded: 0 };
  for (const record of records) {
    if (record.status !== undefined || record.end !== 'open') signature.answered++;
    if (!isStream(record)) continue;
    if (record.end !== 'open') signature.streamsEnded++;
    if (record.source === 'fetch') {
      for (const chunk of record.chunks) signature.streamBytes += chunk.bytes.byteLength;
    }
  }
  return signature;
}

/**
 * Answers that are not event streams but whose record is still open. The tap ends those on its own (at the answer,
 * or once it has copied a JSON body), whatever the page does with them: the panel is complete only at zero.
 */
export function pendingBodies(records: readonly ConnectionRecord[]): number {
  return records.filter((record) => record.status !== undefined && record.end === 'open' && !isStream(record)).length;
}

export function sameWire(a: WireSignature, b: WireSignature): boolean {
  return (
    a.connections === b.connections &&
    a.answered === b.answered &&
    a.streamBytes === b.streamBytes &&
    a.streamsEnded === b.streamsEnded
  );
}

/** Body bytes the records lack (capture gaps), per cause: the status bar names each. */
export function gapBytes(records: readonly ConnectionRecord[]): Record<GapCause, number> {
  const bytes: Record<GapCause, number> = { evicted: 0, unacknowledged: 0, 'panel-budget': 0 };
  for (const record of records) for (const gap of record.gaps ?? []) bytes[gap.cause] += gap.bytes;
  return bytes;
}
