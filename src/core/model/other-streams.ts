// Runs anywhere (pure core): the SSE streams that are not MCP, as the analysis lists them apart.
import type { ConnectionRecord } from '../capture/model';
import { recordedOffset } from '../capture/gaps';
import { SseParser } from '../sse/parser';
import type { SseEvent } from '../sse/types';
import { stripQuery } from './connection';
import type { OtherConnection } from './sessions';
import type { OtherStreamView } from './types';

/** The MCP Inspector 2.x backend's stream to its web UI (MCP relayed in `{"type","data"}` envelopes). */
const INSPECTOR_EVENTS = '/api/mcp/events';

export function otherStreamView({ conn, reason }: OtherConnection): OtherStreamView {
  const { record } = conn;
  const view: OtherStreamView = {
    connectionId: record.id,
    record,
    method: record.method,
    url: record.url,
    startTime: record.startTime,
    endTime: record.endTime ?? record.responseTime ?? record.startTime,
    events: conn.table.count,
    bytes: conn.bytes,
    reason,
  };
  if (record.status !== undefined) view.status = record.status;
  const kind = stripQuery(record.url).endsWith(INSPECTOR_EVENTS) ? 'mcp-inspector' : conn.signals.hint;
  if (kind !== undefined) view.kind = kind;
  return view;
}

/**
 * The events of a stream that is not MCP, parsed from its record's bytes (the analysis keeps only their count).
 * @param record an other stream's record ({@link OtherStreamView.record}).
 * @returns its dispatched events, in order.
 */
export function otherStreamEvents(record: ConnectionRecord): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  const gaps = record.gaps ?? [];
  let passed = 0;
  let offset = 0;
  for (const chunk of record.chunks) {
    // As SseBodyReader: no event is joined across a capture gap.
    for (; passed < gaps.length && recordedOffset(gaps, passed) <= offset; passed++) parser.resync();
    events.push(...parser.push(chunk.bytes));
    offset += chunk.bytes.byteLength;
  }
  return events;
}
