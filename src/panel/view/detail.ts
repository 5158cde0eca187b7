// Panel (pure): what the detail pane shows about an event: its bytes, chunk boundaries, the request it answers.
import type { ConnectionRecord } from '../../core/capture/model';
import type { ConnectionView, EventView } from '../../core/model/types';
import type { JsonRpcMessage } from '../../core/mcp/types';
import { envelopesOf } from './events';
import type { PanelView } from './model';

export interface ChunkSpan {
  /** Index of the chunk in its connection. */
  chunk: number;
  /** Byte range of the chunk in the body, and the part of it inside the range asked for. */
  start: number;
  end: number;
  t: number;
}

/** The chunks that carry body bytes [start, end), clipped to that range. */
export function chunkSpans(record: ConnectionRecord, start: number, end: number): ChunkSpan[] {
  const out: ChunkSpan[] = [];
  let position = 0;
  record.chunks.forEach((chunk, i) => {
    const cStart = position;
    const cEnd = position + chunk.bytes.length;
    position = cEnd;
    const s = Math.max(cStart, start);
    const e = Math.min(cEnd, end);
    if (s < e) out.push({ chunk: i, start: s, end: e, t: chunk.t });
  });
  return out;
}

/** Body bytes [start, end) copied out of the chunks. */
export function sliceBody(record: ConnectionRecord, start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  let position = 0;
  for (const chunk of record.chunks) {
    const cStart = position;
    position += chunk.bytes.length;
    const s = Math.max(cStart, start);
    const e = Math.min(position, end);
    if (s < e) out.set(chunk.bytes.subarray(s - cStart, e - cStart), s - start);
    if (position >= end) break;
  }
  return out;
}

/** The text of [start, end) split at chunk boundaries, decoded so a character split across chunks stays whole. */
export function rawSegments(
  record: ConnectionRecord,
  start: number,
  end: number,
): Array<{ chunk: number; text: string }> {
  const decoder = new TextDecoder();
  const spans = chunkSpans(record, start, end);
  return spans.map((span, i) => ({
    chunk: span.chunk,
    text: decoder.decode(sliceBody(record, span.start, span.end), { stream: i < spans.length - 1 }),
  }));
}

export interface AnsweredRequest {
  message: JsonRpcMessage;
  connection: ConnectionView;
}

/** For responses carried by the event: the client request (POST body) with the same id in the same session. */
export function answeredRequests(view: PanelView, event: EventView): AnsweredRequest[] {
  const out: AnsweredRequest[] = [];
  const session = view.sessionsByKey.get(event.sessionKey);
  if (!session) return out;
  for (const message of envelopesOf(event)) {
    if ((message.kind !== 'response' && message.kind !== 'error') || message.id === undefined) continue;
    for (const id of session.connectionIds) {
      const connection = view.connectionsById.get(id);
      const request = connection?.requestMessages.find((m) => m.kind === 'request' && m.id === message.id);
      if (connection && request) {
        out.push({ message: request, connection });
        break;
      }
    }
  }
  return out;
}

/** The parsed data of an event for the JSON tree: one message, a batch, or nothing when it is not JSON. */
export function eventJson(event: EventView): { value: unknown } | undefined {
  const messages = event.messages; // parsed on each read: once here
  if (messages.length === 1) return { value: messages[0]?.value };
  if (messages.length > 1) return { value: messages.map((m) => m.value) };
  const data = event.data;
  if (data === '') return undefined;
  try {
    return { value: JSON.parse(data) as unknown };
  } catch {
    return undefined; // not JSON: the raw view shows it, and incomplete-json says why
  }
}
